package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/robotstxt-go/robotstxt/lint"
)

// tester starts the tester's handler on a loopback port, with the Host
// check of a loopback listener.
func tester(t *testing.T, allowPrivate bool) (*httptest.Server, *server) {
	t.Helper()
	s := newServer(allowPrivate)
	srv := httptest.NewServer(s.handler())
	s.setHosts(srv.Listener.Addr(), "")
	t.Cleanup(srv.Close)
	return srv, s
}

// post sends body with the content type to the tester and decodes the JSON
// answer into v; it returns the status.
func post(t *testing.T, srv *httptest.Server, path, contentType, body string, v any) int {
	t.Helper()
	resp, err := srv.Client().Post(srv.URL+path, contentType, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "application/json; charset=utf-8" {
		t.Errorf("POST %s: Content-Type %q", path, ct)
	}
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		t.Fatalf("POST %s: decoding the answer: %v", path, err)
	}
	return resp.StatusCode
}

func TestAPICheck(t *testing.T) {
	srv, _ := tester(t, false)
	var got checkResponse
	code := post(t, srv, "/api/check", "application/json",
		`{"robots": "User-agent: Googlebot\nDisallow: /private/\nDisallow: drafts/\n", "agent": "Googlebot", "urls": ["https://e.com/private/x", "/public", "not a url", "  "]}`, &got)
	yes, no := true, false
	want := checkResponse{
		Agent: "Googlebot", Rules: "parsed", Agents: []string{"Googlebot"},
		Results: []resultJSON{
			{URL: "https://e.com/private/x", Allowed: &no, Line: 2, Directive: "disallow", Key: "Disallow", Rule: "/private/", Explain: "line 2: Disallow: /private/"},
			{URL: "/public", Allowed: &yes, Explain: "no rule matched"},
			{URL: "not a url", Error: `"not a url" is neither an absolute URL nor a path starting with '/'`},
		},
		Group: groupJSON{Applies: "named", AgentLines: []int{1}, Groups: []int{1}, Ranges: [][2]int{{1, 3}},
			Summary: `Googlebot is named on user-agent line 1: only those groups decide, and the group for "*" does not apply.`},
		Errors: []findingJSON{{Line: 3, Severity: "error", Cause: "pattern can never match",
			Message: `pattern "drafts/" can never match: a pattern starts with '/' or '*'; did you mean "/drafts/"?`}},
	}
	if diff := cmp.Diff(want, got); code != http.StatusOK || diff != "" {
		t.Errorf("/api/check: status %d, answer mismatch (-want +got):\n%s", code, diff)
	}

	// A body that is not JSON is the file itself, bytes and all: a UTF-16
	// file is no robots.txt.
	utf16, err := os.ReadFile("../../testdata/lint/utf16.txt")
	if err != nil {
		t.Fatal(err)
	}
	got = checkResponse{}
	code = post(t, srv, "/api/check?agent=Googlebot%2F2.1&url=/store/ajax/x", "text/plain", string(utf16), &got)
	if code != http.StatusOK || !got.Unreadable || len(got.Errors) != 1 || len(got.Results) != 1 ||
		got.Results[0].Explain != "no rule matched: crawlers read no rules from this file (see the error above)" ||
		got.AgentWarning != `agent "Googlebot/2.1" is not a product token (letters, '-' and '_'): it names no group and gets the rules for "*"; use Googlebot` {
		t.Errorf("/api/check of a UTF-16 body: status %d, %+v", code, got)
	}
}

