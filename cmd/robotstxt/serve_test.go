package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/robotstxt-go/robotstxt"
)

// tester starts the tester's handler on a loopback port, with the Host
// check of a loopback listener.
func tester(t *testing.T, allowPrivate bool) (*httptest.Server, *server) {
	t.Helper()
	s := newServer(allowPrivate)
	srv := httptest.NewServer(s.handler())
	s.setHosts(srv.Listener.Addr())
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
		Errors: []findingJSON{{3, "error", "pattern can never match", `pattern "drafts/" can never match: a pattern starts with '/' or '*'; did you mean "/drafts/"?`}},
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
		{"/api/check", "text/plain", strings.Repeat("a", maxRequestBody+1), 413, "request body over 512000 bytes", "bodies are bounded to 500 KiB"},
		{"/api/check", "application/json", string(manyURLs), 413, "at most 1000 a request", "URLs are bounded"},
		{"/api/fetch", "application/json", `{"url": "ftp://example.com/x"}`, 400, "only http and https URLs can be fetched", "fetches only http(s)"},
		{"/api/fetch", "application/json", `{"url": "example.com/x"}`, 400, `did you mean "https://example.com/x"?`, "a URL without a scheme"},
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
	var got lintResponse
	code := post(t, srv, "/api/lint", "application/json", `{"robots": "User-agent: *\r\nNoindex: /a\r\n\r\nDisallow /b"}`, &got)
	if code != http.StatusOK || got.Errors != 1 || got.Warnings != 1 || len(got.Lines) != 4 ||
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
		fmt.Sprintf(`{"url": %q, "agent": "Googlebot", "user_agent": "Foobot", "urls": ["/private/a", "/b"]}`, site.URL+"/x"), &got)
	if code != http.StatusOK || got.Status != 200 || got.UserAgent != "Foobot" || got.Body != "# for Foobot\nUser-agent: *\nDisallow: /private/\n" ||
		!got.BodyUTF8 || len(got.Text) != 3 || len(got.Check.Results) != 2 || *got.Check.Results[0].Allowed || !*got.Check.Results[1].Allowed {
		t.Errorf("/api/fetch with -allow-private: status %d, %+v", code, got)
	}

	// Without it, loopback addresses are refused, by address and by a name
	// that resolves to one: the check is made on the address dialled.
	srv, _ = tester(t, false)
	port := site.URL[strings.LastIndexByte(site.URL, ':')+1:]
	for _, u := range []string{site.URL + "/x", "http://localhost:" + port + "/x"} {
		var refused errorJSON
		code = post(t, srv, "/api/fetch", "application/json", fmt.Sprintf(`{"url": %q}`, u), &refused)
		if code != http.StatusForbidden || !regexp.MustCompile(`^refused to fetch http://[a-z0-9.]+:[0-9]+/robots.txt: (127\.0\.0\.1|::1) is a loopback address, and robotstxt serve fetches only from public addresses unless started with -allow-private$`).MatchString(refused.Error) {
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
	}
	for _, tt := range tests {
		if got := nonPublic(netip.MustParseAddr(tt.addr)); got != tt.want {
			t.Errorf("nonPublic(%s) = %q, want %q", tt.addr, got, tt.want)
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

// TestTextLines checks that the page numbers lines as Diagnose does.
func TestTextLines(t *testing.T) {
	inputs := []string{"", "a", "a\n", "a\n\n", "a\r\nb", "a\n\rb", "\r\r\n\n", "\xef\xbb\xbfa\nb", "\xef\xbbx", "x\x00y\nz"}
	if dir, err := os.ReadDir("../../../shared/corpus/real"); err == nil {
		for _, f := range dir[:min(len(dir), 200)] {
			b, err := os.ReadFile(filepath.Join("../../../shared/corpus/real", f.Name()))
			if err != nil {
				t.Fatal(err)
			}
			inputs = append(inputs, string(b))
		}
	}
	for _, in := range inputs {
		if got, want := len(textLines([]byte(in))), robotstxt.Diagnose([]byte(in)).Counts.Lines; got != want {
			t.Errorf("textLines(%.40q): %d lines, Diagnose counts %d", in, got, want)
		}
	}
	if got := textLines([]byte("\xef\xbb\xbfUser-agent: *\r\nDisallow: /\r\n")); !cmp.Equal(got, []string{"User-agent: *", "Disallow: /"}) {
		t.Errorf("textLines = %q", got)
	}
}
