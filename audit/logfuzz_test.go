package audit

import (
	"strings"
	"testing"
	"time"
)

// FuzzParseCLF feeds arbitrary lines to the Combined Log Format reader: it
// never panics; a line it reads has its fields as they stand in the line,
// and its time is what time.Parse reads.
func FuzzParseCLF(f *testing.F) {
	f.Add([]byte(`127.0.0.1 - frank [10/Oct/2000:13:55:36 -0700] "GET /apache_pb.gif HTTP/1.0" 200 2326 "http://www.example.com/start.html" "Mozilla/4.08 [en] (Win98; I ;Nav)"`))
	f.Add([]byte(`::1 - - [01/Jan/2026:00:00:00 +0000] "HEAD / HTTP/1.1" 304 -`))
	f.Add([]byte(`1.2.3.4 - - [01/Jan/2026:00:00:00 +0100] "GET /a?b=\"c\" HTTP/1.1" 200 1 "-" "x \"quoted\" y\\"` + "\n"))
	f.Add([]byte(`1.2.3.4 - - [05/Feb/2026:12:00:00 +0000] "\x16\x03\x01" 400 0 "-" "-"`))
	f.Fuzz(func(t *testing.T, line []byte) {
		var rec logRecord
		var tc timeCache
		if err := parseCLF(line, &rec, &tc); err != nil {
			return
		}
		s := string(line)
		for _, field := range []string{rec.ip, rec.method, rec.target, rec.ua} {
			if !strings.Contains(s, field) {
				t.Fatalf("%q: field %q is not in the line", s, field)
			}
		}
		if rec.status < 0 || rec.status > 999 {
			t.Fatalf("%q: status %d", s, rec.status)
		}
		sp := strings.IndexByte(s, ' ')
		i := sp + 1 + strings.IndexByte(s[sp+1:], '[')
		tm, err := time.Parse("02/Jan/2006:15:04:05 -0700", s[i+1:i+27])
		if err != nil || tm.UnixNano() != rec.nanos {
			// time.Parse takes a leap second (:60) as an error; the reader
			// takes it as the next second.
			if !strings.Contains(s[i+1:i+27], ":60 ") {
				t.Fatalf("%q: time %d, time.Parse %v %v", s, rec.nanos, tm, err)
			}
		}
		// Read again from the cache: the same.
		var again logRecord
		if err := parseCLF(line, &again, &tc); err != nil || again != rec {
			t.Fatalf("%q: read twice: %+v then %+v (%v)", s, rec, again, err)
		}
	})
}

// FuzzJSONLogLine feeds arbitrary lines to the JSON log reader with each
// preset: it never panics.
func FuzzJSONLogLine(f *testing.F) {
	f.Add([]byte(`{"ts":1772359200.5,"request":{"remote_ip":"1.2.3.4","method":"GET","uri":"/x","headers":{"User-Agent":["Googlebot/2.1"]}},"status":200}`))
	f.Add([]byte(`{"EdgeStartTimestamp":"2026-03-01T00:00:00Z","ClientIP":"1.2.3.4","ClientRequestURI":"/","EdgeResponseStatus":200}`))
	f.Add([]byte(`{"time_iso8601":"2026-03-01T00:00:00+01:00","request_uri":"/a","status":"200","http_user_agent":"x"}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		for _, p := range LogPresets {
			var rec logRecord
			newJSONLine(p).parse(line, &rec)
		}
	})
}
