package main

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// aiCells reads a matrix's cells as "verdict | deciding signal" by
// "operator use".
func aiCells(m matrixJSON) map[string]string {
	got := map[string]string{}
	for _, c := range m.Cells {
		d := ""
		if c.Decided != nil {
			d = c.Decided.Text
		}
		got[c.Operator+" "+string(c.Use)] = c.Verdict + " | " + d
	}
	return got
}

// TestAPIAI answers /api/ai as robotstxt ai -json does, from the file in
// the body and the headers typed in, in each way a body may come.
func TestAPIAI(t *testing.T) {
	srv, _ := tester(t, false)
	robots, _ := json.Marshal(aiRobots)
	tests := []struct {
		name, path, contentType, body string
		url                           string
		cells                         map[string]string
		why                           string
	}{
		{"json", "/api/ai", "application/json", `{"robots": ` + string(robots) + `, "url": "/articles/1"}`, "/articles/1",
			map[string]string{
				"Google training":     "not allowed | robots.txt line 9 (Google-Extended): Disallow: /articles/",
				"Google search":       "allowed | robots.txt Content-Signal line 2 (Googlebot): search=yes",
				"OpenAI training":     "not crawlable | robots.txt line 6 (GPTBot): Disallow: /",
				"Meta training":       "not allowed | robots.txt Content-Signal line 2 (meta-externalagent): ai-train=no",
				"Perplexity training": "no token | ",
			}, "the CLI's answers (TestAI), from the same file"},
		{"headers", "/api/ai", "application/json", `{"robots": "User-agent: *\nAllow: /\n", "url": "https://e.com/news/1",
			"content_usage": "train-ai=n, search=y", "content_signal": "ai-input=no", "x_robots_tag": "otherbot: nofollow\nbingbot: noindex"}`,
			"https://e.com/news/1",
			map[string]string{
				"Microsoft search": "not allowed | page robots rules X-Robots-Tag line 2 (bingbot): noindex",
				"Google search":    "allowed | Content-Usage header: search=y",
				"Google training":  "not allowed | Content-Usage header: train-ai=n",
				"Google ai-input":  "not allowed | Content-Signal header: ai-input=no",
			}, "headers typed in speak as a page's response would (aiuse.ReadPage); one X-Robots-Tag a line"},
		{"raw body", "/api/ai?url=/articles/1&content_signal=ai-train%3Dyes", "text/plain", aiRobots, "/articles/1",
			map[string]string{
				"Google training": "not allowed | robots.txt line 9 (Google-Extended): Disallow: /articles/",
				"Apple training":  "not allowed | robots.txt Content-Signal line 2 (Applebot-Extended): ai-train=no",
			}, "a body that is not JSON is the file, the rest in the query, as /api/check takes it"},
		{"curl -d", "/api/ai", "application/x-www-form-urlencoded", `{"robots":"User-agent: GPTBot\nDisallow: /","url":"/x"}`, "/x",
			map[string]string{"OpenAI training": "not crawlable | robots.txt line 2 (GPTBot): Disallow: /"},
			"curl -d sends JSON as a form: a body that starts with '{' is JSON"},
		{"normalized", "/api/ai", "application/json", `{"robots": "User-agent: GPTBot\nDisallow: /caf%C3%A9\n", "url": "/café"}`, "/café",
			map[string]string{"OpenAI training": "not crawlable | robots.txt line 2 (GPTBot): Disallow: /caf%C3%A9"},
			"the URL is asked as a crawler sends it (robotstxt.NormalizeURL), as /api/check asks it"},
	}
	for _, tt := range tests {
		var got matrixJSON
		code := post(t, srv, tt.path, tt.contentType, tt.body, &got)
		if code != http.StatusOK || got.URL != tt.url || got.Robots != "robots.txt" {
			t.Errorf("%s (%s): status %d, url %q, robots %q", tt.name, tt.why, code, got.URL, got.Robots)
			continue
		}
		cells := aiCells(got)
		for cell, want := range tt.cells {
			if cells[cell] != want {
				t.Errorf("%s (%s): %s = %q, want %q", tt.name, tt.why, cell, cells[cell], want)
			}
		}
	}
}