func TestAPIErrors(t *testing.T) {
	srv, _ := tester(t, false)
	manyURLs, _ := json.Marshal(checkRequest{URLs: make([]string, maxURLs+1)})
	tests := []struct {
		path, contentType, body string
		status                  int
		want                    string // in the error message
		reason                  string
	}{
		{"/api/check", "application/json", `{"robots": "x", "agents": "y"}`, 400, `unknown field "agents"`, "a misspelt field is an error, not ignored"},
		{"/api/check", "application/json", `{"robots": `, 400, "the request is not the JSON expected", "truncated JSON"},
		{"/api/check", "text/plain", strings.Repeat("a", maxRequestBody+1), 413, "request body over 4194304 bytes", "bodies are bounded"},
		{"/api/check", "application/json", `{"robots": "x", "agent": "a"} {"robots": "y"}`, 400, "content after the JSON object, from byte 31 on", "issue 22: trailing content is refused"},
		{"/api/lint", "application/json", `{"robots": "x"}]`, 400, "content after the JSON object", "issue 22: a stray bracket is refused"},
		{"/api/check", "application/json", `{"robots": "x", "agent": "  "}`, 400, "no agent: name a crawler", "issue 22: an empty agent is an error, not *"},
		{"/api/check", "text/plain", "User-agent: *", 400, "no agent", "issue 22: a raw body without ?agent= names no agent"},
		{"/api/fetch", "application/json", `{"url": "https://example.com/", "agent": "Googlebot", "user_agent": "Foobot\r\nX-Evil: 1"}`, 400,
			"cannot be sent as a User-Agent header", "issue 22: CR/LF in the User-Agent is a bad request, not an unreachable robots.txt"},
		{"/api/fetch", "application/json", `{"url": "https://example.com/", "agent": "Googlebot", "user_agent": "Foobot\n"}`, 400,
			"cannot be sent as a User-Agent header", "issue 22: a lone LF too"},
		{"/api/check", "application/json", string(manyURLs), 413, "at most 1000 a request", "URLs are bounded"},
		{"/api/fetch", "application/json", `{"url": "ftp://example.com/x", "agent": "*"}`, 400, "only http and https URLs can be fetched", "fetches only http(s)"},
		{"/api/fetch", "application/json", `{"url": "example.com/x", "agent": "*"}`, 400, `did you mean "https://example.com/x"?`, "a URL without a scheme"},
	}
	for _, tt := range tests {
		var got errorJSON
		code := post(t, srv, tt.path, tt.contentType, tt.body, &got)
		if code != tt.status || !strings.Contains(got.Error, tt.want) {
			t.Errorf("POST %s (%s): %d %q, want %d and %q", tt.path, tt.reason, code, got.Error, tt.status, tt.want)
		}
	}
}

func TestAPILint(t *testing.T) {
	srv, _ := tester(t, false)
	var got lintJSON
	code := post(t, srv, "/api/lint", "application/json", `{"robots": "User-agent: *\r\nNoindex: /a\r\n\r\nDisallow /b"}`, &got)
	if code != http.StatusOK || got.Errors != 1 || got.Warnings != 1 || len(got.Kinds) != 2 || got.Kinds[0].Count != 1 ||
		!cmp.Equal(got.Text, []string{"User-agent: *", "Noindex: /a", "", "Disallow /b"}) {
		t.Errorf("/api/lint: status %d, %+v", code, got)
	}
}

func TestAPIFetch(t *testing.T) {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			fmt.Fprintf(w, "# for %s\nUser-agent: *\nDisallow: /private/\n", r.UserAgent())
		}
	}))
	defer site.Close()

	// With -allow-private, a server on 127.0.0.1 can be fetched.
	srv, _ := tester(t, true)
	var got fetchResponse
	code := post(t, srv, "/api/fetch", "application/json",
		fmt.Sprintf(`{"url": %q, "agent": "Foobot", "user_agent": "Foobot", "urls": ["/private/a", "/b"]}`, site.URL+"/x"), &got)
	if code != http.StatusOK || got.Status != 200 || got.UserAgent != "Foobot" || got.Body != "# for Foobot\nUser-agent: *\nDisallow: /private/\n" ||
		!got.BodyUTF8 || len(got.Text) != 3 || len(got.Check.Results) != 2 || *got.Check.Results[0].Allowed || !*got.Check.Results[1].Allowed {
		t.Errorf("/api/fetch with -allow-private: status %d, %+v", code, got)
	}

	// Without it, loopback addresses are refused, by address and by a name
	// that resolves to one: the check is made on the address dialled.
	srv, _ = tester(t, false)
	port := site.URL[strings.LastIndexByte(site.URL, ':')+1:]
	for _, u := range []string{site.URL + "/x", "http://localhost:" + port + "/x",
		// Issue 22: IPv6 forms that carry 127.0.0.1, refused on the address dialled.
		"http://[64:ff9b:1::7f00:1]:" + port + "/x", "http://[::127.0.0.1]:" + port + "/x",
		"http://[::ffff:0:7f00:1]:" + port + "/x", "http://[fec0::1]:" + port + "/x"} {
		var refused errorJSON
		code = post(t, srv, "/api/fetch", "application/json", fmt.Sprintf(`{"url": %q, "agent": "*"}`, u), &refused)
		if code != http.StatusForbidden || !regexp.MustCompile(`^refused to fetch http://[a-z0-9.:\[\]]+:[0-9]+/robots.txt: [0-9a-f.:]+ is (a loopback|a local-use NAT64|an IPv4-compatible|an IPv4-translated|a site-local) address.*, and robotstxt serve fetches only from public addresses unless started with -allow-private$`).MatchString(refused.Error) {
			t.Errorf("/api/fetch %s without -allow-private: %d %q, want 403 and the address refused", u, code, refused.Error)
		}
	}
}

