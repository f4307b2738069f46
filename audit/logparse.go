package audit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unsafe"
)

// This file reads one line of an access log into a logRecord: the Combined
// (or Common) Log Format that Apache and nginx write by default, parsed by
// hand, and JSON Lines whose field names a LogFields maps.

// logRecord is one request as a log line records it. Its strings point into
// the line they were read from: they are valid until the next line is read.
type logRecord struct {
	nanos  int64 // the request's time, Unix nanoseconds
	zone   int32 // its UTC offset as logged, seconds east of UTC
	ip     string
	method string
	target string // as logged: not decoded
	status int32
	ua     string
}

// Log formats (LogConfig.Format).
const (
	LogAuto       = "auto"       // each file: CLF, or JSON Lines with the preset its first JSON line's fields name
	LogCLF        = "clf"        // Combined or Common Log Format
	LogNginxJSON  = "nginx-json" // nginx log_format ... escape=json, with the fields of LogPresets["nginx-json"]
	LogCaddy      = "caddy"      // Caddy's JSON access log
	LogCloudflare = "cloudflare" // Cloudflare Logpush, http_requests dataset, JSON
	LogJSON       = "json"       // JSON Lines with the fields LogConfig.Fields names
)

// LogFields names the fields of a JSON Lines log. A name with dots walks
// into nested objects ("request.headers.User-Agent"); a field whose value is
// an array (Caddy's headers) is read as its first element.
type LogFields struct {
	Time      string // RFC 3339 text, Common Log Format time, or a number: Unix seconds, milli-, micro- or nanoseconds by its size
	IP        string
	Method    string
	Target    string // the request target: path and query as sent
	Status    string
	UserAgent string
}

// LogPresets are the field names of the JSON logs robotsaudit logs knows by
// name:
//
//   - "nginx-json": the log_format that audit/README.md gives (nginx's
//     variables as names, written with escape=json:
//     https://nginx.org/en/docs/http/ngx_http_log_module.html#log_format).
//   - "caddy": Caddy's JSON access log (https://caddyserver.com/docs/caddyfile/directives/log):
//     ts (Unix seconds), request.remote_ip, request.method, request.uri,
//     status, request.headers.User-Agent (a list).
//   - "cloudflare": Cloudflare Logpush's HTTP requests dataset
//     (https://developers.cloudflare.com/logs/reference/log-fields/zone/http_requests/):
//     EdgeStartTimestamp (RFC 3339, Unix seconds or nanoseconds, as the
//     job's timestamp_format says), ClientIP, ClientRequestMethod,
//     ClientRequestURI, EdgeResponseStatus, ClientRequestUserAgent.
var LogPresets = map[string]LogFields{
	LogNginxJSON: {Time: "time_iso8601", IP: "remote_addr", Method: "request_method", Target: "request_uri",
		Status: "status", UserAgent: "http_user_agent"},
	LogCaddy: {Time: "ts", IP: "request.remote_ip", Method: "request.method", Target: "request.uri",
		Status: "status", UserAgent: "request.headers.User-Agent"},
	LogCloudflare: {Time: "EdgeStartTimestamp", IP: "ClientIP", Method: "ClientRequestMethod", Target: "ClientRequestURI",
		Status: "EdgeResponseStatus", UserAgent: "ClientRequestUserAgent"},
}

// sniffPreset returns the preset whose target field a JSON line has, or "".
func sniffPreset(line []byte) string {
	var m map[string]json.RawMessage
	if json.Unmarshal(line, &m) != nil {
		return ""
	}
	for _, p := range []string{LogCloudflare, LogCaddy, LogNginxJSON} {
		if _, ok := jsonPath(m, LogPresets[p].Target); ok {
			return p
		}
	}
	return ""
}

// errLine says why a line does not parse.
type errLine string

func (e errLine) Error() string { return string(e) }

