package sitemap

import (
	"bufio"
	"bytes"
	"io"
)

// readText reads a plain text sitemap: one URL per line, nothing else
// (sitemaps.org, "Text file"). A line ends at CR, LF or CR LF, the line
// ends of RFC 9309 §2.2 and XML 1.0 §2.11. Blank lines are skipped; a line
// longer than the buffer is reported and skipped.
func (r *Reader) readText(yield func(Entry, error) bool) error {
	r.kind = Text
	r.checkContentType(Text)
	for {
		line, err := r.readLine()
		if err == bufio.ErrBufferFull {
			r.find(r.line, LongLine, "a line longer than 64 KiB: skipped", "")
			if err = r.skipLine(); err != nil {
				return err
			}
			r.line++
			continue
		}
		if err != nil && err != io.EOF {
			return err // a line cut by the stream's end is no entry
		}
		if s := bytes.TrimSpace(line); len(s) > 0 {
			if !r.emit(Entry{Loc: string(s), Line: r.line}, yield) {
				return nil
			}
		}
		if err != nil {
			return nil
		}
		r.line++
	}
}

// readLine returns the next line without its end, valid until the next
// read: with io.EOF when it is the last and has no end, or with
// bufio.ErrBufferFull when it does not fit the buffer (nothing of it is
// consumed then). It reads no byte past the line's end: that a CR is
// followed by LF is seen when the next line is read, so that a line is
// yielded as soon as it has come.
func (r *Reader) readLine() ([]byte, error) {
	if r.cr {
		r.cr = false
		b, err := r.br.Peek(1)
		if len(b) == 0 {
			return nil, err
		}
		if b[0] == '\n' {
			r.br.Discard(1)
		}
	}
	scanned := 0
	for {
		b, err := r.br.Peek(max(r.br.Buffered(), scanned+1))
		if i := bytes.IndexAny(b[scanned:], "\r\n"); i >= 0 {
			i += scanned
			r.cr = b[i] == '\r'
			r.br.Discard(i + 1)
			return b[:i], nil
		}
		scanned = len(b)
		switch {
		case err == bufio.ErrBufferFull:
			return nil, err
		case err != nil:
			r.br.Discard(len(b))
			return b, err
		}
	}
}

// skipLine reads up to the end of the current line.
func (r *Reader) skipLine() error {
	for {
		b, err := r.br.Peek(max(r.br.Buffered(), 1))
		if i := bytes.IndexAny(b, "\r\n"); i >= 0 {
			r.cr = b[i] == '\r'
			r.br.Discard(i + 1)
			return nil
		}
		r.br.Discard(len(b))
		if err != nil && err != bufio.ErrBufferFull {
			return err
		}
	}
}