func TestNonPublic(t *testing.T) {
	tests := []struct {
		addr, want string
	}{
		{"127.0.0.1", "a loopback address"},
		{"::1", "a loopback address"},
		{"::ffff:127.0.0.1", "a loopback address"},
		{"10.1.2.3", "a private address"},
		{"172.16.0.1", "a private address"},
		{"192.168.1.1", "a private address"},
		{"fd00::1", "a private address"},
		{"169.254.169.254", "a link-local address"}, // cloud metadata services
		{"fe80::1", "a link-local address"},
		{"0.0.0.0", "the unspecified address"},
		{"100.64.0.1", "a shared address (carrier-grade NAT, 100.64.0.0/10)"},
		{"64:ff9b::a00:1", "a private address"},   // NAT64 of 10.0.0.1
		{"2002:c0a8:101::1", "a private address"}, // 6to4 of 192.168.1.1
		{"224.0.0.1", "a multicast address"},
		{"255.255.255.255", "the broadcast address"},
		{"192.0.2.1", "a documentation address"},
		{"93.184.215.14", ""},
		{"2606:4700::1111", ""},
		{"64:ff9b::808:808", ""}, // NAT64 of 8.8.8.8
		// Issue 22: forms that carry 127.0.0.1 and were dialled.
		{"64:ff9b:1::7f00:1", "a local-use NAT64 address (64:ff9b:1::/48)"},
		{"::127.0.0.1", "an IPv4-compatible address (deprecated, ::/96)"},
		{"::ffff:0:7f00:1", "an IPv4-translated address (::ffff:0:0:0/96)"},
		{"fec0::1", "a site-local address (deprecated, fec0::/10)"},
		// The rule behind them: IPv6 outside 2000::/3 is not public.
		{"::8.8.8.8", "an IPv4-compatible address (deprecated, ::/96)"},
		{"4000::1", "not a global unicast address (outside 2000::/3)"},
		{"5f00::1", "not a global unicast address (outside 2000::/3)"},
		{"2001::1", "an IETF protocol address (2001::/23: Teredo, benchmarking, ORCHID)"},
		{"3fff::1", "a documentation address"},
		{"192.88.99.1", "a 6to4 relay address (deprecated, 192.88.99.0/24)"},
		{"2a00:1450:4001::200e", ""},
	}
	for _, tt := range tests {
		if got := nonPublic(netip.MustParseAddr(tt.addr)); got != tt.want {
			t.Errorf("nonPublic(%s) = %q, want %q", tt.addr, got, tt.want)
		}
	}
}

