package sitemap

import (
	"bufio"
	"bytes"
	"io"
)

// readText reads a plain text sitemap: one URL per line, nothing else
// (sitemaps.org, "Text file"). Blank lines are skipped; a line longer than
// the buffer is reported and skipped.
func (r *Reader) readText(yield func(Entry, error) bool) error {
	r.kind = Text
	r.checkContentType(Text)
	for {
		line, err := r.br.ReadSlice('\n')
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
			if err == io.EOF {
				return nil
			}
			return err
		}
		r.line++
	}
}

// skipLine reads up to the end of the current line.
func (r *Reader) skipLine() error {
	for {
		_, err := r.br.ReadSlice('\n')
		if err != bufio.ErrBufferFull {
			return err
		}
	}
}
