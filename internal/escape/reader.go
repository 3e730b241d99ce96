package escape

import (
	"bufio"
	"bytes"
	"io"
	"path"
	"path/filepath"
	"strings"
)

// A Reader reads the compiler's -m diagnostics (go build -gcflags=-m=2
// output) one Record at a time.
//
// Its API is modeled on bufio.Scanner and benchfmt.Reader:
//
//	r := escape.NewReader(f, "build.txt")
//	for r.Scan() {
//		switch rec := r.Record().(type) {
//		case *escape.Diagnostic: …
//		case *escape.SyntaxError: … // a line that is not compiler output
//		}
//	}
//	if err := r.Err(); err != nil { … }
//
// A Reader retains ownership of the records it returns: the next Scan may
// reuse a Diagnostic and its Flow slice. The strings in it stay valid; a
// caller that keeps a Diagnostic copies it and clones Flow (NewIndex
// does). Reading allocates about one string per input line.
type Reader struct {
	s         *bufio.Scanner
	fileName  string
	line      int // input lines read
	err       error
	pkg       string
	recs      [2]Diagnostic
	cur       int  // recs[cur] was returned last; recs[1-cur] is being built
	building  bool // recs[1-cur] holds a diagnostic not yet returned
	synErr    *SyntaxError
	queued    bool // synErr is to be returned by the next Scan
	out       Record
	files     map[string]string
	workDir   string
	moduleDir string
	scratch   []byte
}

// NewReader returns a Reader that reads compiler output from r. fileName
// names the input in syntax errors.
func NewReader(r io.Reader, fileName string) *Reader {
	rd := new(Reader)
	rd.Reset(r, fileName)
	return rd
}

// Reset makes the Reader read from in, named fileName, keeping its root
// (SetRoot) and reusing its buffers.
func (r *Reader) Reset(in io.Reader, fileName string) {
	if fileName == "" {
		fileName = "<unknown>"
	}
	r.s = bufio.NewScanner(in)
	r.s.Buffer(nil, 4<<20) // "can inline" lines print whole function bodies
	r.fileName, r.line, r.err = fileName, 0, nil
	r.pkg, r.building, r.queued, r.out = "", false, false, nil
}

// SetRoot makes the reader report files relative to moduleDir: a relative
// name as the go command printed it is taken relative to workDir (the
// directory the go command ran in), and a file inside moduleDir is reported
// relative to it, slash-separated, as profiles report sites. Files outside
// moduleDir keep their absolute name. It applies to positions in flow lines
// too.
func (r *Reader) SetRoot(workDir, moduleDir string) {
	r.workDir, r.moduleDir = workDir, moduleDir
	clear(r.files)
}

// Record returns the record read by the last Scan: a *Diagnostic or a
// *SyntaxError. It is valid until the next Scan.
func (r *Reader) Record() Record { return r.out }

// Err returns the first I/O error the reader met, or nil at the end of the
// input. Syntax errors are records, not errors.
func (r *Reader) Err() error { return r.err }

// Scan reads the next record and reports whether there was one.
func (r *Reader) Scan() bool {
	if r.queued {
		r.queued = false
		r.out = r.synErr
		return true
	}
	for r.s.Scan() {
		r.line++
		line := bytes.TrimRight(r.s.Bytes(), "\r")
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		if h, ok := bytes.CutPrefix(line, []byte("# ")); ok {
			if r.pkg != string(h) {
				r.pkg = string(h)
			}
			continue
		}
		file, ln, col, msg, ok := splitPos(line)
		if !ok {
			return r.syntaxError("not a compiler diagnostic: want file:line:col: message")
		}
		if len(msg) >= 2 && msg[0] == ' ' && msg[1] == ' ' {
			// A flow line of the diagnostic being built.
			b := &r.recs[1-r.cur]
			if !r.building || b.Line != ln || b.Col != col || b.File != r.file(file) {
				return r.syntaxError("flow line without a diagnostic above it at the same position")
			}
			b.Flow = append(b.Flow, r.flowLine(msg))
			continue
		}
		msg = bytes.TrimPrefix(msg, []byte(" "))
		emit := r.building
		if emit {
			r.cur = 1 - r.cur
		}
		b := &r.recs[1-r.cur]
		b.Package, b.File, b.Line, b.Col = r.pkg, r.file(file), ln, col
		b.Message = string(msg)
		b.Flow = b.Flow[:0]
		b.inputName, b.inputLine = r.fileName, r.line
		classify(b)
		r.building = true
		if emit {
			r.out = &r.recs[r.cur]
			return true
		}
	}
	if err := r.s.Err(); err != nil {
		r.err = err
	}
	if r.building {
		r.building = false
		r.cur = 1 - r.cur
		r.out = &r.recs[r.cur]
		return true
	}
	r.out = nil
	return false
}