// TestNonPublicEmbedded checks the general rule behind issue 22's four
// addresses: every IPv6 form that carries a non-public IPv4 address is
// refused, and of those that carry a public one only the well-known NAT64
// and 6to4 forms, which route to it, are allowed.
func TestNonPublicEmbedded(t *testing.T) {
	forms := []struct {
		name  string
		make  func(v4 [4]byte) netip.Addr
		route bool // reaches the IPv4 address it carries
	}{
		{"mapped", func(v [4]byte) netip.Addr {
			return netip.AddrFrom16([16]byte{10: 0xff, 11: 0xff, 12: v[0], 13: v[1], 14: v[2], 15: v[3]})
		}, true},
		{"compatible", func(v [4]byte) netip.Addr { return netip.AddrFrom16([16]byte{12: v[0], 13: v[1], 14: v[2], 15: v[3]}) }, false},
		{"translated", func(v [4]byte) netip.Addr {
			return netip.AddrFrom16([16]byte{8: 0xff, 9: 0xff, 12: v[0], 13: v[1], 14: v[2], 15: v[3]})
		}, false},
		{"NAT64", func(v [4]byte) netip.Addr {
			return netip.AddrFrom16([16]byte{1: 0x64, 2: 0xff, 3: 0x9b, 12: v[0], 13: v[1], 14: v[2], 15: v[3]})
		}, true},
		{"local NAT64", func(v [4]byte) netip.Addr {
			return netip.AddrFrom16([16]byte{1: 0x64, 2: 0xff, 3: 0x9b, 5: 1, 12: v[0], 13: v[1], 14: v[2], 15: v[3]})
		}, false},
		{"6to4", func(v [4]byte) netip.Addr {
			return netip.AddrFrom16([16]byte{0: 0x20, 1: 0x02, 2: v[0], 3: v[1], 4: v[2], 5: v[3]})
		}, true},
	}
	for _, v4 := range []string{"127.0.0.1", "10.0.0.1", "169.254.169.254", "192.168.0.1", "100.64.0.1", "0.0.0.0", "8.8.8.8", "93.184.215.14"} {
		a := netip.MustParseAddr(v4)
		public := nonPublic(a) == ""
		for _, f := range forms {
			got := nonPublic(f.make(a.As4()))
			if want := public && f.route; (got == "") != want {
				t.Errorf("nonPublic(%s form of %s = %s) = %q; want public %v", f.name, v4, f.make(a.As4()), got, want)
			}
		}
	}
}

// TestGuard checks what keeps the tester to itself: the Host check against
// DNS rebinding, the Origin check against other sites' pages, and the
// headers that keep the page to its own files.
func TestGuard(t *testing.T) {
	srv, _ := tester(t, false)
	req, _ := http.NewRequest("GET", srv.URL+"/", nil)
	req.Host = "rebound.example:80"
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMisdirectedRequest {
		t.Errorf("GET / with Host rebound.example: %d, want 421", resp.StatusCode)
	}

	req, _ = http.NewRequest("POST", srv.URL+"/api/lint", strings.NewReader("User-agent: *"))
	req.Header.Set("Origin", "https://evil.example")
	resp, err = srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("POST from another origin: %d, want 403", resp.StatusCode)
	}

	for _, name := range []string{"", "app.js", "style.css"} {
		resp, err := srv.Client().Get(srv.URL + "/" + name)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(resp.Header.Get("Content-Security-Policy"), "default-src 'none'") ||
			resp.Header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("GET /%s: %d, headers %v", name, resp.StatusCode, resp.Header)
		}
		// Everything is embedded: no file names another site's asset.
		if m := regexp.MustCompile(`(?i)(src|href)\s*=\s*["']?(https?:)?//|url\(\s*["']?(https?:)?//|@import`).FindString(string(body)); m != "" {
			t.Errorf("/%s refers to an external asset: %q", name, m)
		}
	}
}