// parseCLF reads a line of the Combined Log Format,
//
//	host ident user [day/Mon/year:hh:mm:ss zone] "request" status bytes "referer" "user-agent"
//
// or of the Common Log Format (without the last two fields, user-agent
// ""). Fields after the user-agent are allowed (nginx's and Apache's
// variants add some). The request is "METHOD TARGET PROTOCOL"; a request
// that is not (a TLS handshake sent to a plain port, "-") leaves method and
// target as much of it as there is. tc caches the last time read.
func parseCLF(line []byte, rec *logRecord, tc *timeCache) error {
	line = trimEOL(line)
	sp := bytes.IndexByte(line, ' ')
	if sp <= 0 {
		return errLine("no host field")
	}
	rec.ip = bstr(line[:sp])
	rest := line[sp+1:]
	lb := bytes.IndexByte(rest, '[')
	if lb < 0 {
		return errLine("no [time]")
	}
	rest = rest[lb+1:]
	rb := bytes.IndexByte(rest, ']')
	if rb < 0 {
		return errLine("no [time]")
	}
	var err error
	if rec.nanos, rec.zone, err = tc.clf(rest[:rb]); err != nil {
		return err
	}
	rest = rest[rb+1:]
	if len(rest) < 2 || rest[0] != ' ' || rest[1] != '"' {
		return errLine(`no "request" after the time`)
	}
	req, rest, ok := quoted(rest[1:])
	if !ok {
		return errLine("the request's quote is not closed")
	}
	rec.method, rec.target = splitRequest(req)
	if len(rest) < 4 || rest[0] != ' ' {
		return errLine("no status")
	}
	st := rest[1:4]
	if !isDigits(st) || (len(rest) > 4 && rest[4] != ' ') {
		return errLine("the status is not 3 digits")
	}
	rec.status = int32(st[0]-'0')*100 + int32(st[1]-'0')*10 + int32(st[2]-'0')
	rest = rest[4:]
	rec.ua = ""
	// bytes
	if len(rest) > 0 {
		rest = rest[1:]
		if sp := bytes.IndexByte(rest, ' '); sp >= 0 {
			rest = rest[sp:]
		} else {
			rest = nil
		}
	}
	if len(rest) == 0 {
		return nil // Common Log Format
	}
	if len(rest) < 2 || rest[1] != '"' {
		return errLine(`no "referer" after the size`)
	}
	if _, rest, ok = quoted(rest[1:]); !ok {
		return errLine("the referer's quote is not closed")
	}
	if len(rest) < 2 || rest[0] != ' ' || rest[1] != '"' {
		return errLine(`no "user-agent" after the referer`)
	}
	ua, _, ok := quoted(rest[1:])
	if !ok {
		return errLine("the user-agent's quote is not closed")
	}
	rec.ua = bstr(ua)
	return nil
}

// quoted reads a field that starts with '"' up to its closing quote (one
// that no backslash escapes: Apache writes '"' as \", nginx as \x22), and
// returns it without the quotes and what follows.
func quoted(b []byte) (field, rest []byte, ok bool) {
	for i := 1; i < len(b); {
		j := bytes.IndexByte(b[i:], '"')
		if j < 0 {
			return nil, nil, false
		}
		i += j
		bs := 0
		for k := i - 1; k >= 1 && b[k] == '\\'; k-- {
			bs++
		}
		if bs%2 == 0 {
			return b[1:i], b[i+1:], true
		}
		i++
	}
	return nil, nil, false
}

// splitRequest reads "METHOD TARGET PROTOCOL".
func splitRequest(req []byte) (method, target string) {
	sp := bytes.IndexByte(req, ' ')
	if sp < 0 {
		return bstr(req), ""
	}
	method, t := bstr(req[:sp]), req[sp+1:]
	if last := bytes.LastIndexByte(t, ' '); last >= 0 && bytes.HasPrefix(t[last+1:], []byte("HTTP/")) {
		t = t[:last]
	}
	return method, bstr(t)
}

func trimEOL(b []byte) []byte {
	if n := len(b); n > 0 && b[n-1] == '\n' {
		b = b[:n-1]
		if n := len(b); n > 0 && b[n-1] == '\r' {
			b = b[:n-1]
		}
	}
	return b
}

