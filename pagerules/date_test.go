package pagerules

import (
	"testing"
	"time"
)

var dateTests = []struct {
	why, in, want string // want is RFC 3339 in UTC, or "" for no date
}{
	{google + " ISO 8601 date", "2020-09-21", "2020-09-21T00:00:00Z"},
	{google + " X-Robots-Tag example, RFC 822 with a US zone", "25 Jun 2010 15:00:00 PST", "2010-06-25T23:00:00Z"},
	{blog2007 + " RFC 822 in GMT", "7 Jul 2007 16:30:00 GMT", "2007-07-07T16:30:00Z"},
	{blog2007 + " RFC 850 form of the announcement", "25-Aug-2007 15:00:00 EST", "2007-08-25T20:00:00Z"},
	{"RFC 850 with its weekday and two-digit year", "Saturday, 25-Aug-07 15:00:00 EST", "2007-08-25T20:00:00Z"},
	{"RFC 1123", "Wed, 25 Jun 2025 15:00:00 GMT", "2025-06-25T15:00:00Z"},
	{"RFC 822 numeric zone", "25 Jun 2010 15:00 -0700", "2010-06-25T22:00:00Z"},
	{"RFC 822 daylight zone", "25 Jun 2010 15:00:00 PDT", "2010-06-25T22:00:00Z"},
	{"ISO 8601 with Z", "2020-09-21T15:00:00Z", "2020-09-21T15:00:00Z"},
	{"ISO 8601 with an offset and a fraction", "2020-09-21T15:00:00.250+02:00", "2020-09-21T13:00:00Z"},
	{"ISO 8601 basic offset", "2020-09-21T15:00:00+0530", "2020-09-21T09:30:00Z"},
	{"ISO 8601 without seconds or zone", "2020-09-21 15:00", "2020-09-21T15:00:00Z"},
	{"asctime", "Mon Jan  2 15:04:05 2006", "2006-01-02T15:04:05Z"},
	{"case does not matter", "25 JUN 2010 15:00:00 pst", "2010-06-25T23:00:00Z"},
	{"no such day", "2020-02-30", ""},
	{"no such month", "25 Foo 2010 15:00:00 GMT", ""},
	{"unknown zone", "25 Jun 2010 15:00:00 XYZ", ""},
	{"trailing junk", "2020-09-21 junk", ""},
	{"words", "someday", ""},
	{"empty", "", ""},
	{"three-digit year", "25 Jun 201 15:00:00 GMT", ""},
}

func TestParseDate(t *testing.T) {
	for _, tt := range dateTests {
		if tt.why == "" {
			t.Errorf("row %q says not why it exists", tt.in)
		}
		got, ok := parseDate(tt.in)
		s := ""
		if ok {
			s = got.UTC().Format(time.RFC3339)
		}
		if s != tt.want {
			t.Errorf("%s\nparseDate(%q) = %q, want %q", tt.why, tt.in, s, tt.want)
		}
	}
}
