package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// sitemapSite serves a site whose robots.txt names an index of two
// sitemaps, one listing a page outside what it may list.
func sitemapSite(t *testing.T) *httptest.Server {
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host := "http://" + r.Host
		switch r.URL.Path {
		case "/robots.txt":
			io.WriteString(w, "User-agent: *\nAllow: /\n\nUser-agent: Foobot\nDisallow: /drafts/\n\nSitemap: /sitemap_index.xml\n")
		case "/sitemap_index.xml":
			w.Header().Set("Content-Type", "application/xml")
			io.WriteString(w, `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>`+host+`/a.xml</loc></sitemap><sitemap><loc>`+host+`/b.txt</loc></sitemap></sitemapindex>`)
		case "/a.xml":
			w.Header().Set("Content-Type", "application/xml")
			io.WriteString(w, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>`+host+`/products/1</loc><lastmod>2026-11-01</lastmod></url><url><loc>`+host+`/drafts/x</loc></url><url><loc>http://elsewhere.invalid/y</loc></url></urlset>`)
		case "/b.txt":
			io.WriteString(w, host+"/news?a=1&b=2\n")
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(s.Close)
	return s
}

func runSitemaps(args ...string) (int, string, string) {
	var stdout, stderr bytes.Buffer
	code := run(append([]string{"sitemaps"}, args...), strings.NewReader(""), &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// TestSitemapsText follows a local site's sitemaps and prints each page
// with its verdict and deciding line; findings and counts go to standard
// error.
func TestSitemapsText(t *testing.T) {
	s := sitemapSite(t)
	code, stdout, stderr := runSitemaps("-agent", "Foobot", "-delay", "1ms", s.URL)
	want := "allowed     " + s.URL + "/products/1  no rule matched\n" +
		"disallowed  " + s.URL + "/drafts/x  line 5: Disallow: /drafts/\n" +
		"allowed     " + s.URL + "/news?a=1&b=2  no rule matched\n"
	if code != exitNegative || stdout != want {
		t.Errorf("exit %d, stdout:\n%s\nwant exit %d, stdout:\n%s", code, stdout, exitNegative, want)
	}
	for _, s := range []string{"outside: ", "3 sitemaps, 3 pages: 2 allowed, 1 disallowed; 1 finding (1 outside)"} {
		if !strings.Contains(stderr, s) {
			t.Errorf("stderr lacks %q:\n%s", s, stderr)
		}
	}
	if strings.Contains(stderr, "\r") {
		t.Errorf("a progress line on a stderr that is no terminal:\n%q", stderr)
	}
}

// TestSitemapsJSON checks that -json prints JSON Lines: every page with
// its decision, each finding and sitemap, and the summary last.
func TestSitemapsJSON(t *testing.T) {
	s := sitemapSite(t)
	code, stdout, _ := runSitemaps("-json", "-agent", "Foobot", "-delay", "1ms", s.URL)
	if code != exitNegative {
		t.Errorf("exit %d, want %d", code, exitNegative)
	}
	types := map[string]int{}
	var last map[string]any
	sc := bufio.NewScanner(strings.NewReader(stdout))
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("not JSON: %q: %v", sc.Text(), err)
		}
		types[m["type"].(string)]++
		last = m
		if m["type"] == "entry" && strings.HasSuffix(m["url"].(string), "/drafts/x") {
			d := m["decision"].(map[string]any)
			if d["allowed"] != false || d["line"] != 5.0 || d["rule"] != "/drafts/" {
				t.Errorf("decision %v", d)
			}
		}
	}
	if types["entry"] != 3 || types["sitemap"] != 3 || types["finding"] != 1 || types["summary"] != 1 {
		t.Errorf("objects by type %v", types)
	}
	if last["type"] != "summary" || last["disallowed"] != 1.0 || last["entries"] != 3.0 {
		t.Errorf("last object %v, want the summary", last)
	}
}

func TestSitemapsUsage(t *testing.T) {
	for _, tt := range []struct {
		args   []string
		code   int
		reason string
	}{
		{[]string{"-agent", "Foo/1.0", "http://127.0.0.1:1/"}, exitFailure, "not a product token"},
		{nil, exitFailure, "a URL is needed"},
		{[]string{"ftp://example.com/"}, exitFailure, "http and https only"},
	} {
		if code, _, stderr := runSitemaps(tt.args...); code != tt.code || stderr == "" {
			t.Errorf("sitemaps %q: exit %d, stderr %q; want %d and a message (%s)", tt.args, code, stderr, tt.code, tt.reason)
		}
	}
	if code, stdout, _ := runSitemaps("-h"); code != exitOK || !strings.Contains(stdout, exitStatuses) {
		t.Errorf("sitemaps -h: exit %d, help without the exit statuses", code)
	}
}

// TestSitemapsProgress checks the progress line that a terminal gets: it
// counts what was read, and is erased before other output and at the end.
func TestSitemapsProgress(t *testing.T) {
	s := sitemapSite(t)
	_, stdout, stderr := runSitemaps("-progress", "-agent", "Foobot", "-delay", "1ms", s.URL)
	const erase = "\r\033[K"
	if !strings.Contains(stderr, erase) || !strings.Contains(stderr, " pages (") {
		t.Errorf("no progress line in stderr:\n%q", stderr)
	}
	parts := strings.Split(stderr, erase)
	if last := parts[len(parts)-1]; !strings.HasPrefix(last, "3 sitemaps, 3 pages") {
		t.Errorf("the progress line is not erased before the summary:\n%q", stderr)
	}
	if strings.Contains(stdout, "\r") {
		t.Errorf("progress on stdout:\n%q", stdout)
	}
}

// TestSitemapsManyFindings: findings of one kind past the tenth are
// counted, not printed.
func TestSitemapsManyFindings(t *testing.T) {
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			io.WriteString(w, "Sitemap: /sitemap.txt\n")
		case "/sitemap.txt":
			for range 25 {
				io.WriteString(w, "http://elsewhere.invalid/x\n")
			}
		}
	}))
	defer s.Close()
	_, _, stderr := runSitemaps("-agent", "Foobot", "-delay", "1ms", s.URL)
	if n := strings.Count(stderr, ": outside: "); n != 10 || !strings.Contains(stderr, "more outside findings are counted") ||
		!strings.Contains(stderr, "25 findings (25 outside)") {
		t.Errorf("%d outside findings printed, want 10, a note and the count of 25:\n%s", n, stderr)
	}
}
