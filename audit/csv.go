package audit

import (
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"
)

// appendCSV appends a record to dst as one line of CSV, byte for byte as
// encoding/csv's Writer writes the record's fields made safe (csvSafe;
// comma-separated, "\n" line ends), but into a slice, without the Writer's
// per-byte calls: the CSV output is written a row per agent per capture,
// and its encoding was a tenth of an audit's time.
func appendCSV(dst []byte, rec []string) []byte {
	return appendCSVSeen(dst, rec, nil)
}

// csvSeen remembers, for each column, the last field written and whether
// it needed quotes. Most fields of a row (the capture's URL, date and lint,
// the agent's operator and purpose) are the same string as in the row
// before, for every agent of a capture: the same bytes, which need no
// second look.
type csvSeen []struct {
	data  *byte
	n     int
	quote bool
	guard bool // csvFormula
}

// appendCSVSeen is appendCSV with what seen remembers of earlier rows; seen
// grows to the record's length.
func appendCSVSeen(dst []byte, rec []string, seen *csvSeen) []byte {
	if seen != nil && len(*seen) < len(rec) {
		*seen = append(*seen, make(csvSeen, len(rec)-len(*seen))...)
	}
	for n, f := range rec {
		if n > 0 {
			dst = append(dst, ',')
		}
		var quote, guard bool
		if seen == nil {
			f, guard = csvSafe(f), csvFormula(f)
			quote = csvNeedsQuotes(f)
		} else if c := &(*seen)[n]; c.data == unsafe.StringData(f) && c.n == len(f) {
			quote, guard = c.quote, c.guard
			if guard {
				f = csvSafe(f)
			}
		} else {
			c.data, c.n = unsafe.StringData(f), len(f)
			f, guard = csvSafe(f), csvFormula(f)
			quote = csvNeedsQuotes(f)
			c.quote, c.guard = quote, guard
		}
		if !quote {
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

// csvSafe returns a field as the CSV output writes it: a field that a
// spreadsheet would run as a formula (csvFormula) gets a leading "'",
// which Excel, LibreOffice and Google Sheets take as "text" and do not
// show (OWASP, "CSV Injection",
// https://owasp.org/www-community/attacks/CSV_Injection). Rules, URLs
// and dates come from the sites and archives audited; JSON Lines and
// Parquet carry them unchanged.
func csvSafe(f string) string {
	if csvFormula(f) {
		return "'" + f
	}
	return f
}

// csvFormula reports whether a spreadsheet would read a field as a
// formula: it starts with '=', '+', '-', '@', a tab or a CR, and is not a
// plain decimal number such as "-1" or "+0.5" (which the audit writes
// itself, and which runs nothing).
func csvFormula(f string) bool {
	if f == "" {
		return false
	}
	switch f[0] {
	case '=', '@', '\t', '\r':
		return true
	case '+', '-':
		return !plainNumber(f[1:])
	}
	return false
}

// plainNumber reports whether s is digits, optionally with one '.' among
// them.
func plainNumber(s string) bool {
	digits, dot := 0, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case '0' <= c && c <= '9':
			digits++
		case c == '.' && !dot:
			dot = true
		default:
			return false
		}
	}
	return digits > 0
}
