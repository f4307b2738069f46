package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// hostile is text a site controls, made to drive a terminal: OSC 0 sets
// the window title (ended by BEL), CSI 2J clears the screen, a CR lets a
// line write over itself, and the C1 CSI (U+009B), a lone 0x9B byte and
// DEL are the other spellings of the same controls (ECMA-48 §5.3, §8.3).
const hostile = "\x1b]0;pwned\x07\x1b[2J\x1b[32m\r\u009b31m\x9b\x7f\xff"

// terminalUnsafe returns a description of the first byte of out that a
// terminal would act on rather than print, or "" when there is none:
// every C0 control but the newline and tab that lay out the output, DEL,
// every C1 control and every byte that is not UTF-8.
func terminalUnsafe(out string) string {
	for i, r := range out {
		switch {
		case r == utf8.RuneError && !strings.HasPrefix(out[i:], "\uFFFD"):
			return fmt.Sprintf("byte %#x at %d, not UTF-8, in %q", out[i], i, around(out, i))
		case r < 0x20 && r != '\n' && r != '\t', r == 0x7f, r >= 0x80 && r <= 0x9f:
			return fmt.Sprintf("control %U at %d in %q", r, i, around(out, i))
		}
	}
	return ""
}

func around(s string, i int) string {
	return s[max(0, i-40):min(len(s), i+40)]
}