// TestGuardHosts checks the Host check of issue 22: port 80 may be left out
// of the Host header, a server on 0.0.0.0 keeps the check, and the 421 and
// 403 answers carry the same protective headers as the page.
func TestGuardHosts(t *testing.T) {
	tests := []struct {
		listen, given, host, origin string
		status                      int
		why                         string
	}{
		{"127.0.0.1:80", "127.0.0.1:80", "127.0.0.1", "", 200, "browsers send Host: 127.0.0.1 for port 80"},
		{"127.0.0.1:80", "127.0.0.1:80", "localhost", "http://localhost", 200, "and Origin: http://localhost"},
		{"127.0.0.1:80", "127.0.0.1:80", "127.0.0.1:80", "http://127.0.0.1", 200, "the port given or not"},
		{"127.0.0.1:80", "127.0.0.1:80", "[::1]", "", 200, "an IPv6 loopback name without a port"},
		{"127.0.0.1:80", "127.0.0.1:80", "rebound.example", "", 421, "a rebound name on port 80"},
		{"127.0.0.1:8080", "", "127.0.0.1", "", 421, "no port is port 80, not the one listened on"},
		{"0.0.0.0:8080", "0.0.0.0:8080", "127.0.0.1:8080", "", 200, "0.0.0.0 answers on loopback"},
		{"0.0.0.0:8080", "0.0.0.0:8080", "rebound.example:8080", "", 421, "0.0.0.0 keeps the Host check"},
		{"0.0.0.0:8080", "0.0.0.0:8080", "127.0.0.1:8080", "http://rebound.example:8080", 403, "and the Origin check"},
		{"192.0.2.7:8080", "tester.lan:8080", "tester.lan:8080", "http://tester.lan:8080", 200, "the name given in -addr"},
		{"192.0.2.7:8080", "tester.lan:8080", "192.0.2.7:8080", "", 200, "the address listened on"},
		{"192.0.2.7:8080", "tester.lan:8080", "localhost:8080", "", 421, "not loopback names when not on loopback"},
	}
	for _, tt := range tests {
		s := newServer(false)
		s.setHosts(net.TCPAddrFromAddrPort(netip.MustParseAddrPort(tt.listen)), tt.given)
		req := httptest.NewRequest("POST", "/api/lint", strings.NewReader("User-agent: *"))
		req.Host = tt.host
		if tt.origin != "" {
			req.Header.Set("Origin", tt.origin)
		}
		w := httptest.NewRecorder()
		s.handler().ServeHTTP(w, req)
		if w.Code != tt.status {
			t.Errorf("listening on %s, Host %q, Origin %q (%s): %d %s, want %d", tt.listen, tt.host, tt.origin, tt.why, w.Code, w.Body, tt.status)
		}
		if h := w.Header(); !strings.Contains(h.Get("Content-Security-Policy"), "default-src 'none'") || h.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("listening on %s, Host %q: a %d answer without CSP and nosniff: %v", tt.listen, tt.host, w.Code, h)
		}
	}
	if urls := pageURLs(net.TCPAddrFromAddrPort(netip.MustParseAddrPort("0.0.0.0:8080"))); urls[0] != "http://127.0.0.1:8080/" {
		t.Errorf("pageURLs(0.0.0.0:8080) = %q, want the loopback URL first", urls)
	}
	if urls := pageURLs(net.TCPAddrFromAddrPort(netip.MustParseAddrPort("127.0.0.1:80"))); len(urls) != 1 || urls[0] != "http://127.0.0.1/" {
		t.Errorf("pageURLs(127.0.0.1:80) = %q, want http://127.0.0.1/, as a browser writes it", urls)
	}
}

