package fetch

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/robotstxt-go/robotstxt"
)

// newServer starts a loopback server closed at the end of the test.
func newServer(t *testing.T, h http.HandlerFunc) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

// raw returns a handler that hijacks the connection, writes resp as is and
// closes the connection: for answers net/http will not write.
func raw(resp string, reset bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		conn, buf, err := w.(http.Hijacker).Hijack()
		if err != nil {
			panic(err) // httptest servers can always hijack HTTP/1.1
		}
		buf.WriteString(resp)
		buf.Flush()
		if tc, ok := conn.(*net.TCPConn); ok && reset {
			tc.SetLinger(0) // close with RST instead of FIN
		}
		conn.Close()
	}
}

func TestFetchStatus(t *testing.T) {
	const body = "User-agent: *\nDisallow: /private\n"
	status := func(code int, body string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(code)
			io.WriteString(w, body)
		}
	}
	tests := []struct {
		name        string
		h           http.HandlerFunc
		code        int
		kind        robotstxt.Kind
		unreachable bool // Result.Err set
		reason      string
	}{
		{"200", status(200, body), 200, robotstxt.Parsed, false, "RFC 9309 §2.3.1.1: 2xx body is parsed"},
		{"204", status(204, ""), 204, robotstxt.Parsed, false, "an empty 2xx body is an empty file: allow all, by parsing"},
		{"401", status(401, body), 401, robotstxt.AllowAll, false, "RFC 9309 §2.3.1.3: 4xx, even unauthorized, means no robots.txt"},
		{"404", status(404, body), 404, robotstxt.AllowAll, false, "RFC 9309 §2.3.1.3: the common no-robots.txt case; the body is ignored"},
		{"410", status(410, ""), 410, robotstxt.AllowAll, false, "RFC 9309 §2.3.1.3: gone is unavailable too"},
		{"429", status(429, ""), 429, robotstxt.DisallowAll, false, "Google: 429 is treated as a server error, not a 4xx"},
		{"500", status(500, body), 500, robotstxt.DisallowAll, false, "RFC 9309 §2.3.1.4: server error, full disallow"},
		{"503", status(503, ""), 503, robotstxt.DisallowAll, false, "RFC 9309 §2.3.1.4: unavailable, full disallow"},
		{"302 without Location", status(302, body), 302, robotstxt.DisallowAll, false, "a 3xx that cannot be followed is left over: unreachable, per FromStatus"},
		{"304", status(304, ""), 304, robotstxt.DisallowAll, false, "304 to an unconditional GET makes no sense: unreachable"},
		{"103 then 200", raw("HTTP/1.1 103 Early Hints\r\nLink: </s.css>\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: "+fmt.Sprint(len(body))+"\r\n\r\n"+body, false), 200, robotstxt.Parsed, false, "a 1xx is interim: the final 200 decides"},
		{"600", raw("HTTP/1.1 600 Odd\r\nContent-Length: 0\r\n\r\n", false), 600, robotstxt.DisallowAll, false, "a status outside every class is unreachable, per FromStatus"},
		{"garbage", raw("SMTP ready\r\n\r\n", false), 0, robotstxt.DisallowAll, true, "a response that is not HTTP is a network failure"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newServer(t, tt.h)
			res, err := Fetch(context.Background(), srv.Client(), "Foobot/1.0", srv.URL+"/some/page")
			if err != nil {
				t.Fatalf("Fetch: %v (%s)", err, tt.reason)
			}
			if res.StatusCode != tt.code || res.Robots.Kind() != tt.kind || (res.Err != nil) != tt.unreachable {
				t.Errorf("Fetch: status %d, kind %v, err %v; want %d, %v, err %v (%s)",
					res.StatusCode, res.Robots.Kind(), res.Err, tt.code, tt.kind, tt.unreachable, tt.reason)
			}
			if res.Unreachable() != (tt.kind == robotstxt.DisallowAll) {
				t.Errorf("Unreachable() = %v for kind %v (%s)", res.Unreachable(), tt.kind, tt.reason)
			}
			if want := srv.URL + "/robots.txt"; res.RobotsURL != want {
				t.Errorf("RobotsURL = %q, want %q", res.RobotsURL, want)
			}
			if tt.kind == robotstxt.Parsed && tt.code == 200 && res.Robots.Allowed("Foobot", "/private") {
				t.Errorf("/private allowed after a 200 that disallows it (%s)", tt.reason)
			}
		})
	}
}