// syntaxError returns the diagnostic being built, if any, and queues a
// syntax error at the current line; or returns the syntax error.
func (r *Reader) syntaxError(msg string) bool {
	text := r.s.Text()
	if len(text) > 200 {
		text = strings.ToValidUTF8(text[:200], "") + "…"
	}
	r.synErr = &SyntaxError{FileName: r.fileName, Line: r.line, Msg: msg, Text: text}
	if r.building {
		r.building = false
		r.cur = 1 - r.cur
		r.out = &r.recs[r.cur]
		r.queued = true
		return true
	}
	r.out = r.synErr
	return true
}

// flowLine returns a flow line without its leading spaces, "from" steps
// indented by two, with the position of a step rewritten like File.
func (r *Reader) flowLine(msg []byte) string {
	msg = bytes.TrimLeft(msg, " ")
	r.scratch = r.scratch[:0]
	if bytes.HasPrefix(msg, []byte("from ")) {
		r.scratch = append(r.scratch, "  "...)
	}
	if i := bytes.LastIndex(msg, []byte(" at ")); i >= 0 {
		if file, pos, ok := cutEndPos(msg[i+len(" at "):]); ok {
			r.scratch = append(r.scratch, msg[:i+len(" at ")]...)
			r.scratch = append(r.scratch, r.file(file)...)
			r.scratch = append(r.scratch, pos...)
			return string(r.scratch)
		}
	}
	r.scratch = append(r.scratch, msg...)
	return string(r.scratch)
}

// file returns the reported name of a file as the compiler printed it.
func (r *Reader) file(raw []byte) string {
	if f, ok := r.files[string(raw)]; ok {
		return f
	}
	if r.files == nil {
		r.files = make(map[string]string)
	}
	f := normFile(string(raw), r.workDir, r.moduleDir)
	r.files[string(raw)] = f
	return f
}

// normFile resolves name against workDir and makes it relative to
// moduleDir when it is inside; without a moduleDir it only cleans the name.
func normFile(name, workDir, moduleDir string) string {
	if strings.HasPrefix(name, "<") { // <autogenerated>
		return name
	}
	if moduleDir == "" {
		return path.Clean(filepath.ToSlash(name))
	}
	abs := name
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(workDir, abs)
	}
	if rel, err := filepath.Rel(moduleDir, abs); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return filepath.ToSlash(rel)
	}
	return filepath.ToSlash(filepath.Clean(abs))
}

// splitPos splits "file:line:col: msg" (or "file:line: msg") into its
// parts; msg keeps the spaces after the position's last colon. A line that
// ends right after the position has an empty msg.
func splitPos(line []byte) (file []byte, ln, col int, msg []byte, ok bool) {
	for i := 1; i < len(line); i++ {
		if line[i] != ':' {
			continue
		}
		j := i + 1
		l, n := atoi(line[j:])
		if n == 0 || l == 0 || j+n >= len(line) || line[j+n] != ':' {
			continue
		}
		j += n + 1
		c, m := atoi(line[j:])
		if m > 0 && j+m < len(line) && line[j+m] == ':' {
			j += m + 1
		} else {
			c = 0
		}
		if j < len(line) && line[j] != ' ' {
			continue
		}
		return line[:i], l, c, line[j:], true
	}
	return nil, 0, 0, nil, false
}

// cutEndPos splits "… file:line:col" at the end of b, as flow steps end
// ("from hdr[:] (slice) at ./codec.go:18:26"), into the file and the
// ":line:col" after it.
func cutEndPos(b []byte) (file, pos []byte, ok bool) {
	end := len(b)
	for k := 0; k < 2; k++ {
		i := bytes.LastIndexByte(b[:end], ':')
		if i <= 0 {
			return nil, nil, false
		}
		if _, n := atoi(b[i+1 : end]); n == 0 || i+1+n != end {
			return nil, nil, false
		}
		end = i
	}
	return b[:end], b[end:], true
}

// atoi parses the decimal digits at the start of b, returning the value and
// how many bytes it used; it stops at 9 digits.
func atoi(b []byte) (v, n int) {
	for n < len(b) && n < 9 && '0' <= b[n] && b[n] <= '9' {
		v = v*10 + int(b[n]-'0')
		n++
	}
	return v, n
}
