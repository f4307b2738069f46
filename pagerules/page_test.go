package pagerules_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/robotstxt-go/robotstxt"
	"github.com/robotstxt-go/robotstxt/fetch"
	"github.com/robotstxt-go/robotstxt/pagerules"
)

// pageSite serves a robots.txt and pages that state rules in each of the
// three places: robots.txt, the header, and the meta tags.
func pageSite(t *testing.T) *httptest.Server {
	t.Helper()
	big := bigPage(5 << 20)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			io.WriteString(w, "User-agent: *\nDisallow: /private/\nContent-Usage: train-ai=n\nContent-Usage: /open/ train-ai=y\n")
		case "/header":
			w.Header().Set("Content-Type", "text/html")
			w.Header().Add("X-Robots-Tag", "noindex")
			w.Header().Add("X-Robots-Tag", "foobot: nofollow, max-snippet:20")
			io.WriteString(w, "<html><head></head><body>hi</body></html>")
		case "/meta":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			io.WriteString(w, `<html><head><meta name="robots" content="max-snippet:50, nosnippet"><meta name="Foobot" content="noindex"></head><body>hi</body></html>`)
		case "/open/usage":
			w.Header().Set("Content-Usage", "search=y, train-ai=n")
			io.WriteString(w, "<p>hi")
		case "/private/noindex":
			w.Header().Set("X-Robots-Tag", "noindex")
			io.WriteString(w, "secret")
		case "/private/plain":
			w.Header().Set("Content-Type", "text/html")
			io.WriteString(w, "<p>secret")
		case "/expired":
			w.Header().Set("Content-Type", "text/html")
			io.WriteString(w, `<head><meta name="robots" content="unavailable_after: 2020-01-01"></head>`)
		case "/pdf":
			w.Header().Set("Content-Type", "application/pdf")
			w.Header().Set("X-Robots-Tag", "noindex")
			io.WriteString(w, `<meta name="robots" content="nofollow">`)
		case "/big":
			w.Header().Set("Content-Type", "text/html")
			w.Write(big)
		case "/endless":
			w.Header().Set("Content-Type", "text/html")
			io.WriteString(w, "<html><head>")
			for range (pagerules.DefaultHeadLimit / 64) + 100 {
				io.WriteString(w, `<link rel="x" href="/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa">`)
			}
			io.WriteString(w, `<meta name="robots" content="noindex"></head>`)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// bigPage is an HTML page of n bytes whose head, with its meta tags, is at
// its start.
func bigPage(n int) []byte {
	var b bytes.Buffer
	b.WriteString(`<!DOCTYPE html><html><head><title>big</title><meta name="robots" content="noimageindex"></head><body>`)
	for b.Len() < n-20 {
		b.WriteString("<p>lorem ipsum dolor sit amet</p>\n")
	}
	b.WriteString("</body></html>")
	return b.Bytes()
}

// getPage fetches path as a crawler does and answers with ReadPage; then it
// reads the whole body, as the crawler goes on to do.
func getPage(t *testing.T, c *fetch.Cache, srv *httptest.Server, path string) (*pagerules.Page, []byte) {
	p, body, _ := getPageHeader(t, c, srv, path)
	return p, body
}

func getPageHeader(t *testing.T, c *fetch.Cache, srv *httptest.Server, path string) (*pagerules.Page, []byte, http.Header) {
	t.Helper()
	resp, err := srv.Client().Get(srv.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	p, err := pagerules.ReadPage(context.Background(), c, resp)
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return p, body, resp.Header
}

func TestReadPage(t *testing.T) {
	srv := pageSite(t)
	c := fetch.NewCache(&fetch.Options{Client: srv.Client(), UserAgent: "Foobot/1.0"})
	now := time.Now()

	t.Run("header", func(t *testing.T) {
		p, _ := getPage(t, c, srv, "/header")
		if p.MayIndex(now) || p.MayFollow() || p.Tags.SnippetLimit() != 20 {
			t.Errorf("MayIndex %v MayFollow %v SnippetLimit %d, want false false 20", p.MayIndex(now), p.MayFollow(), p.Tags.SnippetLimit())
		}
		if got := p.Tags.Origin(pagerules.NoFollow).String(); got != "X-Robots-Tag line 2 (foobot)" {
			t.Errorf("nofollow origin = %q", got)
		}
	})
	t.Run("meta", func(t *testing.T) {
		p, _ := getPage(t, c, srv, "/meta")
		if p.MayIndex(now) || !p.MayFollow() || p.Tags.SnippetLimit() != 0 {
			t.Errorf("MayIndex %v MayFollow %v SnippetLimit %d, want false true 0", p.MayIndex(now), p.MayFollow(), p.Tags.SnippetLimit())
		}
		if got := p.Tags.Origin(pagerules.NoIndex).String(); got != "meta tag 2 (Foobot)" {
			t.Errorf("noindex origin = %q", got)
		}
	})
	t.Run("usage", func(t *testing.T) {
		p, _ := getPage(t, c, srv, "/open/usage")
		train := p.Usage.Prefs[robotstxt.TrainAI]
		if train.Pref != robotstxt.PrefNo || train.Source() != "Content-Usage header" {
			t.Errorf("train-ai = %v from %q, want n from the header (robots.txt says y)", train.Pref, train.Source())
		}
		search := p.Usage.Prefs[robotstxt.Search]
		if search.Pref != robotstxt.PrefYes || search.Source() != "Content-Usage header" {
			t.Errorf("search = %v from %q", search.Pref, search.Source())
		}
		p, _ = getPage(t, c, srv, "/meta")
		train = p.Usage.Prefs[robotstxt.TrainAI]
		if train.Pref != robotstxt.PrefNo || train.Source() != "robots.txt line 3" {
			t.Errorf("train-ai = %v from %q, want n from robots.txt line 3", train.Pref, train.Source())
		}
	})
	t.Run("disallowed noindex", func(t *testing.T) {
		p, _ := getPage(t, c, srv, "/private/noindex")
		if p.RobotsTxt.Allowed || p.MayIndex(now) {
			t.Fatal("disallowed page answered as allowed")
		}
		if !hasWarning(p, "disallowed by robots.txt, so its noindex cannot be seen") {
			t.Errorf("warnings %q lack the noindex one", p.Warnings)
		}
	})
	t.Run("not HTML", func(t *testing.T) {
		p, body := getPage(t, c, srv, "/pdf")
		if p.HTML || p.MetaScan.Read != 0 || p.Tags.Has(pagerules.NoFollow) || !p.Tags.Has(pagerules.NoIndex) {
			t.Errorf("a PDF was read for meta tags: %+v", p.MetaScan)
		}
		if !strings.Contains(string(body), "nofollow") {
			t.Errorf("body = %q", body)
		}
	})
	t.Run("5 MB page", func(t *testing.T) {
		p, body := getPage(t, c, srv, "/big")
		if !bytes.Equal(body, bigPage(5<<20)) {
			t.Fatalf("the crawler read %d bytes, not the page it was sent", len(body))
		}
		if !p.MetaScan.Ended || !p.Tags.Has(pagerules.NoImageIndex) || p.MetaScan.Read > 8<<10 {
			t.Errorf("scan %+v, noimageindex %v: want the head found within 8 KiB", p.MetaScan, p.Tags.Has(pagerules.NoImageIndex))
		}
		t.Logf("bytes read from a %d-byte page to find its meta tags: %d", len(body), p.MetaScan.Read)
	})
	t.Run("endless head", func(t *testing.T) {
		p, body := getPage(t, c, srv, "/endless")
		if p.MetaScan.Ended || p.MetaScan.Read != pagerules.DefaultHeadLimit || p.Tags.Has(pagerules.NoIndex) {
			t.Errorf("scan %+v: want the bound reached, the noindex past it unseen", p.MetaScan)
		}
		if !hasWarning(p, "did not end within") {
			t.Errorf("warnings %q", p.Warnings)
		}
		if !bytes.HasSuffix(body, []byte("</head>")) {
			t.Error("the body handed back is not whole")
		}
	})
}

func hasWarning(p *pagerules.Page, s string) bool {
	for _, w := range p.Warnings {
		if strings.Contains(w, s) {
			return true
		}
	}
	return false
}

// PageOf answers from a header and body held already, as colly hands them
// over; its answer is ReadPage's.
func TestPageOfEqualsReadPage(t *testing.T) {
	srv := pageSite(t)
	c := fetch.NewCache(&fetch.Options{Client: srv.Client(), UserAgent: "Foobot/1.0"})
	for _, path := range []string{"/header", "/meta", "/open/usage", "/private/noindex", "/pdf", "/big"} {
		p, body, h := getPageHeader(t, c, srv, path)
		q, err := pagerules.PageOf(context.Background(), c, srv.URL+path, h, body)
		if err != nil {
			t.Fatal(err)
		}
		if !equalPages(p, q) {
			t.Errorf("%s: PageOf %+v\nReadPage %+v", path, q.Tags, p.Tags)
		}
	}
}

func equalPages(p, q *pagerules.Page) bool {
	return reflect.DeepEqual(p.Tags, q.Tags) && reflect.DeepEqual(p.Usage, q.Usage) &&
		reflect.DeepEqual(p.Warnings, q.Warnings) && p.RobotsTxt.Allowed == q.RobotsTxt.Allowed &&
		p.MetaScan.Ended == q.MetaScan.Ended && p.MetaScan.Tags == q.MetaScan.Tags
}

// TestPageContentType serves a page whose head says noindex under
// Content-Type headers a server may send, well formed or not, and checks
// that the page is read as a browser reads it (WHATWG Fetch, "extract a
// MIME type": the last value that parses; a parameter that does not parse
// leaves the media type standing), with a warning for each malformed one.
func TestPageContentType(t *testing.T) {
	const body = `<html><head><meta name="robots" content="noindex"></head><body>hi</body></html>`
	tests := []struct {
		why       string
		lines     []string // the Content-Type field lines sent
		html      bool     // read for meta tags, so the noindex is seen
		malformed bool     // a warning says the Content-Type is malformed
	}{
		{"RFC 9110 §8.3.1: a media type with a charset", []string{"text/html; charset=utf-8"}, true, false},
		{"RFC 9110 §8.3.1: case and white space around the parameter do not matter", []string{"Text/HTML ; Charset=UTF-8"}, true, false},
		{"no Content-Type: the body is sniffed, and read", nil, true, false},
		{"not HTML: not read", []string{"application/pdf"}, false, false},
		{"RFC 9110 §5.6.6: a parameter without a value is malformed; the media type stands", []string{"text/html; charset"}, true, true},
		{"RFC 9110 §5.6.6: empty parameters are malformed; the media type stands", []string{"text/html; charset=utf-8;;"}, true, true},
		{"RFC 9110 §5.6.6: an unterminated quoted string is malformed; the media type stands", []string{`text/html; charset="utf-8`}, true, true},
		{"a duplicate parameter is malformed; the media type stands", []string{"text/html; charset=utf-8; charset=latin1"}, true, true},
		{"RFC 9110 §8.3: one value allowed; two merged on one line are malformed", []string{"text/html,text/html"}, true, true},
		{"RFC 9110 §8.3: two field lines are malformed; read as browsers read them, joined", []string{"text/html", "text/html"}, true, true},
		{"WHATWG Fetch extract a MIME type: the last value that parses wins", []string{"text/plain, text/html"}, true, true},
		{"WHATWG Fetch extract a MIME type: the last value that parses wins, not HTML", []string{"text/html, application/pdf"}, false, true},
		{"WHATWG Fetch extract a MIME type: a value that does not parse is skipped", []string{"text/html, nonsense"}, true, true},
		{"WHATWG Fetch extract a MIME type: */* is skipped", []string{"text/html, */*"}, true, true},
		{"a malformed parameter of a type that is not HTML leaves it not HTML", []string{"application/pdf; x"}, false, true},
		{"no media type at all: sniffed as with no Content-Type, so read", []string{"nonsense"}, true, true},
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			io.WriteString(w, "User-agent: *\nAllow: /\n")
			return
		}
		var i int
		fmt.Sscan(r.URL.Query().Get("row"), &i)
		w.Header()["Content-Type"] = tests[i].lines
		if tests[i].lines == nil {
			w.Header()["Content-Type"] = nil // no sniffing by net/http
		}
		io.WriteString(w, body)
	}))
	defer srv.Close()
	c := fetch.NewCache(&fetch.Options{Client: srv.Client(), UserAgent: "Foobot/1.0"})
	now := time.Now()
	for i, tt := range tests {
		if tt.why == "" {
			t.Errorf("row %q says not why it exists", tt.lines)
		}
		p, got, h := getPageHeader(t, c, srv, fmt.Sprintf("/page?row=%d", i))
		if string(got) != body {
			t.Errorf("%s: the body handed back is %q", tt.why, got)
		}
		if !reflect.DeepEqual(h["Content-Type"], tt.lines) {
			t.Fatalf("%s: the server sent Content-Type %q, not %q", tt.why, h["Content-Type"], tt.lines)
		}
		q, err := pagerules.PageOf(context.Background(), c, p.URL, h, got)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range []*pagerules.Page{p, q} {
			if p.HTML != tt.html || p.Tags.Has(pagerules.NoIndex) != tt.html || p.MayIndex(now) == tt.html {
				t.Errorf("%s\nContent-Type %q: HTML %v, noindex seen %v, MayIndex %v; want HTML and noindex %v",
					tt.why, tt.lines, p.HTML, p.Tags.Has(pagerules.NoIndex), p.MayIndex(now), tt.html)
			}
			if hasWarning(p, "Content-Type") != tt.malformed {
				t.Errorf("%s\nContent-Type %q: warnings %q, want a malformed Content-Type warning: %v", tt.why, tt.lines, p.Warnings, tt.malformed)
			}
		}
	}
}

