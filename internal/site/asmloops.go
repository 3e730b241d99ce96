package site

import (
	"bufio"
	"bytes"
	"fmt"
	"go/token"
	"regexp"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// AsmLoops describes the loops of a package's assembly files (a label
// and a backward jump to it), as Loops does for Go: a profile's line in a
// .s file lands in one of them. A loop that clears memory with one store
// of a zeroed register per iteration (snappy's `memclr: MOVOU X0, 0(BX);
// ADDQ $16, BX; SUBQ $1, DX; JNZ memclr` over its 32 KiB hash table) gets
// advice: wider stores or the runtime's memclr, which picks them for the
// CPU.
var AsmLoops = &analysis.Analyzer{
	Name: "asmloops",
	Doc:  "what each assembly loop does per iteration; a one-store clearing loop named as such",
	Run:  runAsmLoops,
}

// asmLine is one instruction or label of an assembly file.
type asmLine struct {
	line  int
	label string   // "memclr" for "memclr:"
	op    string   // "MOVOU"
	args  []string // "X0", "0(BX)"
}

var asmLabel = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_]*):`)

// parseAsm reads an assembly file's instructions and labels, comments
// and blank lines left out.
func parseAsm(src []byte) []asmLine {
	var out []asmLine
	sc := bufio.NewScanner(bytes.NewReader(src))
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		s := sc.Text()
		if i := strings.Index(s, "//"); i >= 0 {
			s = s[:i]
		}
		s = strings.TrimSpace(s)
		if m := asmLabel.FindStringSubmatch(s); m != nil {
			out = append(out, asmLine{line: n, label: m[1]})
			s = strings.TrimSpace(s[len(m[0]):])
		}
		if s == "" || strings.HasPrefix(s, "#") {
			continue
		}
		op, rest, _ := strings.Cut(s, " ")
		l := asmLine{line: n, op: strings.ToUpper(strings.TrimSpace(op))}
		for _, a := range strings.Split(rest, ",") {
			if a = strings.TrimSpace(a); a != "" {
				l.args = append(l.args, a)
			}
		}
		out = append(out, l)
	}
	return out
}

func runAsmLoops(pass *analysis.Pass) (any, error) {
	for _, name := range pass.OtherFiles {
		if !strings.HasSuffix(name, ".s") {
			continue
		}
		src, err := pass.ReadFile(name)
		if err != nil {
			continue
		}
		tf := pass.Fset.AddFile(name, -1, len(src))
		tf.SetLinesForContent(src)
		lines := parseAsm(src)
		asmCopies(pass, tf, lines)
		labels := map[string]int{} // label → index in lines
		for i, l := range lines {
			if l.label != "" && l.op == "" {
				labels[l.label] = i
			}
			if l.op == "TEXT" {
				// Labels are per function.
				clear(labels)
			}
			if !strings.HasPrefix(l.op, "J") || len(l.args) != 1 {
				continue
			}
			start, ok := labels[l.args[0]]
			if !ok {
				continue // a forward jump: not a loop
			}
			body := lines[start+1 : i+1]
			d := analysis.Diagnostic{
				Category: "loop",
				Pos:      tf.LineStart(lines[start].line),
				Message:  fmt.Sprintf("the assembly loop %s at lines %d–%d runs %d instructions per iteration", lines[start].label, lines[start].line, l.line, len(body)),
				Related:  []analysis.RelatedInformation{{Pos: tf.LineStart(l.line), Message: "the loop's end"}},
			}
			if reg, mem, width, ok := asmClearLoop(lines[:start], body); ok {
				d.Message += fmt.Sprintf(": it zeroes memory %d bytes per iteration (%s %s, %s: one store of the register %s zeroed before the loop, then a pointer step, a count and a branch)", width, body[0].op, reg, mem, reg)
				d.SuggestedFixes = []analysis.SuggestedFix{{Message: fmt.Sprintf("clear it with wider stores and fewer branches: unroll the loop to four or more stores per iteration (%d bytes or more), use 32-byte AVX2 stores (VMOVDQU Y0) where the CPU has them, or call the runtime's memclrNoHeapPointers, which picks the widest stores the CPU has", 4*width)}}
			}
			pass.Report(d)
		}
	}
	return nil, nil
}

// asmCopies reports the calls of runtime·memmove in an assembly function
// whose source is one of the function's arguments ("copy-on-inputs"):
// snappy's emitLiteral writes a tag and copies the literal it is given
// into dst. Storing what it is given is the function's work; fewer bytes
// copied is its callers' change. The arguments are read from the frame
// (MOVQ lit_base+24(FP), R10) and passed on the stack (MOVQ R10, 8(SP)),
// as ABI0 passes them.
func asmCopies(pass *analysis.Pass, tf *token.File, lines []asmLine) {
	var fn string
	args := map[string]string{}  // register → the argument read into it
	stack := map[string]string{} // stack slot → the register stored there
	for _, l := range lines {
		switch {
		case l.op == "TEXT" && len(l.args) > 0:
			fn, _, _ = strings.Cut(strings.TrimPrefix(l.args[0], "·"), "(")
			clear(args)
			clear(stack)
		case strings.HasPrefix(l.op, "MOV") && len(l.args) == 2:
			src, dst := l.args[0], l.args[1]
			if name, ok := strings.CutSuffix(src, "(FP)"); ok {
				name, _, _ = strings.Cut(name, "+")
				args[dst] = strings.TrimSuffix(name, "_base")
			} else if strings.HasSuffix(dst, "(SP)") {
				stack[dst] = src
			} else {
				delete(args, dst)
			}
		case l.op == "CALL" && len(l.args) == 1 && strings.HasPrefix(l.args[0], "runtime·memmove"):
			from, into := args[stack["8(SP)"]], args[stack["0(SP)"]]
			if from == "" || fn == "" {
				continue
			}
			where := ""
			if into != "" && into != from {
				where = " into " + into
			}
			pass.Report(analysis.Diagnostic{
				Category: "copy-on-inputs" + ownWork,
				Pos:      tf.LineStart(l.line),
				Message:  fmt.Sprintf("%s calls runtime·memmove to copy %s, which %s is given,%s", fn, from, fn, where),
				SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
					"storing what it is given is %s's own work, once per call: the bytes copied are the callers' to reduce (fewer or smaller values stored), not a copy to remove here", fn)}},
			})
		}
	}
}

// storeWidth is the bytes a store instruction writes.
var storeWidth = map[string]int{
	"MOVB": 1, "MOVW": 2, "MOVL": 4, "MOVQ": 8,
	"MOVOU": 16, "MOVO": 16, "MOVUPS": 16, "MOVAPS": 16, "MOVDQU": 16, "MOVDQA": 16,
	"VMOVDQU": 32, "VMOVDQA": 32, "VMOVUPS": 32,
}

// asmClearLoop reports whether a loop's body is one store of a register the
// code before the loop zeroed (PXOR X0, X0; XORQ AX, AX) to memory, with
// only arithmetic and the branch besides: a memory clear. It returns the
// register, the store's destination and the bytes per iteration.
func asmClearLoop(before, body []asmLine) (reg, mem string, width int, ok bool) {
	var store *asmLine
	for i := range body {
		l := &body[i]
		switch {
		case storeWidth[l.op] > 0 && len(l.args) == 2 && strings.Contains(l.args[1], "(") && !strings.Contains(l.args[0], "("):
			if store != nil {
				return "", "", 0, false
			}
			store = l
		case strings.HasPrefix(l.op, "J"), strings.HasPrefix(l.op, "ADD"), strings.HasPrefix(l.op, "SUB"),
			strings.HasPrefix(l.op, "INC"), strings.HasPrefix(l.op, "DEC"), strings.HasPrefix(l.op, "CMP"), strings.HasPrefix(l.op, "LEA"):
			for _, a := range l.args {
				if strings.Contains(a, "(") && !strings.HasPrefix(l.op, "LEA") {
					return "", "", 0, false // a load
				}
			}
		default:
			return "", "", 0, false
		}
	}
	if store == nil || store != &body[0] {
		return "", "", 0, false
	}
	reg = store.args[0]
	width = storeWidth[store.op]
	if strings.HasPrefix(store.op, "V") && strings.HasPrefix(reg, "X") {
		width = 16
	}
	// The register is zeroed before the loop, and nothing in between
	// writes it.
	for i := len(before) - 1; i >= 0; i-- {
		l := before[i]
		if l.op == "TEXT" {
			break
		}
		if len(l.args) == 0 || l.args[len(l.args)-1] != reg {
			continue
		}
		zero := len(l.args) >= 2 && strings.Contains(l.op, "XOR") && l.args[0] == reg && l.args[len(l.args)-2] == reg
		return reg, store.args[1], width, zero
	}
	return "", "", 0, false
}

// asmFunc names the TEXT symbol an assembly file's line is in, as
// profiles name it ("example.com/m.encodeBlock" for "·encodeBlock"), or "".
func asmFunc(src []byte, line int, pkgPath string) string {
	name := ""
	for _, l := range parseAsm(src) {
		if l.line > line {
			break
		}
		if l.op != "TEXT" || len(l.args) == 0 {
			continue
		}
		sym, _, _ := strings.Cut(l.args[0], "(")
		sym = strings.ReplaceAll(sym, "∕", "/")
		if local, ok := strings.CutPrefix(sym, "·"); ok {
			name = pkgPath + "." + local
		} else {
			name = strings.ReplaceAll(sym, "·", ".")
		}
	}
	return name
}
