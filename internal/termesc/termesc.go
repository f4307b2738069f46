// Package termesc keeps text that others write, a site's robots.txt,
// sitemaps, headers and pages, from driving the terminal it is printed
// on. A terminal acts on control characters instead of printing them:
// ESC and the C1 controls start sequences that set the window title,
// clear the screen or move the cursor (ECMA-48 §5, §8.3), BEL rings, CR
// and BS let text write over what was printed before it.
//
// Which characters are escaped is decided here, once: [Unsafe] for a
// stream of output ([Writer]), unicode.IsPrint for a single value
// ([Quote]).
package termesc

import (
	"fmt"
	"io"
	"strconv"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Unsafe reports whether a terminal acts on r instead of printing it: a
// C0 control other than the newline and tab that lay out text, DEL, or a
// C1 control (U+0080 to U+009F, which some terminals take as ESC
// sequences even when written as UTF-8).
func Unsafe(r rune) bool {
	return r < 0x20 && r != '\n' && r != '\t' || r >= 0x7f && r <= 0x9f
}

// Quote returns s as it is when every character of it is printable
// (unicode.IsPrint: no control, no format character such as a bidi
// override, and valid UTF-8), else s quoted as a Go string, with each of
// those escaped, so that a value reads unambiguously in a line of
// output.
func Quote(s string) string {
	for i, r := range s {
		if r == utf8.RuneError && !validAt(s, i) || !unicode.IsPrint(r) {
			return strconv.Quote(s)
		}
	}
	return s
}

// validAt reports whether s holds the character U+FFFD itself at i, not
// a byte that is not UTF-8.
func validAt(s string, i int) bool {
	_, n := utf8.DecodeRuneInString(s[i:])
	return n == 3
}

// Writer writes to an underlying writer what it is given, with every
// [Unsafe] character escaped as \u001b and every byte that is not UTF-8
// as \xff. Newlines and tabs, and everything else, pass as they are. The
// escapes are those of JSON for the characters JSON leaves raw (DEL and
// the C1 controls): output that is JSON stays JSON, meaning the same.
//
// A character cut between two writes is held until the next; Flush
// writes what is held. A Writer may be used from several goroutines.
type Writer struct {
	mu   sync.Mutex
	w    io.Writer
	held []byte // the start of a character cut at the end of a write
	buf  []byte
}

// NewWriter returns a Writer that writes to w.
func NewWriter(w io.Writer) *Writer {
	return &Writer{w: w}
}

// Write writes p, escaped. It returns len(p) when all of it was written
// or held.
func (w *Writer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	n := len(p)
	if len(w.held) > 0 {
		// Complete the character held with p's first bytes.
		need := min(utf8.UTFMax-len(w.held), len(p))
		joined := append(w.held[:len(w.held):len(w.held)], p[:need]...)
		_, size := utf8.DecodeRune(joined)
		switch {
		case !utf8.FullRune(joined):
			w.held = joined
			return n, nil
		case size > len(w.held):
			p = p[size-len(w.held):]
			w.held = nil
			if err := w.write(joined[:size]); err != nil {
				return 0, err
			}
		default:
			// The held bytes are no character: escape them.
			held := w.held
			w.held = nil
			if err := w.write(held); err != nil {
				return 0, err
			}
		}
	}
	// Hold a character cut at the end of p.
	if i := cutStart(p); i >= 0 {
		w.held = append([]byte(nil), p[i:]...)
		p = p[:i]
	}
	if err := w.write(p); err != nil {
		return 0, err
	}
	return n, nil
}

// cutStart returns where a character that p ends in the middle of starts,
// or -1.
func cutStart(p []byte) int {
	for i := len(p) - 1; i >= 0 && i >= len(p)-utf8.UTFMax; i-- {
		if utf8.RuneStart(p[i]) {
			if !utf8.FullRune(p[i:]) {
				return i
			}
			return -1
		}
	}
	return -1
}

// Flush writes what is held of a character cut at the end of the last
// write, escaped as the bytes it is.
func (w *Writer) Flush() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	held := w.held
	w.held = nil
	return w.write(held)
}

// write writes p escaped.
func (w *Writer) write(p []byte) error {
	if len(p) == 0 {
		return nil
	}
	if clean(p) {
		_, err := w.w.Write(p)
		return err
	}
	b := w.buf[:0]
	for len(p) > 0 {
		r, size := utf8.DecodeRune(p)
		switch {
		case r == utf8.RuneError && size <= 1:
			b = fmt.Appendf(b, `\x%02x`, p[0])
			size = 1
		case Unsafe(r):
			b = fmt.Appendf(b, `\u%04x`, r)
		default:
			b = append(b, p[:size]...)
		}
		p = p[size:]
	}
	w.buf = b[:0]
	_, err := w.w.Write(b)
	return err
}

// clean reports whether p has nothing to escape.
func clean(p []byte) bool {
	for i := 0; i < len(p); {
		c := p[i]
		if c < utf8.RuneSelf {
			if Unsafe(rune(c)) {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(p[i:])
		if r == utf8.RuneError && size <= 1 || Unsafe(r) {
			return false
		}
		i += size
	}
	return true
}