// TestPageAnswers asks the two questions a page answers apart: may its
// content be indexed, and may its URL be shown in results. Google's
// reading: a URL robots.txt disallows is never fetched, so its content is
// not indexed, but its noindex is never seen either, and the URL "can
// still appear in search results, for example if other pages link to it"
// (developers.google.com/search/docs/crawling-indexing/block-indexing);
// a noindex seen on the page removes both.
func TestPageAnswers(t *testing.T) {
	srv := pageSite(t)
	c := fetch.NewCache(&fetch.Options{Client: srv.Client(), UserAgent: "Foobot/1.0"})
	now := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	const robotsLine2 = `robots.txt line 2 (Disallow: "/private/")`
	for _, tt := range []struct {
		why                string
		path               string
		content, url       bool
		contentBy, urlBy   string // PageAnswer.Source
		robotsTxt, fromRow bool   // robots.txt decided; a page rule decided
	}{
		{"nothing stated: both yes, no signal", "/open/usage", true, true, "", "", false, false},
		{google + ": noindex in the header removes the page", "/header", false, false,
			"X-Robots-Tag line 1: noindex", "X-Robots-Tag line 1: noindex", false, true},
		{google + ": noindex in a meta tag for the crawler removes the page", "/meta", false, false,
			"meta tag 2 (Foobot): noindex", "meta tag 2 (Foobot): noindex", false, true},
		{google + ": noindex in the header of a PDF", "/pdf", false, false,
			"X-Robots-Tag line 1: noindex", "X-Robots-Tag line 1: noindex", false, true},
		{google + ": unavailable_after past removes the page", "/expired", false, false,
			"meta tag 1: unavailable_after: 2020-01-01", "meta tag 1: unavailable_after: 2020-01-01", false, true},
		{blockIndexing + ": disallowed: content not fetched, URL may still be shown", "/private/plain", false, true,
			robotsLine2, robotsLine2, true, false},
		{blockIndexing + ": disallowed with noindex: the noindex is never seen, URL may still be shown", "/private/noindex", false, true,
			robotsLine2, robotsLine2, true, false},
	} {
		p, _ := getPage(t, c, srv, tt.path)
		content, url := p.IndexContent(now), p.ShowURL(now)
		if content.May != tt.content || content.Source() != tt.contentBy {
			t.Errorf("%s\n%s: IndexContent = %v by %q, want %v by %q", tt.why, tt.path, content.May, content.Source(), tt.content, tt.contentBy)
		}
		if url.May != tt.url || url.Source() != tt.urlBy {
			t.Errorf("%s\n%s: ShowURL = %v by %q, want %v by %q", tt.why, tt.path, url.May, url.Source(), tt.url, tt.urlBy)
		}
		for _, a := range []pagerules.Answer{content, url} {
			if a.RobotsTxt != tt.robotsTxt || (a.Origin.Source != 0) != tt.fromRow {
				t.Errorf("%s\n%s: %+v: want robots.txt deciding %v, a page rule %v", tt.why, tt.path, a, tt.robotsTxt, tt.fromRow)
			}
		}
		if old := p.MayIndex(now); old != content.May {
			t.Errorf("%s\n%s: MayIndex %v, IndexContent %v: the deprecated name answers the content question", tt.why, tt.path, old, content.May)
		}
	}
}

// The sources of the rows.
const (
	google        = "developers.google.com/search/docs/crawling-indexing/robots-meta-tag"
	blockIndexing = "developers.google.com/search/docs/crawling-indexing/block-indexing"
)
