package sitemap

import (
	"bytes"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/robotstxt-go/robotstxt/internal/grammar"
)

// The fields of an entry.
const (
	fieldNone = iota
	fieldLoc
	fieldLastMod
	fieldFreq
	fieldPriority
	fieldPubDate // RSS: an RFC 822 date, written as a W3C Datetime
)

// w3cLayouts are the forms of a W3C Datetime
// (https://www.w3.org/TR/NOTE-datetime); time.Parse also accepts
// fractional seconds after the seconds of the last one.
var w3cLayouts = []string{
	"2006-01-02T15:04:05Z07:00",
	"2006-01-02",
	"2006-01-02T15:04Z07:00",
	"2006-01",
	"2006",
}

// validLastMod reports whether s is a W3C Datetime.
func validLastMod(s string) bool {
	for _, l := range w3cLayouts {
		if len(s) >= len(l)-6 {
			if _, err := time.Parse(l, s); err == nil {
				return true
			}
		}
	}
	return false
}

// rssLayouts are the forms of an RFC 822 date that RSS 2.0 uses, with
// and without the day name and with two- or four-digit years.
var rssLayouts = []string{time.RFC1123Z, time.RFC1123, "2 Jan 2006 15:04:05 -0700", "2 Jan 2006 15:04:05 MST", time.RFC822Z, time.RFC822}

// pubDate returns an RSS date in W3C Datetime form.
func pubDate(s string) (string, bool) {
	for _, l := range rssLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return t.Format(time.RFC3339), true
		}
	}
	return "", false
}

// changeFreqs are the values of changefreq (sitemaps.org, "XML tag
// definitions").
var changeFreqs = []string{"always", "hourly", "daily", "weekly", "monthly", "yearly", "never"}

// changeFreq returns the value of a changefreq, in lower case.
func changeFreq(b []byte) (string, bool) {
	for _, f := range changeFreqs {
		if grammar.EqualFold(b, f) {
			return f, true
		}
	}
	return "", false
}

// validPriority reports whether s is a number from 0.0 to 1.0.
func validPriority(b []byte) bool {
	p, err := strconv.ParseFloat(string(b), 64)
	return err == nil && p >= 0 && p <= 1
}

// decodeEntities appends text to dst with XML's five entities and
// character references decoded. It reports the first entity it cannot
// decode (bad) and whether a "&" began no entity at all (raw): both are
// kept as written.
func decodeEntities(dst, text []byte) (out []byte, bad string, raw bool) {
	for {
		i := bytes.IndexByte(text, '&')
		if i < 0 {
			return append(dst, text...), bad, raw
		}
		dst = append(dst, text[:i]...)
		text = text[i:]
		end := bytes.IndexByte(text[:min(len(text), 16)], ';')
		if end < 0 {
			raw = true
			dst = append(dst, '&')
			text = text[1:]
			continue
		}
		name := string(text[1:end])
		if r, ok := entity(name); ok {
			dst = utf8.AppendRune(dst, r)
		} else {
			if bad == "" {
				bad = "&" + name + ";"
			}
			dst = append(dst, text[:end+1]...)
		}
		text = text[end+1:]
	}
}

// entity returns the character an entity name stands for: one of XML's
// five predefined entities or a character reference. Entities declared in
// a DTD are never expanded.
func entity(name string) (rune, bool) {
	switch name {
	case "amp":
		return '&', true
	case "lt":
		return '<', true
	case "gt":
		return '>', true
	case "quot":
		return '"', true
	case "apos":
		return '\'', true
	}
	if len(name) < 2 || name[0] != '#' {
		return 0, false
	}
	base, digits := 10, name[1:]
	if digits[0] == 'x' {
		base, digits = 16, digits[1:]
	}
	n, err := strconv.ParseUint(digits, base, 32)
	if err != nil || n == 0 || !utf8.ValidRune(rune(n)) {
		return 0, false
	}
	return rune(n), true
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