func isDigits(b []byte) bool {
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return len(b) > 0
}

// bstr returns the bytes as a string without copying: the string is valid
// while b is not written.
func bstr(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// timeCache remembers the last Common Log Format time read: the lines of a
// log come many a second.
type timeCache struct {
	last  [32]byte
	n     int
	nanos int64
	zone  int32
}

var months = [...]string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}

// clf reads "10/Oct/2000:13:55:36 -0700".
func (tc *timeCache) clf(b []byte) (int64, int32, error) {
	if tc.n > 0 && tc.n == len(b) && string(tc.last[:tc.n]) == string(b) {
		return tc.nanos, tc.zone, nil
	}
	nanos, zone, err := parseCLFTime(b)
	if err != nil {
		return 0, 0, err
	}
	if len(b) <= len(tc.last) {
		tc.n = copy(tc.last[:], b)
		tc.nanos, tc.zone = nanos, zone
	}
	return nanos, zone, nil
}

func parseCLFTime(b []byte) (int64, int32, error) {
	// 10/Oct/2000:13:55:36 -0700
	if len(b) != 26 || b[2] != '/' || b[6] != '/' || b[11] != ':' || b[14] != ':' || b[17] != ':' || b[20] != ' ' ||
		(b[21] != '+' && b[21] != '-') {
		return 0, 0, errLine("the time is not day/Mon/year:hh:mm:ss ±hhmm")
	}
	num := func(s []byte) int {
		n := 0
		for _, c := range s {
			if c < '0' || c > '9' {
				return -1
			}
			n = n*10 + int(c-'0')
		}
		return n
	}
	day, year, hh, mm, ss, zh, zm := num(b[0:2]), num(b[7:11]), num(b[12:14]), num(b[15:17]), num(b[18:20]), num(b[22:24]), num(b[24:26])
	mon := -1
	for i, m := range months {
		if string(b[3:6]) == m {
			mon = i + 1
		}
	}
	if year < minLogYear || year > maxLogYear {
		return 0, 0, errLine("the time's year is out of range (1900-2200)")
	}
	if day < 1 || day > 31 || mon < 0 || hh < 0 || hh > 23 || mm < 0 || mm > 59 || ss < 0 || ss > 60 || zh < 0 || zh > 23 || zm < 0 || zm > 59 {
		return 0, 0, errLine("the time is not day/Mon/year:hh:mm:ss ±hhmm")
	}
	zone := int32(zh*3600 + zm*60)
	if b[21] == '-' {
		zone = -zone
	}
	days := daysFromCivil(year, mon, day)
	sec := days*86400 + int64(hh*3600+mm*60+ss) - int64(zone)
	return sec * 1e9, zone, nil
}

// The years a log's time may have: in that range, a time in nanoseconds
// fits an int64.
const (
	minLogYear = 1900
	maxLogYear = 2200
)

// daysFromCivil returns the days from 1970-01-01 to a date of the proleptic
// Gregorian calendar (the algorithm of Howard Hinnant's "chrono-compatible
// low-level date algorithms").
func daysFromCivil(y, m, d int) int64 {
	if m <= 2 {
		y--
	}
	era := y / 400
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return int64(era)*146097 + int64(doe) - 719468
}

// jsonLine reads JSON log lines with the fields f names.
type jsonLine struct {
	f     LogFields
	paths [6][]string
	m     map[string]json.RawMessage
}

func newJSONLine(f LogFields) *jsonLine {
	j := &jsonLine{f: f}
	for i, p := range []string{f.Time, f.IP, f.Method, f.Target, f.Status, f.UserAgent} {
		if p != "" {
			j.paths[i] = strings.Split(p, ".")
		}
	}
	return j
}

// jsonPath returns the value at a dotted path of an object.
func jsonPath(m map[string]json.RawMessage, path string) (json.RawMessage, bool) {
	return jsonWalk(m, strings.Split(path, "."))
}