func TestFetchResultFields(t *testing.T) {
	const body = "User-agent: *\nDisallow: /x\n"
	var ua atomic.Value
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		ua.Store(r.Header.Get("User-Agent"))
		if r.URL.Path != "/robots.txt" || r.Method != http.MethodGet || r.Header.Get("If-Modified-Since") != "" {
			http.Error(w, "unexpected request", 400)
			return
		}
		w.Header().Set("Cache-Control", "public, max-age=3600")
		io.WriteString(w, body)
	})
	client := srv.Client()
	before := time.Now()
	res, err := Fetch(context.Background(), client, "Foobot/1.0 (+https://foo.example/bot)", srv.URL+"/a/b?c#d")
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != 200 || res.Bytes != len(body) || res.Truncated || res.Redirects != 0 || res.Err != nil {
		t.Errorf("Fetch = %+v; want 200, %d bytes, whole, no redirects, no error", res, len(body))
	}
	if res.FinalURL != srv.URL+"/robots.txt" {
		t.Errorf("FinalURL = %q", res.FinalURL)
	}
	if got := ua.Load(); got != "Foobot/1.0 (+https://foo.example/bot)" {
		t.Errorf("server saw User-Agent %q: the caller's user agent must be sent", got)
	}
	if res.TTL != time.Hour || !res.Expires.Equal(res.Fetched.Add(time.Hour)) {
		t.Errorf("TTL %v, Expires %v, Fetched %v: want max-age=3600 honoured", res.TTL, res.Expires, res.Fetched)
	}
	if res.Fetched.Before(before) || res.Duration < 0 {
		t.Errorf("Fetched %v before the call at %v, or Duration %v negative", res.Fetched, before, res.Duration)
	}
	if client.CheckRedirect != nil {
		t.Error("Fetch modified the caller's client")
	}
}

func TestFetchBadURL(t *testing.T) {
	tests := []struct {
		url    string
		err    error
		reason string
	}{
		{"/robots.txt", robotstxt.ErrRelativeURL, "a path has no origin"},
		{"http:///x", robotstxt.ErrNoHost, "no host to ask"},
		{"ftp://example.com/", ErrUnsupportedScheme, "net/http cannot fetch ftp"},
		{"gopher://example.com/", ErrUnsupportedScheme, "nor gopher"},
	}
	for _, tt := range tests {
		res, err := Fetch(context.Background(), nil, "", tt.url)
		var ue *robotstxt.URLError
		if res != nil || !errors.Is(err, tt.err) || !errors.As(err, &ue) {
			t.Errorf("Fetch(%q) = %v, %v; want nil, *URLError wrapping %v (%s)", tt.url, res, err, tt.err, tt.reason)
		}
	}
}

// redirector serves /robots.txt as a chain of hops redirects to /hopN,
// ending in a robots.txt; a negative hops makes a loop of /robots.txt and
// /hop1. It counts requests.
type redirector struct {
	hops     int
	requests atomic.Int32
}

func (rd *redirector) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rd.requests.Add(1)
	n := 0
	if r.URL.Path != "/robots.txt" {
		fmt.Sscanf(r.URL.Path, "/hop%d", &n)
	}
	switch {
	case rd.hops < 0 && n == 0:
		http.Redirect(w, r, "/hop1", http.StatusFound)
	case rd.hops < 0:
		http.Redirect(w, r, "/robots.txt", http.StatusMovedPermanently)
	case n < rd.hops:
		http.Redirect(w, r, fmt.Sprintf("/hop%d", n+1), http.StatusTemporaryRedirect)
	default:
		io.WriteString(w, "User-agent: *\nDisallow: /x\n")
	}
}