// TestServeAllInterfaces runs serve on 0.0.0.0: it warns, prints a URL for
// each interface, and every URL it prints opens the page.
func TestServeAllInterfaces(t *testing.T) {
	var stdout, stderr syncBuffer
	stop := make(chan int, 1)
	go func() { stop <- run([]string{"serve", "-addr", "0.0.0.0:0"}, strings.NewReader(""), &stdout, &stderr) }()
	var urls []string
	for range 100 {
		urls = regexp.MustCompile(`http://[^ \n]+/`).FindAllString(stdout.String(), -1)
		if len(urls) > 0 && strings.Contains(stderr.String(), "warning") {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if len(urls) == 0 || !strings.HasPrefix(urls[0], "http://127.0.0.1:") || !strings.Contains(stderr.String(), "warning: listening on every interface (-addr 0.0.0.0:0)") {
		t.Fatalf("serve -addr 0.0.0.0:0 printed %q and %q", stdout.String(), stderr.String())
	}
	for _, u := range urls {
		resp, err := http.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Errorf("GET %s printed by serve: %d", u, resp.StatusCode)
		}
	}
	syscall.Kill(os.Getpid(), syscall.SIGINT)
	if code := <-stop; code != exitOK {
		t.Errorf("serve after an interrupt: exit %d", code)
	}
}

// syncBuffer is a bytes.Buffer safe for a writer and a reader at once.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// TestAPISizes checks issue 22's limits: a 499,980-byte file pasted as JSON
// is answered whatever its escaping costs, a file over 500 KiB is cut where
// crawlers cut it and the answer says so, and the lint answer for a file of
// one-letter lines stays small while its counts stay exact.
func TestAPISizes(t *testing.T) {
	srv, _ := tester(t, false)
	// 499,980 bytes of short lines: JSON escaping (json.Marshal writes '&'
	// as \u0026) adds five bytes a line.
	file := "User-agent: *\n" + strings.Repeat("Disallow: /a&b\n", (499980-14)/15)
	file += strings.Repeat("#", 499980-len(file))
	req, _ := json.Marshal(checkRequest{Robots: file, Agent: "Googlebot", URLs: []string{"/a&b"}})
	if len(req) <= 512000 {
		t.Fatalf("the request is %d bytes: the test needs one that escaping takes past 500 KiB", len(req))
	}
	var got checkResponse
	if code := post(t, srv, "/api/check", "application/json", string(req), &got); code != 200 || got.Cut != 0 ||
		len(got.Results) != 1 || *got.Results[0].Allowed {
		t.Errorf("/api/check of a 499,980-byte file (%d bytes of JSON): %d, cut %d, %+v", len(req), code, got.Cut, got.Results)
	}

	// Over 500 KiB: cut at 512,000 bytes, a rule past it is not read.
	big := "User-agent: *\n" + strings.Repeat("#", 600000) + "\nDisallow: /\n"
	req, _ = json.Marshal(checkRequest{Robots: big, Agent: "*", URLs: []string{"/x"}})
	got = checkResponse{}
	if code := post(t, srv, "/api/check", "application/json", string(req), &got); code != 200 || got.Cut != len(big) || !*got.Results[0].Allowed {
		t.Errorf("/api/check of a %d-byte file: %d, cut %d, %+v; want it cut and /x allowed", len(big), code, got.Cut, got.Results)
	}
	var lint lintJSON
	if code := post(t, srv, "/api/lint", "text/plain", big, &lint); code != 200 || lint.Cut != len(big) {
		t.Errorf("/api/lint of a %d-byte file: %d, cut %d", len(big), code, lint.Cut)
	}

	// 500 KiB of one-letter lines: 256,000 findings of one kind (a fifth
	// of it under the race detector, which makes Diagnose ten times slower).
	n := 256000
	if raceEnabled && os.Getenv("ROBOTSTXT_LONG") == "" {
		n /= 5
	}
	letters := strings.Repeat("a\n", n)
	resp, err := srv.Client().Post(srv.URL+"/api/lint", "text/plain", strings.NewReader(letters))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	lint = lintJSON{}
	if err := json.Unmarshal(body, &lint); err != nil {
		t.Fatal(err)
	}
	if len(body) > 2<<20 || len(lint.Text) != n || lint.Warnings != n || len(lint.Kinds) != 1 || lint.Kinds[0].Count != n ||
		len(lint.Findings) != pageKeep+1 || lint.Findings[pageKeep].More != n-pageKeep || lint.Findings[pageKeep].Last != n {
		t.Errorf("/api/lint of one-letter lines: %d bytes, %d lines, %d warnings, kinds %+v, %d findings",
			len(body), len(lint.Text), lint.Warnings, lint.Kinds, len(lint.Findings))
	}
}

// TestAPIGroup checks what the answer says about which group applied.
func TestAPIGroup(t *testing.T) {
	srv, _ := tester(t, false)
	const file = "User-agent: Googlebot\nDisallow: /g\n\nUser-agent: *\nDisallow: /\n# end\n"
	tests := []struct {
		robots, agent string
		applies       string
		lines         []int
		ranges        [][2]int
		summary, note string
		allowed       bool
	}{
		{file, "googlebot", "named", []int{1}, [][2]int{{1, 2}}, "googlebot is named on user-agent line 1", "", true},
		{file, "Bingbot", "global", []int{4}, [][2]int{{4, 5}}, `No group names Bingbot: it falls back to the group for "*" (user-agent line 4).`, "", false},
		{file, "*", "global", []int{4}, [][2]int{{4, 5}}, `The group for "*"`, "", false},
		{"User-agent: Googlebot\nDisallow: /\n", "Bingbot", "none", []int{}, [][2]int{}, `there is no group for "*"`, "", true},
		{file, "AdsBot-Google", "none", []int{}, [][2]int{}, `it does not obey the group for "*"`, "AdsBot-Google ignores the rules", true},
		// Googlebot-Image obeys "Googlebot-Image, Googlebot" (Google's common
		// crawlers), Applebot Googlebot's rules (Apple's page): the group for
		// Googlebot decides, /x is allowed where "*" would disallow it.
		{file, "Googlebot-Image", "named", []int{1}, [][2]int{{1, 2}}, `No group names Googlebot-Image: it obeys the group for Googlebot (user-agent line 1)`, "it obeys the group for Googlebot", true},
		{file, "Applebot", "named", []int{1}, [][2]int{{1, 2}}, `it obeys the group for Googlebot`, "support.apple.com", true},
		{file + "User-agent: Googlebot-Image\nDisallow: /x\n", "Googlebot-Image", "named", []int{7}, [][2]int{{7, 8}}, "Googlebot-Image is named on user-agent line 7", "", false},
	}
	for _, tt := range tests {
		req, _ := json.Marshal(checkRequest{Robots: tt.robots, Agent: tt.agent, URLs: []string{"/x"}})
		var got checkResponse
		code := post(t, srv, "/api/check", "application/json", string(req), &got)
		g := got.Group
		if code != 200 || g.Applies != tt.applies || !cmp.Equal(g.AgentLines, tt.lines) || !cmp.Equal(g.Ranges, tt.ranges) ||
			!strings.Contains(g.Summary, tt.summary) || !strings.Contains(g.Note, tt.note) || (tt.note == "") != (g.Note == "") ||
			*got.Results[0].Allowed != tt.allowed {
			t.Errorf("agent %q: %d %+v, allowed %v", tt.agent, code, g, *got.Results[0].Allowed)
		}
	}
}

// TestTextLines checks that the page numbers lines as Diagnose does.
func TestTextLines(t *testing.T) {
	if got := textLines(lint.Diagnose([]byte("\xef\xbb\xbfUser-agent: *\r\nDisallow: /\r\n"))); !cmp.Equal(got, []string{"User-agent: *", "Disallow: /"}) {
		t.Errorf("textLines = %q", got)
	}
}

// TestAPIErrorsAreJSON checks that what the API does not take is answered
// as serve -h documents errors, {"error": MESSAGE} with a 4xx status, not
// with the page's plain 404: another method than POST, and a path that is
// no route.
func TestAPIErrorsAreJSON(t *testing.T) {
	srv, _ := tester(t, false)
	tests := []struct {
		method, path string
		status       int
		reason       string
	}{
		{http.MethodGet, "/api/check", http.StatusMethodNotAllowed, "a browser opening the API's URL"},
		{http.MethodGet, "/api/check?agent=Googlebot&url=/x", http.StatusMethodNotAllowed, "the query form, sent as GET"},
		{http.MethodPut, "/api/lint", http.StatusMethodNotAllowed, "another method"},
		{http.MethodGet, "/api/fetch", http.StatusMethodNotAllowed, "the fetch route"},
		{http.MethodPost, "/api/nope", http.StatusNotFound, "no such route"},
		{http.MethodGet, "/api/", http.StatusNotFound, "the API's root"},
	}
	for _, tt := range tests {
		req, _ := http.NewRequest(tt.method, srv.URL+tt.path, nil)
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var e errorJSON
		err = json.NewDecoder(resp.Body).Decode(&e)
		resp.Body.Close()
		if resp.StatusCode != tt.status || err != nil || e.Error == "" || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
			t.Errorf("%s %s: status %d, %q, error %q (%v); want %d and a JSON error (%s)",
				tt.method, tt.path, resp.StatusCode, resp.Header.Get("Content-Type"), e.Error, err, tt.status, tt.reason)
		}
		if tt.status == http.StatusMethodNotAllowed && resp.Header.Get("Allow") != http.MethodPost {
			t.Errorf("%s %s: Allow %q, want POST", tt.method, tt.path, resp.Header.Get("Allow"))
		}
	}
	// The page itself is still served.
	resp, err := srv.Client().Get(srv.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("GET /: %d", resp.StatusCode)
	}
}