// TestAPIAIErrors: what /api/ai refuses, with the API's error shape.
func TestAPIAIErrors(t *testing.T) {
	srv, _ := tester(t, false)
	tests := []struct {
		contentType, body string
		status            int
		want, why         string
	}{
		{"application/json", `{"robots": "x"}`, 400, "no url", "a matrix is for one URL: none given is an error, not /"},
		{"application/json", `{"robots": "x", "url": "example.com/a"}`, 400, `did you mean "https://example.com/a"?`, "a URL as /api/check checks it (checkableURL)"},
		{"application/json", `{"robots": "x", "url": "/a", "urls": ["/b"]}`, 400, `unknown field "urls"`, "a misspelt field is an error, not ignored"},
		{"application/json", `{"robots": "x", "url": "/a", "content_usage": "train-ai=n\u0000"}`, 400, "content_usage", "a header value holds no control byte (RFC 9110 §5.5)"},
		{"application/json", `{"robots": "x", "url": "/a"} {}`, 400, "content after the JSON object", "trailing content is refused"},
		{"text/plain", strings.Repeat("a", maxRequestBody+1), 413, "request body over 4194304 bytes", "bodies are bounded before they are read"},
		{"multipart/form-data; boundary=x", "--x--", 415, "curl -F", "a multipart form is neither JSON nor a robots.txt"},
	}
	for _, tt := range tests {
		var got errorJSON
		code := post(t, srv, "/api/ai", tt.contentType, tt.body, &got)
		if code != tt.status || !strings.Contains(got.Error, tt.want) {
			t.Errorf("/api/ai (%s): %d %q, want %d and %q", tt.why, code, got.Error, tt.status, tt.want)
		}
	}
	// Another method is answered as for the other routes.
	resp, err := srv.Client().Get(srv.URL + "/api/ai")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed || resp.Header.Get("Allow") != http.MethodPost {
		t.Errorf("GET /api/ai: %d, Allow %q; want 405 naming POST", resp.StatusCode, resp.Header.Get("Allow"))
	}
}

// TestAPIAIKeepsSiteText: what the site and the user wrote comes back as
// written, markup and control bytes included, for the page to show as
// text: the URL as given, and the rule that decided for it as a crawler
// sends it (robotstxt.NormalizeURL: '<' as %3C, ESC as %1B).
func TestAPIAIKeepsSiteText(t *testing.T) {
	srv, _ := tester(t, false)
	var got matrixJSON
	code := post(t, srv, "/api/ai", "application/json",
		`{"robots": "User-agent: GPTBot\nDisallow: /%3Cscript%3E\nDisallow: /<script>\u001b[2J\n", "url": "/<script>alert(1)</script>\u001b[2J"}`, &got)
	cells := aiCells(got)
	if want := "not crawlable | robots.txt line 2 (GPTBot): Disallow: /%3Cscript%3E"; code != 200 || cells["OpenAI training"] != want ||
		got.URL != "/<script>alert(1)</script>\x1b[2J" {
		t.Errorf("/api/ai: %d, url %q, OpenAI training %q, want %q", code, got.URL, cells["OpenAI training"], want)
	}
}

// TestAPIAIAdmitted: /api/ai waits for room in the body budget before it
// reads a body, as the other routes do (admit): with the budget full, it
// answers 503 with Retry-After.
func TestAPIAIAdmitted(t *testing.T) {
	srv, s := tester(t, false)
	s.bodies.mu.Lock()
	s.bodies.free = 0
	s.bodies.mu.Unlock()
	resp, err := srv.Client().Post(srv.URL+"/api/ai?url=/x", "text/plain", strings.NewReader("User-agent: GPTBot\nDisallow: /\n"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" {
		t.Errorf("/api/ai with the budget full: %s, Retry-After %q; want 503 with Retry-After", resp.Status, resp.Header.Get("Retry-After"))
	}
}