func TestFetchRedirects(t *testing.T) {
	tests := []struct {
		hops      int
		kind      robotstxt.Kind
		redirects int
		requests  int32
		err       error
		reason    string
	}{
		{1, robotstxt.Parsed, 1, 2, nil, "one redirect is followed"},
		{5, robotstxt.Parsed, 5, 6, nil, "RFC 9309 §2.3.1.2: at least five redirects are followed"},
		{6, robotstxt.AllowAll, 5, 6, errTooManyRedirects, "SPEC §8: a sixth hop is treated as 404, without requesting its target"},
		{20, robotstxt.AllowAll, 5, 6, errTooManyRedirects, "a long chain costs six requests"},
		{-1, robotstxt.AllowAll, 5, 6, errRedirectLoop, "a loop ends at the limit too, named as a loop"},
	}
	for _, tt := range tests {
		rd := &redirector{hops: tt.hops}
		srv := httptest.NewServer(rd)
		res, err := Fetch(context.Background(), srv.Client(), "", srv.URL+"/")
		srv.Close()
		if err != nil {
			t.Fatal(err)
		}
		if res.Robots.Kind() != tt.kind || res.Redirects != tt.redirects || !errors.Is(res.Err, tt.err) || (res.Err == nil) != (tt.err == nil) {
			t.Errorf("hops %d: kind %v, redirects %d, err %v; want %v, %d, %v (%s)",
				tt.hops, res.Robots.Kind(), res.Redirects, res.Err, tt.kind, tt.redirects, tt.err, tt.reason)
		}
		if got := rd.requests.Load(); got != tt.requests {
			t.Errorf("hops %d: %d requests, want %d (%s)", tt.hops, got, tt.requests, tt.reason)
		}
		if tt.kind == robotstxt.Parsed && res.FinalURL != fmt.Sprintf("%s/hop%d", srv.URL, tt.hops) {
			t.Errorf("hops %d: FinalURL %q (%s)", tt.hops, res.FinalURL, tt.reason)
		}
	}
}

// TestFetchCrossHostRedirect checks that a redirect to another origin is
// followed and its file used for the origin first asked (SPEC §8).
func TestFetchCrossHostRedirect(t *testing.T) {
	other := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "User-agent: *\nDisallow: /moved\n")
	})
	first := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+"/robots.txt", http.StatusMovedPermanently)
	})
	res, err := Fetch(context.Background(), first.Client(), "", first.URL+"/page")
	if err != nil {
		t.Fatal(err)
	}
	if res.RobotsURL != first.URL+"/robots.txt" || res.FinalURL != other.URL+"/robots.txt" || res.Redirects != 1 {
		t.Errorf("RobotsURL %q, FinalURL %q, Redirects %d; want the first origin asked, the other answering, 1 hop",
			res.RobotsURL, res.FinalURL, res.Redirects)
	}
	if res.Robots.Allowed("Foobot", "/moved") {
		t.Error("the redirect target's rules were not used")
	}
}

// TestFetchCallerCheckRedirect checks that the caller's redirect policy is
// still consulted, and that refusing a hop makes the file unreachable.
func TestFetchCallerCheckRedirect(t *testing.T) {
	rd := &redirector{hops: 3}
	srv := newServer(t, rd.ServeHTTP)
	client := srv.Client()
	refuse := errors.New("no redirects to /hop2")
	client.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if req.URL.Path == "/hop2" {
			return refuse
		}
		return nil
	}
	res, err := Fetch(context.Background(), client, "", srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	if !errors.Is(res.Err, refuse) || !res.Unreachable() || res.Redirects != 1 {
		t.Errorf("err %v, unreachable %v, redirects %d; want the caller's error, unreachable, 1", res.Err, res.Unreachable(), res.Redirects)
	}
}