// hostileSite serves, on every path a command reads, text with hostile
// in it: the robots.txt, a sitemap index, sitemaps in XML and text, a
// sitemap whose status line carries it in its reason phrase, a redirect,
// and a page with it in its X-Robots-Tag header and meta tags.
func hostileSite(t *testing.T) *httptest.Server {
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host := srv.URL
		switch r.URL.Path {
		case "/robots.txt":
			io.WriteString(w, "User-agent: *\nDisallow: /x"+hostile+"\nAllow: /"+hostile+"\nCrawl-delay: "+hostile+"\n"+
				"Noindex"+hostile+": /y\nUser-agent: "+hostile+"\nDisallow: /z\n"+
				"Sitemap: "+host+"/index.xml\nSitemap: "+host+"/s"+hostile+"\n")
		case "/index.xml":
			w.Header().Set("Content-Type", "application/xml")
			io.WriteString(w, `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`+
				`<sitemap><loc>`+host+`/a.xml</loc></sitemap>`+
				`<sitemap><loc>`+host+`/list.txt</loc></sitemap>`+
				`<sitemap><loc>`+host+`/gone.xml</loc></sitemap>`+
				`<sitemap><loc>`+host+"/\u009b31m.xml</loc></sitemap></sitemapindex>")
		case "/a.xml":
			w.Header().Set("Content-Type", "application/xml")
			io.WriteString(w, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`+
				`<url><loc>`+host+"/p\u009b2J\u0085</loc><lastmod>2026-01-01\u009b2J</lastmod></url>"+
				`<url><loc>`+host+"/q&#x1b;[2J</loc></url>"+
				`<url><loc>http://elsewhere.invalid/`+"\u009b2J</loc></url></urlset>")
		case "/list.txt":
			io.WriteString(w, host+"/t"+hostile+"\n"+host+"/u\u0085\u009b\n")
		case "/gone.xml", "/gone":
			// The reason phrase is the server's to write (RFC 9112 §4).
			conn, buf, err := w.(http.Hijacker).Hijack()
			if err != nil {
				return
			}
			buf.WriteString("HTTP/1.1 404 Not" + hostile + "Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
			buf.Flush()
			conn.Close()
		case "/moved":
			http.Redirect(w, r, "/p\u009b2J\u0085", http.StatusFound)
		default:
			w.Header().Set("Content-Type", "text/html")
			w.Header().Set("X-Robots-Tag", "noarchive, \u009b2Jnosnippet\u0085")
			w.Header().Set("Content-Usage", "train-ai=n\u009b2J")
			io.WriteString(w, `<html><head><title>x</title>`+
				`<meta name="robots" content="noindex, `+hostile+`">`+
				`<meta name="robots" content="max-snippet:`+hostile+`"></head></html>`)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestNoControlBytesReachTerminal runs every command of the CLI, in its
// human-readable forms, on input a site or a file controls, with the
// controls of hostile in every field that reaches the output: no control
// byte may reach standard output or standard error raw, for a terminal
// would act on it (a site could retitle the window, clear the screen, or
// write "allowed" over "disallowed").
func TestNoControlBytesReachTerminal(t *testing.T) {
	srv := hostileSite(t)
	dir := t.TempDir()
	robots := filepath.Join(dir, "robots.txt")
	body := "User-agent: *\nDisallow: /x" + hostile + "\nAllow: /" + hostile + "\nCrawl-delay: " + hostile +
		"\nNoindex" + hostile + ": /y\nDisallow: nothing" + hostile + "\n" + hostile + "\nUser-agent: " + hostile + "\n"
	if err := os.WriteFile(robots, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	badName := filepath.Join(dir, "robots"+hostile+".txt")
	if err := os.WriteFile(badName, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		args  []string
		stdin string
	}{
		{"check URLs as arguments", []string{"check", "-file", robots, "/x" + hostile, "/" + hostile, hostile}, ""},
		{"check URLs from stdin", []string{"check", "-file", robots}, "/x" + hostile + "\n/" + hostile + "\n" + hostile + "\n"},
		{"check robots.txt from stdin", []string{"check", "-", "/x" + hostile}, body},
		{"check a file named with controls", []string{"check", "-file", badName, "/x"}, ""},
		{"check a file that is not there", []string{"check", "-file", filepath.Join(dir, hostile), "/x"}, ""},
		{"check -url", []string{"check", "-url", srv.URL + "/x" + hostile}, ""},
		{"check -url with URLs", []string{"check", "-url", srv.URL + "/", "/x" + hostile, "http://other.example/" + hostile}, ""},
		{"check -url, a reason phrase", []string{"check", "-url", srv.URL + "/gone"}, ""},
		{"check -agent", []string{"check", "-file", robots, "-agent", "Foo" + hostile, "/x"}, ""},
		{"check -user-agent", []string{"check", "-url", srv.URL + "/", "-user-agent", "Foo" + hostile}, ""},
		{"lint", []string{"lint", robots}, ""},
		{"lint -lines -all", []string{"lint", "-lines", "-all", robots}, ""},
		{"lint stdin", []string{"lint", "-lines", "-"}, body},
		{"lint a file named with controls", []string{"lint", badName}, ""},
		{"fetch", []string{"fetch", srv.URL + "/x" + hostile}, ""},
		{"fetch a redirect", []string{"fetch", srv.URL + "/moved"}, ""},
		{"fetch a bad URL", []string{"fetch", "http://" + hostile + "/"}, ""},
		{"sitemaps", []string{"sitemaps", "-delay", "1ms", srv.URL + "/"}, ""},
		{"sitemaps of a sitemap", []string{"sitemaps", "-delay", "1ms", srv.URL + "/a.xml"}, ""},
		{"sitemaps, a reason phrase", []string{"sitemaps", "-delay", "1ms", srv.URL + "/gone.xml"}, ""},
		{"page", []string{"page", "-agent", "Foobot", srv.URL + "/page"}, ""},
		{"page, a reason phrase", []string{"page", "-agent", "Foobot", srv.URL + "/gone"}, ""},
		{"page, a bad URL", []string{"page", "-agent", "Foobot", srv.URL + "/" + hostile}, ""},
		{"ai -file", []string{"ai", "-file", robots, "https://example.com/x" + hostile}, ""},
		{"ai", []string{"ai", "-page", srv.URL + "/page"}, ""},
		{"verify -offline", []string{"verify", "-offline", "66.249.66.1", "Mozilla/5.0 (compatible; Googlebot/2.1" + hostile + ")",
			"Signature-Agent: " + hostile, "Signature-Input: sig1=(" + hostile + ")", "Signature: sig1=:" + hostile + ":"}, ""},
		{"verify, a bad address", []string{"verify", "-offline", hostile, "Foobot"}, ""},
		{"serve, a bad address", []string{"serve", "-addr", hostile + ":1"}, ""},
		{"an unknown command", []string{hostile}, ""},
		{"an unknown flag", []string{"check", "-" + hostile}, ""},
		{"help for an unknown command", []string{"help", hostile}, ""},
		{"an extra argument", []string{"lint", robots, hostile}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, stdout, stderr := runCLI(tt.args, tt.stdin)
			if bad := terminalUnsafe(stdout); bad != "" {
				t.Errorf("stdout: %s", bad)
			}
			if bad := terminalUnsafe(stderr); bad != "" {
				t.Errorf("stderr: %s", bad)
			}
			if stdout == "" && stderr == "" {
				t.Errorf("no output at all")
			}
		})
	}
}

// TestJSONKeepsControlsEscaped checks the JSON forms: they stay JSON,
// with every control escaped, the C1 ones too, which encoding/json would
// write raw.
func TestJSONKeepsControlsEscaped(t *testing.T) {
	srv := hostileSite(t)
	dir := t.TempDir()
	robots := filepath.Join(dir, "robots.txt")
	if err := os.WriteFile(robots, []byte("User-agent: *\nDisallow: /x"+hostile+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"check", "-json", "-file", robots, "/x" + hostile},
		{"lint", "-json", "-lines", robots},
		{"fetch", "-json", srv.URL + "/x" + hostile},
		{"sitemaps", "-json", "-delay", "1ms", srv.URL + "/"},
	} {
		_, stdout, stderr := runCLI(args, "")
		if bad := terminalUnsafe(stdout); bad != "" {
			t.Errorf("%s: stdout: %s", args[:2], bad)
		}
		if bad := terminalUnsafe(stderr); bad != "" {
			t.Errorf("%s: stderr: %s", args[:2], bad)
		}
		n := 0
		for dec := json.NewDecoder(strings.NewReader(stdout)); dec.More(); n++ {
			var v any
			if err := dec.Decode(&v); err != nil {
				t.Fatalf("%s: not JSON after %d values: %v\n%s", args[:2], n, err, stdout)
			}
		}
		if n == 0 {
			t.Errorf("%s: no JSON", args[:2])
		}
	}
}