func jsonWalk(m map[string]json.RawMessage, path []string) (json.RawMessage, bool) {
	if len(path) == 0 {
		return nil, false
	}
	v, ok := m[path[0]]
	for _, k := range path[1:] {
		if !ok {
			return nil, false
		}
		var sub map[string]json.RawMessage
		if json.Unmarshal(v, &sub) != nil {
			return nil, false
		}
		v, ok = sub[k]
	}
	return v, ok
}

// parse reads a JSON line into rec. A missing time or target is an error;
// a missing IP, method, status or user-agent is "" (method "GET" when the
// log has no method field: CDNs log GET and HEAD alike).
func (j *jsonLine) parse(line []byte, rec *logRecord) error {
	clear(j.m)
	if j.m == nil {
		j.m = map[string]json.RawMessage{}
	}
	if err := json.Unmarshal(line, &j.m); err != nil {
		return errLine("not a JSON object: " + err.Error())
	}
	str := func(i int) (string, bool, error) {
		if j.paths[i] == nil {
			return "", false, nil
		}
		v, ok := jsonWalk(j.m, j.paths[i])
		if !ok || string(v) == "null" {
			return "", false, nil
		}
		v = bytes.TrimSpace(v)
		if len(v) > 0 && v[0] == '[' {
			var a []json.RawMessage
			if json.Unmarshal(v, &a) != nil || len(a) == 0 {
				return "", false, nil
			}
			v = a[0]
		}
		if len(v) > 0 && v[0] == '"' {
			var s string
			if err := json.Unmarshal(v, &s); err != nil {
				return "", false, err
			}
			return s, true, nil
		}
		return string(v), true, nil
	}
	ts, ok, err := str(0)
	if err != nil || !ok {
		return errLine("no time field " + strconv.Quote(j.f.Time))
	}
	if rec.nanos, rec.zone, err = parseAnyTime(ts); err != nil {
		return err
	}
	if rec.target, ok, err = str(3); err != nil || !ok {
		return errLine("no target field " + strconv.Quote(j.f.Target))
	}
	rec.ip, _, _ = str(1)
	if rec.method, ok, _ = str(2); !ok {
		rec.method = "GET"
	}
	rec.ua, _, _ = str(5)
	rec.status = 0
	if s, ok, _ := str(4); ok {
		n, err := strconv.Atoi(s)
		if err != nil {
			return errLine("the status " + strconv.Quote(s) + " is not a number")
		}
		rec.status = int32(n)
	}
	return nil
}

// parseAnyTime reads a time as JSON logs write it: RFC 3339 (with or
// without fractions; a time without a zone is UTC), the Common Log Format's
// time, or a number of Unix seconds (with a fraction, as Caddy writes
// them), milliseconds, microseconds or nanoseconds, told apart by size (a
// time after 1973 in seconds is below 1e11; in milliseconds, 1e14; in
// microseconds, 1e17).
func parseAnyTime(s string) (int64, int32, error) {
	if s == "" {
		return 0, 0, errLine("an empty time")
	}
	if c := s[0]; c >= '0' && c <= '9' && !strings.ContainsAny(s, "-/:T") {
		f, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			return 0, 0, errLine("the time " + strconv.Quote(s) + " is not a number")
		}
		switch {
		case f < 1e11:
			return int64(f * 1e9), 0, nil
		case f < 1e14:
			return int64(f * 1e6), 0, nil
		case f < 1e17:
			return int64(f * 1e3), 0, nil
		}
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return 0, 0, errLine("the time " + strconv.Quote(s) + " is out of range")
		}
		return n, 0, nil
	}
	if len(s) == 26 && s[2] == '/' {
		return parseCLFTime([]byte(s))
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999Z07:00", "2006-01-02 15:04:05.999999999"} {
		if t, err := time.Parse(layout, s); err == nil {
			if t.Year() < minLogYear || t.Year() > maxLogYear {
				return 0, 0, errLine("the time's year is out of range (1900-2200)")
			}
			_, off := t.Zone()
			return t.UnixNano(), int32(off), nil
		}
	}
	return 0, 0, errLine(fmt.Sprintf("the time %q is neither RFC 3339, a log time nor a number", s))
}