// TestFetchLargeBody checks the 500 KiB limit on a 10 MB file: exactly
// MaxBodySize bytes are read, and the connection is closed rather than
// drained, which the server sees.
func TestFetchLargeBody(t *testing.T) {
	const total = 10 << 20
	type outcome struct {
		written int
		closed  bool
	}
	done := make(chan outcome, 1)
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "User-agent: *\nDisallow: /secret\n")
		chunk := bytes.Repeat([]byte("# padding padding padding padding padding padding\n"), 640)
		var o outcome
		for o.written < total {
			n, err := w.Write(chunk)
			o.written += n
			if err != nil {
				o.closed = true
				break
			}
		}
		if !o.closed {
			// Everything fitted in socket buffers: the client's close
			// still shows as the request's context ending.
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
				o.closed = true
			case <-time.After(5 * time.Second):
			}
		}
		done <- o
	})
	res, err := Fetch(context.Background(), srv.Client(), "", srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	if res.Bytes != MaxBodySize || !res.Truncated || res.Err != nil || res.Robots.Kind() != robotstxt.Parsed {
		t.Errorf("bytes %d, truncated %v, err %v, kind %v; want %d, true, nil, parsed", res.Bytes, res.Truncated, res.Err, res.Robots.Kind(), MaxBodySize)
	}
	if res.Robots.Allowed("Foobot", "/secret") {
		t.Error("the rules before the limit were lost")
	}
	select {
	case o := <-done:
		if !o.closed {
			t.Errorf("server wrote %d bytes without seeing the connection closed", o.written)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("server handler did not finish: the body is being drained")
	}
}

func TestFetchBodyLimit(t *testing.T) {
	tests := []struct {
		size      int
		truncated bool
		reason    string
	}{
		{MaxBodySize - 1, false, "just under the limit"},
		{MaxBodySize, false, "exactly the limit is the whole file"},
		{MaxBodySize + 1, true, "one byte over is cut"},
	}
	for _, tt := range tests {
		for _, chunked := range []bool{false, true} {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if !chunked {
					w.Header().Set("Content-Length", fmt.Sprint(tt.size))
				}
				w.Write(bytes.Repeat([]byte("#"), tt.size))
			}))
			res, err := Fetch(context.Background(), srv.Client(), "", srv.URL)
			srv.Close()
			if err != nil {
				t.Fatal(err)
			}
			if want := min(tt.size, MaxBodySize); res.Bytes != want || res.Truncated != tt.truncated || res.Err != nil {
				t.Errorf("size %d chunked %v: bytes %d, truncated %v, err %v; want %d, %v (%s)",
					tt.size, chunked, res.Bytes, res.Truncated, res.Err, want, tt.truncated, tt.reason)
			}
		}
	}
}

// drip serves a robots.txt one byte a second until the client leaves.
func drip(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Length", "1000")
	w.WriteHeader(200)
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		if _, err := io.WriteString(w, "#"); err != nil {
			return
		}
		w.(http.Flusher).Flush()
		select {
		case <-r.Context().Done():
			return
		case <-tick.C:
		}
	}
}

func TestFetchSlowBody(t *testing.T) {
	srv := newServer(t, drip)
	tests := []struct {
		name   string
		client func() *http.Client
		ctx    func() (context.Context, context.CancelFunc)
		reason string
	}{
		{"client timeout", func() *http.Client {
			c := srv.Client()
			c.Timeout = 200 * time.Millisecond
			return c
		}, func() (context.Context, context.CancelFunc) { return context.Background(), func() {} },
			"http.Client.Timeout covers reading the body"},
		{"context deadline", srv.Client, func() (context.Context, context.CancelFunc) {
			return context.WithTimeout(context.Background(), 200*time.Millisecond)
		}, "the caller's context is honoured while reading the body"},
	}
	for _, tt := range tests {
		ctx, cancel := tt.ctx()
		start := time.Now()
		res, err := Fetch(ctx, tt.client(), "", srv.URL)
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		if elapsed := time.Since(start); elapsed > 3*time.Second {
			t.Errorf("%s: took %v (%s)", tt.name, elapsed, tt.reason)
		}
		if res.Err == nil || !res.Unreachable() || res.StatusCode != 200 {
			t.Errorf("%s: err %v, unreachable %v, status %d; want a timeout, unreachable, 200 (%s)",
				tt.name, res.Err, res.Unreachable(), res.StatusCode, tt.reason)
		}
	}
}

func TestFetchBrokenConnection(t *testing.T) {
	const head = "HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\nUser-agent: *\nAllow: /\n"
	tests := []struct {
		name   string
		h      http.HandlerFunc
		status int
		reason string
	}{
		{"close mid-body", raw(head, false), 200, "SPEC §8: a truncated body (unexpected EOF) is unreachable, not a shorter file"},
		{"reset mid-body", raw(head, true), 200, "SPEC §8: a connection reset is unreachable"},
		{"reset before status", raw("", true), 0, "no response at all"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newServer(t, tt.h)
			res, err := Fetch(context.Background(), srv.Client(), "", srv.URL)
			if err != nil {
				t.Fatal(err)
			}
			if res.Err == nil || !res.Unreachable() || res.StatusCode != tt.status {
				t.Errorf("err %v, unreachable %v, status %d; want an error, unreachable, %d (%s)",
					res.Err, res.Unreachable(), res.StatusCode, tt.status, tt.reason)
			}
		})
	}
}

func TestFetchConnectionRefused(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close() // nothing listens there now
	res, err := Fetch(context.Background(), nil, "", url)
	if err != nil {
		t.Fatal(err)
	}
	if res.Err == nil || !res.Unreachable() || res.StatusCode != 0 || res.TTL != defaultRetryTTL {
		t.Errorf("err %v, unreachable %v, status %d, TTL %v; want an error, unreachable, 0, the retry TTL",
			res.Err, res.Unreachable(), res.StatusCode, res.TTL)
	}
}

func TestMaxAge(t *testing.T) {
	tests := []struct {
		header []string
		age    time.Duration
		ok     bool
		reason string
	}{
		{nil, 0, false, "no Cache-Control"},
		{[]string{"max-age=3600"}, time.Hour, true, "RFC 9111 §5.2.2.1"},
		{[]string{"public, MAX-AGE=60"}, time.Minute, true, "directive names are case-insensitive"},
		{[]string{`max-age="120"`}, 2 * time.Minute, true, "quoted value"},
		{[]string{"max-age=abc"}, 0, false, "invalid value is ignored"},
		{[]string{"max-age=-5"}, 0, false, "negative value is invalid"},
		{[]string{"max-age=10, max-age=20"}, 10 * time.Second, true, "the first of two max-age wins"},
		{[]string{"public", "max-age=30"}, 30 * time.Second, true, "several Cache-Control headers"},
		{[]string{"no-store"}, 0, true, "no-store: as short as allowed"},
		{[]string{"max-age=600, no-cache"}, 0, true, "no-cache beats max-age"},
		{[]string{"max-age=99999999999999999999"}, 100 * 365 * 24 * time.Hour, true, "RFC 9111 §1.2.2: a value too large for an integer is the largest value, not invalid"},
		{[]string{"max-age=99999999999999999999, max-age=60"}, 100 * 365 * 24 * time.Hour, true, "an overflowing first max-age still is the first"},
		{[]string{"max-age=-99999999999999999999"}, 0, false, "a negative value is invalid however long"},
		{[]string{"max-age=1e99"}, 0, false, "not delta-seconds"},
		{[]string{"max-age=9999999999999"}, 100 * 365 * 24 * time.Hour, true, "huge values are capped before they overflow a Duration"},
	}
	for _, tt := range tests {
		h := http.Header{"Cache-Control": tt.header}
		age, ok := maxAge(h)
		if age != tt.age || ok != tt.ok {
			t.Errorf("maxAge(%q) = %v, %v; want %v, %v (%s)", tt.header, age, ok, tt.age, tt.ok, tt.reason)
		}
	}
}

func TestLifetime(t *testing.T) {
	f := fetcher{ttl: defaultTTL, maxTTL: defaultMaxTTL, retryTTL: defaultRetryTTL}
	good := &Result{Robots: robotstxt.Parse(nil)}
	bad := &Result{Robots: robotstxt.FromStatus(503, nil)}
	tests := []struct {
		res    *Result
		cc     string
		want   time.Duration
		reason string
	}{
		{good, "", defaultTTL, "SPEC §8: 24 hours by default"},
		{good, "max-age=3600", time.Hour, "SPEC §8: max-age shortens"},
		{good, "max-age=172800", 48 * time.Hour, "SPEC §8: max-age lengthens"},
		{good, "max-age=0", minTTL, "never shorter than minTTL"},
		{good, "no-store", minTTL, "no-store shortens to minTTL instead of refetching per request"},
		{good, "max-age=31536000", defaultMaxTTL, "a year is bounded by MaxTTL"},
		{good, "max-age=99999999999999999999", defaultMaxTTL, "a max-age too large for an integer is capped to MaxTTL, not dropped for the 24h default"},
		{bad, "max-age=86400", defaultRetryTTL, "an unreachable answer is retried soon, whatever it says"},
	}
	for _, tt := range tests {
		h := http.Header{}
		if tt.cc != "" {
			h.Set("Cache-Control", tt.cc)
		}
		if got := f.lifetime(tt.res, h); got != tt.want {
			t.Errorf("lifetime(%v, %q) = %v, want %v (%s)", tt.res.Robots.Kind(), tt.cc, got, tt.want, tt.reason)
		}
	}
}

func TestReadBody(t *testing.T) {
	long := strings.Repeat("a", 100)
	tests := []struct {
		in        string
		limit     int
		hint      int64
		want      string
		truncated bool
		reason    string
	}{
		{"", 10, -1, "", false, "empty body"},
		{"", 10, 0, "", false, "empty body with Content-Length 0"},
		{"abc", 10, -1, "abc", false, "short body"},
		{long, 10, -1, long[:10], true, "cut at the limit"},
		{long, 100, -1, long, false, "exactly the limit"},
		{long, 99, 100, long[:99], true, "Content-Length above the limit"},
		{long, 1000, 5, long, false, "Content-Length that lies low does not cut the body"},
	}
	for _, tt := range tests {
		got, truncated, err := readBody(strings.NewReader(tt.in), tt.limit, tt.hint)
		if string(got) != tt.want || truncated != tt.truncated || err != nil {
			t.Errorf("readBody(%d bytes, %d, %d) = %d bytes, %v, %v; want %d bytes, %v (%s)",
				len(tt.in), tt.limit, tt.hint, len(got), truncated, err, len(tt.want), tt.truncated, tt.reason)
		}
	}
}

// cutReader yields data, then err instead of io.EOF: a body whose
// connection broke.
type cutReader struct {
	data string
	err  error
}

func (r *cutReader) Read(p []byte) (int, error) {
	if r.data == "" {
		return 0, r.err
	}
	n := copy(p, r.data)
	r.data = r.data[n:]
	return n, nil
}

func TestReadBodyCut(t *testing.T) {
	long := strings.Repeat("a", 200)
	tests := []struct {
		in        string
		limit     int
		want      int
		truncated bool
		fails     bool
		reason    string
	}{
		{long[:99], 100, 99, false, true, "cut short of the limit: a partial file is an error"},
		{long[:100], 100, 100, true, false, "cut exactly at the limit: what follows is ignored anyway, so no error"},
		{long[:101], 100, 100, true, false, "cut past the limit: the limit is reached first"},
		{"", 100, 0, false, true, "cut before any byte"},
		{"", 0, 0, true, false, "a zero limit is reached before the cut"},
	}
	for _, tt := range tests {
		got, truncated, err := readBody(&cutReader{tt.in, io.ErrUnexpectedEOF}, tt.limit, 600)
		if len(got) != tt.want || truncated != tt.truncated || (err != nil) != tt.fails {
			t.Errorf("readBody(%d bytes then a cut, limit %d) = %d bytes, %v, %v; want %d bytes, %v, error %v (%s)",
				len(tt.in), tt.limit, len(got), truncated, err, tt.want, tt.truncated, tt.fails, tt.reason)
		}
	}
}

// TestFetchCutAtLimit checks that where a server closes the connection in a
// body announced as longer than MaxBodySize decides the answer only when it
// is short of the limit: 600,000 bytes announced, the connection closed
// after n.
func TestFetchCutAtLimit(t *testing.T) {
	tests := []struct {
		sent        int
		unreachable bool
		reason      string
	}{
		{MaxBodySize - 1, true, "cut short of the limit: the file is incomplete, so unreachable"},
		{MaxBodySize, false, "cut exactly at the limit: parsed, truncated, like a cut one byte later"},
		{MaxBodySize + 1, false, "cut past the limit: parsed, truncated"},
	}
	rules := "User-agent: *\nDisallow: /secret\n"
	for _, tt := range tests {
		body := rules + strings.Repeat("#", tt.sent-len(rules))
		srv := newServer(t, raw("HTTP/1.1 200 OK\r\nContent-Length: 600000\r\n\r\n"+body, false))
		res, err := Fetch(context.Background(), srv.Client(), "", srv.URL)
		if err != nil {
			t.Fatal(err)
		}
		if res.Unreachable() != tt.unreachable {
			t.Errorf("sent %d: unreachable %v (err %v); want %v (%s)", tt.sent, res.Unreachable(), res.Err, tt.unreachable, tt.reason)
			continue
		}
		if !tt.unreachable && (res.Err != nil || !res.Truncated || res.Bytes != MaxBodySize || res.Robots.Allowed("Foobot", "/secret")) {
			t.Errorf("sent %d: err %v, truncated %v, bytes %d; want nil, true, %d and the rules kept (%s)",
				tt.sent, res.Err, res.Truncated, res.Bytes, MaxBodySize, tt.reason)
		}
	}
}
