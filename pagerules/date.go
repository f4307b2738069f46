package pagerules

import (
	"strings"
	"time"

	"github.com/robotstxt-go/robotstxt/internal/grammar"
)

// This file reads the date of unavailable_after. Google accepts "a widely
// adopted format including, but not limited to RFC 822, RFC 850, and ISO
// 8601", and ignores the rule when no valid date is given. Read here, with
// the examples of Google's documents:
//
//	2020-09-21                           ISO 8601 date (midnight UTC)
//	2020-09-21T15:00:00Z                 ISO 8601 date and time, with Z or ±hh:mm or ±hhmm
//	2020-09-21T15:00:00.5+02:00          fractions of a second are dropped
//	2020-09-21 15:00                     a space for the T, no seconds, no zone (UTC)
//	25 Jun 2010 15:00:00 PST             RFC 822 (and RFC 1123), weekday optional
//	Wed, 25 Jun 2010 15:00:00 GMT
//	Saturday, 25-Aug-07 15:00:00 EST     RFC 850, two-digit year
//	25-Aug-2007 15:00:00 EST             the form of Google's 2007 announcement
//	Mon Jan  2 15:04:05 2006             ANSI C asctime (UTC)
//
// Zones are GMT, UT, UTC, Z, the US zones of RFC 822 §5.1 (EST, EDT, CST,
// CDT, MST, MDT, PST, PDT) or a ±hhmm offset; a date with no zone is UTC.
// The reader is written by hand, rather than with time.Parse and a list of
// layouts, so that it allocates nothing and reads "PST" as UTC-8, which
// time.Parse does only where PST is the local zone.

// parseDate parses an unavailable_after value.
func parseDate(s string) (time.Time, bool) {
	d := dateScanner{s: trimWS(s)}
	if d.s == "" {
		return time.Time{}, false
	}
	if c := d.s[0]; c >= '0' && c <= '9' && len(d.s) >= 5 && d.s[4] == '-' {
		return d.iso()
	}
	return d.rfc()
}

// dateScanner reads a date from left to right.
type dateScanner struct {
	s string
	i int
}

func (d *dateScanner) done() bool { return d.i >= len(d.s) }

func (d *dateScanner) peek() byte {
	if d.done() {
		return 0
	}
	return d.s[d.i]
}

// skip skips any of the bytes in set.
func (d *dateScanner) skip(set string) {
	for !d.done() && strings.IndexByte(set, d.s[d.i]) >= 0 {
		d.i++
	}
}

// num reads from min to max digits.
func (d *dateScanner) num(min, max int) (int, bool) {
	n, k := 0, 0
	for k < max && !d.done() && d.s[d.i] >= '0' && d.s[d.i] <= '9' {
		n = n*10 + int(d.s[d.i]-'0')
		d.i++
		k++
	}
	return n, k >= min
}

// word reads a run of ASCII letters.
func (d *dateScanner) word() string {
	start := d.i
	for !d.done() && (d.s[d.i]|0x20 >= 'a' && d.s[d.i]|0x20 <= 'z') {
		d.i++
	}
	return d.s[start:d.i]
}

// expect reads the byte c.
func (d *dateScanner) expect(c byte) bool {
	if d.peek() != c {
		return false
	}
	d.i++
	return true
}

// iso reads YYYY-MM-DD, then optionally [T ]hh:mm[:ss[.frac]][zone].
func (d *dateScanner) iso() (time.Time, bool) {
	y, ok1 := d.num(4, 4)
	ok2 := d.expect('-')
	mo, ok3 := d.num(2, 2)
	ok4 := d.expect('-')
	day, ok5 := d.num(2, 2)
	if !(ok1 && ok2 && ok3 && ok4 && ok5) {
		return time.Time{}, false
	}
	if d.done() {
		return date(y, mo, day, 0, 0, 0, 0)
	}
	if c := d.peek(); c != 'T' && c != 't' && c != ' ' {
		return time.Time{}, false
	}
	d.i++
	return d.clockAndZone(y, mo, day)
}

// clockAndZone reads the time of day and the zone that end a date, and
// returns the time they make on day y-mo-day.
func (d *dateScanner) clockAndZone(y, mo, day int) (time.Time, bool) {
	h, m, s, ok := d.clock()
	if !ok {
		return time.Time{}, false
	}
	off, ok := d.zone()
	if !ok {
		return time.Time{}, false
	}
	return date(y, mo, day, h, m, s, off)
}

// clock reads hh:mm[:ss[.frac]].
func (d *dateScanner) clock() (h, m, s int, ok bool) {
	h, ok1 := d.num(1, 2)
	ok2 := d.expect(':')
	m, ok3 := d.num(2, 2)
	if !(ok1 && ok2 && ok3) {
		return 0, 0, 0, false
	}
	if d.expect(':') {
		var ok4 bool
		if s, ok4 = d.num(2, 2); !ok4 {
			return 0, 0, 0, false
		}
		if d.peek() == '.' || d.peek() == ',' {
			d.i++
			if _, ok := d.num(1, 9); !ok {
				return 0, 0, 0, false
			}
		}
	}
	return h, m, s, true
}

