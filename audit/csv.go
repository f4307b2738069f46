package audit

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// appendCSV appends a record to dst as one line of CSV, byte for byte as
// encoding/csv's Writer writes it (comma-separated, "\n" line ends), but
// into a slice, without the Writer's per-byte calls: the CSV output is
// written a row per agent per capture, and its encoding was a tenth of an
// audit's time.
func appendCSV(dst []byte, rec []string) []byte {
	for n, f := range rec {
		if n > 0 {
			dst = append(dst, ',')
		}
		if !csvNeedsQuotes(f) {
			dst = append(dst, f...)
			continue
		}
		dst = append(dst, '"')
		for len(f) > 0 {
			i := strings.IndexByte(f, '"')
			if i < 0 {
				dst = append(dst, f...)
				break
			}
			dst = append(dst, f[:i+1]...)
			dst = append(dst, '"')
			f = f[i+1:]
		}
		dst = append(dst, '"')
	}
	return append(dst, '\n')
}

// csvNeedsQuotes reports whether encoding/csv quotes a field: one that
// holds a comma, a quote, CR or LF, starts with a space character, or is
// `\.`.
func csvNeedsQuotes(f string) bool {
	if f == "" {
		return false
	}
	if f == `\.` {
		return true
	}
	for i := 0; i < len(f); i++ {
		if c := f[i]; c < 0x80 && csvSpecial[c] {
			return true
		}
	}
	if f[0] < utf8.RuneSelf {
		return asciiSpace[f[0]]
	}
	r, _ := utf8.DecodeRuneInString(f)
	return unicode.IsSpace(r)
}

var csvSpecial = [128]bool{',': true, '"': true, '\r': true, '\n': true}

var asciiSpace = [128]bool{'\t': true, '\n': true, '\v': true, '\f': true, '\r': true, ' ': true}
