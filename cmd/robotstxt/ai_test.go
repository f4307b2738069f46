package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const aiRobots = `User-agent: *
Content-Signal: search=yes,ai-train=no,use=reference
Allow: /

User-agent: GPTBot
Disallow: /

User-agent: Google-Extended
Disallow: /articles/
`

// TestAI runs "robotstxt ai" on a file and over a real socket, with a
// page whose headers and meta tags speak too.
func TestAI(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "robots.txt")
	if err := os.WriteFile(file, []byte(aiRobots), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI([]string{"ai", "-file", file, "/articles/1"}, "")
	if code != exitOK {
		t.Fatalf("exit %d, stderr %s", code, errOut)
	}
	for _, want := range []string{
		"Google        not allowed (line 9)    allowed (line 2)  not allowed (line 9)",
		"OpenAI        not crawlable (line 6)",
		"Google training: robots.txt line 9 (Google-Extended): Disallow: /articles/",
		"robots.txt Content-Signal line 2: use=reference (index the content, quote excerpts and link back)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}

	mux := http.NewServeMux()
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(aiRobots)) })
	mux.HandleFunc("/news/1", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Content-Usage", "train-ai=n, search=y")
		w.Header().Set("Content-Signal", "ai-input=no")
		w.Write([]byte(`<html><head><meta name="bingbot" content="noindex"></head><body>x</body></html>`))
	})
	mux.HandleFunc("/news/2", func(w http.ResponseWriter, r *http.Request) {
		// Two merged media types: the page is still HTML (pagerules.ReadContentType).
		w.Header().Set("Content-Type", "text/html,text/html")
		w.Write([]byte(`<html><head><meta name="robots" content="noindex"></head></html>`))
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	code, out, errOut = runCLI([]string{"ai", srv.URL + "/news/2"}, "")
	if code != exitOK || !strings.Contains(out, "Microsoft search: page robots rules meta tag 1 (bingbot): noindex") {
		t.Errorf("a page with two merged media types: exit %d, its noindex not read:\n%s%s", code, out, errOut)
	}
	code, out, errOut = runCLI([]string{"ai", "-json", srv.URL + "/news/1"}, "")
	if code != exitOK {
		t.Fatalf("exit %d, stderr %s", code, errOut)
	}
	var m matrixJSON
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	got := map[string]string{}
	for _, c := range m.Cells {
		d := ""
		if c.Decided != nil {
			d = c.Decided.Text
		}
		got[c.Operator+" "+string(c.Use)] = c.Verdict + " | " + d
	}
	for cell, want := range map[string]string{
		"Microsoft search":    "not allowed | page robots rules meta tag 1 (bingbot): noindex",
		"Google search":       "allowed | robots.txt Content-Signal line 2 (Googlebot): search=yes",
		"Google ai-input":     "not allowed | Content-Signal header: ai-input=no",
		"OpenAI training":     "not crawlable | robots.txt line 6 (GPTBot): Disallow: /",
		"Meta training":       "not allowed | robots.txt Content-Signal line 2 (meta-externalagent): ai-train=no",
		"Perplexity training": "no token | ",
	} {
		if got[cell] != want {
			t.Errorf("%s: %q, want %q", cell, got[cell], want)
		}
	}
}

// TestAIEscapesTheSite: what the site wrote reaches the terminal with its
// control bytes escaped.
func TestAIEscapesTheSite(t *testing.T) {
	file := filepath.Join(t.TempDir(), "robots.txt")
	if err := os.WriteFile(file, []byte("User-agent: GPTBot\nDisallow: /\x1b]0;pwned\x07\x1b[2J\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, out, errOut := runCLI([]string{"ai", "-file", file, "/\x1b]0;x"}, "")
	if strings.ContainsAny(out+errOut, "\x1b\x07") {
		t.Errorf("a control byte reached the terminal:\n%q", out)
	}
}