// zones are the zone names of RFC 822 §5.1 and their offsets in hours.
var zones = [...]struct {
	name string
	off  int
}{
	{"GMT", 0}, {"UT", 0}, {"UTC", 0}, {"Z", 0},
	{"EST", -5}, {"EDT", -4}, {"CST", -6}, {"CDT", -5},
	{"MST", -7}, {"MDT", -6}, {"PST", -8}, {"PDT", -7},
}

// zone reads an optional zone, after optional spaces, up to the end of the
// value, and returns its offset from UTC in seconds.
func (d *dateScanner) zone() (int, bool) {
	d.skip(" \t")
	if d.done() {
		return 0, true
	}
	off := 0
	switch c := d.peek(); c {
	case '+', '-':
		d.i++
		h, ok := d.num(2, 2)
		if !ok {
			return 0, false
		}
		d.expect(':')
		m, ok := d.num(2, 2)
		if !ok || h > 23 || m > 59 {
			return 0, false
		}
		off = h*3600 + m*60
		if c == '-' {
			off = -off
		}
	default:
		w := d.word()
		found := false
		for _, z := range zones {
			if grammar.EqualFold(w, z.name) {
				off, found = z.off*3600, true
				break
			}
		}
		if !found {
			return 0, false
		}
	}
	d.skip(" \t")
	return off, d.done()
}

// rfc reads the dates of RFC 822, RFC 850 and asctime: an optional weekday
// and comma, then "DD Mon YYYY", "DD-Mon-YY" or, for asctime, "Mon DD hh:mm:ss
// YYYY".
func (d *dateScanner) rfc() (time.Time, bool) {
	if isLetter(d.peek()) {
		if _, ok := weekday(d.word()); !ok {
			return time.Time{}, false
		}
		d.expect(',')
		d.skip(" \t")
	}
	if isLetter(d.peek()) { // asctime: Mon Jan  2 15:04:05 2006
		mo, ok := month(d.word())
		d.skip(" ")
		day, ok2 := d.num(1, 2)
		d.skip(" ")
		h, m, s, ok3 := d.clock()
		d.skip(" ")
		y, ok4 := d.num(4, 4)
		if !(ok && ok2 && ok3 && ok4) {
			return time.Time{}, false
		}
		off, ok := d.zone()
		if !ok {
			return time.Time{}, false
		}
		return date(y, mo, day, h, m, s, off)
	}
	day, ok := d.num(1, 2)
	if !ok {
		return time.Time{}, false
	}
	sep := d.peek()
	if sep != ' ' && sep != '-' {
		return time.Time{}, false
	}
	d.skip(" -")
	mo, ok := month(d.word())
	if !ok || d.peek() != sep {
		return time.Time{}, false
	}
	d.skip(" -")
	start := d.i
	y, ok := d.num(2, 4)
	if !ok || d.i-start == 3 {
		return time.Time{}, false
	}
	if d.i-start == 2 { // RFC 850's two-digit year: 70-99 are 19xx (as net/http reads it)
		if y < 70 {
			y += 2000
		} else {
			y += 1900
		}
	}
	if d.done() {
		return date(y, mo, day, 0, 0, 0, 0)
	}
	d.skip(" \t")
	return d.clockAndZone(y, mo, day)
}

// date returns the time, checking each field's range; off is the zone's
// offset from UTC in seconds.
func date(y, mo, day, h, m, s, off int) (time.Time, bool) {
	if mo < 1 || mo > 12 || day < 1 || day > daysIn(time.Month(mo), y) || h > 24 || m > 59 || s > 60 {
		return time.Time{}, false
	}
	if h == 24 && (m != 0 || s != 0) {
		return time.Time{}, false
	}
	t := time.Date(y, time.Month(mo), day, h, m, s, 0, time.UTC)
	return t.Add(-time.Duration(off) * time.Second), true
}

func daysIn(m time.Month, y int) int {
	return time.Date(y, m+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

var monthNames = [...]string{"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"}

// month reads a month's name: its first three letters, or all of it.
func month(w string) (int, bool) {
	if len(w) < 3 {
		return 0, false
	}
	for i, n := range monthNames {
		if grammar.EqualFold(w[:3], n) && (len(w) == 3 || grammar.EqualFold(w, time.Month(i+1).String())) {
			return i + 1, true
		}
	}
	return 0, false
}

var dayNames = [...]string{"sun", "mon", "tue", "wed", "thu", "fri", "sat"}

// weekday reads a day's name: its first three letters, or all of it.
func weekday(w string) (time.Weekday, bool) {
	if len(w) < 3 {
		return 0, false
	}
	for i, n := range dayNames {
		if grammar.EqualFold(w[:3], n) && (len(w) == 3 || grammar.EqualFold(w, time.Weekday(i).String())) {
			return time.Weekday(i), true
		}
	}
	return 0, false
}

func isLetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }
