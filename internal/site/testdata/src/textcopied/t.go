package textcopied

import "unicode"

// Lexer reads a pattern rune by rune.
type Lexer struct {
	input string
	pos   int
	out   []string
}

func (l *Lexer) read() rune {
	if l.pos >= len(l.input) {
		return -1
	}
	r := rune(l.input[l.pos])
	l.pos++
	return r
}

// fetchText copies the runes it reads, less the escapes: a substring
// where there is none.
func (l *Lexer) fetchText(stop rune) {
	var data []rune
	var escaped bool
	for {
		r := l.read()
		if r == -1 {
			break
		}
		if !escaped && r == '\\' {
			escaped = true
			continue
		}
		if !escaped && r == stop {
			break
		}
		escaped = false
		data = append(data, r) // want `fetchText copies what l.read\(\) reads into data one element at a time \(line 39\) and converts the copy with string\(data\) \(line 41\): the text is the input's own runes, in order, less those it skips \(the continue at line 33\)`
	}
	l.out = append(l.out, string(data))
}

// Word copies the bytes of s up to a space.
func Word(s string) string {
	buf := []byte{}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == ' ' {
			break
		}
		buf = append(buf, c) // want `Word copies what s\[i\] reads into buf one element at a time \(line 52\) and converts the copy with string\(buf\) \(line 54\): the text is the input's own bytes, in order$`
	}
	return string(buf)
}

// Lower changes every rune it copies: not the input's text.
func (l *Lexer) Lower() string {
	var data []rune
	for {
		r := l.read()
		if r == -1 {
			break
		}
		data = append(data, unicode.ToLower(r))
	}
	return string(data)
}

// Unquote adds runes of its own too: not a slice of the input.
func (l *Lexer) Unquote() string {
	var data []rune
	for {
		r := l.read()
		if r == -1 {
			break
		}
		if r == 'n' {
			data = append(data, '\n')
			continue
		}
		data = append(data, r)
	}
	return string(data)
}

// Runes keeps the copy as runes: no string made of it.
func (l *Lexer) Runes() []rune {
	var data []rune
	for {
		r := l.read()
		if r == -1 {
			break
		}
		data = append(data, r)
	}
	return data
}
