package main

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// pagesSite is a site whose pages state rules in each place robotstxt page
// reads: robots.txt, the X-Robots-Tag and Content-Usage headers, and the
// meta tags.
func pagesSite(t *testing.T, agents *[]string, mu *sync.Mutex) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		*agents = append(*agents, r.URL.Path+" "+r.UserAgent())
		mu.Unlock()
		switch r.URL.Path {
		case "/robots.txt":
			io.WriteString(w, "User-agent: *\nDisallow: /private/\nContent-Usage: train-ai=n\n")
		case "/header":
			w.Header().Set("Content-Type", "text/html")
			w.Header().Add("X-Robots-Tag", "foobot: noindex, max-snippet:20")
			w.Header().Set("Content-Usage", "search=y")
			io.WriteString(w, "<html><head></head><body>hi</body></html>")
		case "/meta":
			w.Header().Set("Content-Type", "text/html")
			io.WriteString(w, `<html><head><title>t</title><meta name="robots" content="nofollow, max-image-preview:large, noodp"></head><body>hi</body></html>`)
		case "/private/noindex":
			w.Header().Set("Content-Type", "text/html")
			io.WriteString(w, `<html><head><meta name="robots" content="noindex"></head></html>`)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestPageCommand(t *testing.T) {
	var mu sync.Mutex
	var agents []string
	srv := pagesSite(t, &agents, &mu)

	var stdout, stderr bytes.Buffer
	code := run([]string{"page", "-agent", "Foobot", srv.URL + "/header"}, strings.NewReader(""), &stdout, &stderr)
	want := fmt.Sprintf(`url         %[1]s/header
agent       Foobot
user-agent  Foobot
status      200
robots.txt  allowed  no rule matched
header      noindex  (X-Robots-Tag line 1 (foobot))
header      max-snippet:20  (X-Robots-Tag line 1 (foobot))
header      Content-Usage: search=y
meta        the head ended; 41 bytes read, 0 meta tags seen
answer      index: no  (noindex in X-Robots-Tag line 1 (foobot))
answer      follow: yes
answer      snippet: at most 20 characters  (max-snippet:20 in X-Robots-Tag line 1 (foobot))
usage       train-ai: n  (robots.txt line 3)
usage       ai-use: unknown
usage       search: y  (Content-Usage header)
`, srv.URL)
	if diff := cmp.Diff(want, stdout.String()); code != exitNegative || diff != "" {
		t.Errorf("robotstxt page /header: exit %d, stderr %q, stdout mismatch (-want +got):\n%s", code, stderr.String(), diff)
	}

	stdout.Reset()
	code = run([]string{"page", "-user-agent", "Mozilla/5.0 (compatible; Foobot/1.0)", srv.URL + "/meta"}, strings.NewReader(""), &stdout, &stderr)
	for _, line := range []string{
		"meta        nofollow  (meta tag 1)\n",
		"meta        max-image-preview:large  (meta tag 1)\n",
		"meta        noodp  (meta tag 1, not understood)\n",
		"answer      index: yes\n",
		"answer      follow: no  (nofollow in meta tag 1)\n",
		"answer      image preview: large  (max-image-preview:large in meta tag 1)\n",
		"warning     rule \"noodp\" in meta tag 1 is not understood: ignored\n",
	} {
		if !strings.Contains(stdout.String(), line) {
			t.Errorf("robotstxt page /meta: exit %d, output lacks %q:\n%s", code, line, stdout.String())
		}
	}
	if code != exitOK {
		t.Errorf("robotstxt page /meta: exit %d, want %d", code, exitOK)
	}
	mu.Lock()
	if last := agents[len(agents)-1]; last != "/meta Mozilla/5.0 (compatible; Foobot/1.0)" {
		t.Errorf("the page was fetched as %q", last)
	}
	mu.Unlock()

	stdout.Reset()
	code = run([]string{"page", "-agent", "Foobot", srv.URL + "/private/noindex"}, strings.NewReader(""), &stdout, &stderr)
	for _, line := range []string{
		"robots.txt  disallowed  line 2: Disallow: /private/\n",
		"answer      index: no  (robots.txt disallows fetching it)\n",
		"usage       train-ai: not crawlable  (robots.txt line 2)\n",
		"warning     disallowed by robots.txt, so its noindex cannot be seen (meta tag 1): the URL may still be indexed from links to it; allow it in robots.txt for the noindex to work\n",
	} {
		if !strings.Contains(stdout.String(), line) {
			t.Errorf("robotstxt page /private/noindex: output lacks %q:\n%s", line, stdout.String())
		}
	}
	if code != exitNegative {
		t.Errorf("robotstxt page /private/noindex: exit %d, want %d", code, exitNegative)
	}

	// Without -agent, the answer for every crawler: Foobot's noindex does
	// not bind it.
	stdout.Reset()
	stderr.Reset()
	if code := run([]string{"page", srv.URL + "/header"}, strings.NewReader(""), &stdout, &stderr); code != exitOK ||
		!strings.Contains(stdout.String(), "agent       *\n") || strings.Contains(stdout.String(), "noindex") {
		t.Errorf("robotstxt page without an agent: exit %d, stdout:\n%s\nstderr %q", code, stdout.String(), stderr.String())
	}
}

// TestPageStandIn: page answers "*" under the name robotstxt, and says
// where a site names it, since there the answers are robotstxt's.
func TestPageStandIn(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			io.WriteString(w, "User-agent: robotstxt\nDisallow: /\n")
		default:
			w.Header().Set("Content-Type", "text/html")
			w.Header().Set("X-Robots-Tag", "robotstxt: noindex")
			io.WriteString(w, "<html><head></head></html>")
		}
	}))
	defer srv.Close()
	var stdout, stderr bytes.Buffer
	run([]string{"page", srv.URL + "/a"}, strings.NewReader(""), &stdout, &stderr)
	for _, w := range []string{
		"warning     robots.txt names robotstxt, the name page fetches under for \"*\"",
		"warning     X-Robots-Tag line 1 (robotstxt) is addressed to robotstxt",
	} {
		if !strings.Contains(stdout.String(), w) {
			t.Errorf("no %q in\n%s", w, stdout.String())
		}
	}
}
