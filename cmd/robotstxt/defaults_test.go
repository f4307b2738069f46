package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestOneDefaultAgent: every command that takes -agent has the same
// default, defaultAgent, and answers with it when -agent is not given:
// page and sitemaps too, which once demanded one or had one of their own.
func TestOneDefaultAgent(t *testing.T) {
	for _, cmd := range []string{"check", "fetch", "page", "sitemaps"} {
		_, help, _ := runCLI([]string{cmd, "-h"}, "")
		want := fmt.Sprintf("(default %q)", defaultAgent)
		i := strings.Index(help, "-agent NAME")
		if i < 0 || !strings.Contains(help[i:min(len(help), i+200)], want) {
			t.Errorf("%s -h: -agent without %s", cmd, want)
		}
	}
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			io.WriteString(w, "User-agent: *\nDisallow: /drafts/\n\nUser-agent: Foobot\nDisallow: /\n\nSitemap: /sitemap.txt\n")
		case "/sitemap.txt":
			io.WriteString(w, "http://"+r.Host+"/a\nhttp://"+r.Host+"/drafts/b\n")
		default:
			w.Header().Set("Content-Type", "text/html")
			w.Header().Set("X-Robots-Tag", "foobot: noindex")
			io.WriteString(w, `<html><head><meta name="robots" content="nofollow"></head></html>`)
		}
	}))
	defer site.Close()

	code, out, errOut := runCLI([]string{"page", site.URL + "/a"}, "")
	if code != exitOK || !strings.Contains(out, "agent       *\n") || !strings.Contains(out, "robots.txt  allowed") ||
		!strings.Contains(out, "follow: no") || strings.Contains(out, "index: no") {
		t.Errorf("page without -agent: exit %d, want %d, the rules for every crawler (nofollow, not Foobot's noindex):\n%s%s", code, exitOK, out, errOut)
	}
	code, out, errOut = runCLI([]string{"sitemaps", "-delay", "1ms", site.URL + "/"}, "")
	want := "allowed     " + site.URL + "/a  no rule matched\ndisallowed  " + site.URL + "/drafts/b  line 2: Disallow: /drafts/\n"
	if code != exitNegative || out != want {
		t.Errorf("sitemaps without -agent: exit %d, stdout:\n%s%s\nwant exit %d and the answers of the group for *:\n%s", code, out, errOut, exitNegative, want)
	}
}

// TestFetchShowsCrawlDelayAndSitemaps: fetch prints the Crawl-delay that
// applies to the agent and the Sitemap lines of the file (RFC 9309 §2.2.4
// leaves other records to crawlers; sitemaps.org names the Sitemap line).
func TestFetchShowsCrawlDelayAndSitemaps(t *testing.T) {
	body := "User-agent: *\nDisallow: /private/\nCrawl-delay: 2.5\n\nUser-agent: Foobot\nCrawl-delay: 10\nDisallow:\n\n" +
		"Sitemap: https://example.com/sitemap.xml\nSitemap: https://example.com/news.xml\n"
	sites := fakeFetcher{"https://example.com/x": fetchedBody("https://example.com/robots.txt", []byte(body))}
	for _, tt := range []struct {
		agent string
		want  []string
	}{
		{"*", []string{"crawl-delay 2.5s (line 3)\n", "sitemap     https://example.com/sitemap.xml\n", "sitemap     https://example.com/news.xml\n"}},
		{"Foobot", []string{"crawl-delay 10s (line 6)\n", "sitemap     https://example.com/sitemap.xml\n"}},
	} {
		var stdout, stderr bytes.Buffer
		c := &cli{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr, fetcher: sites}
		c.run([]string{"fetch", "-agent", tt.agent, "https://example.com/x"})
		for _, w := range tt.want {
			if !strings.Contains(stdout.String(), w) {
				t.Errorf("fetch -agent %s: no %q in\n%s", tt.agent, w, stdout.String())
			}
		}
	}
	var stdout bytes.Buffer
	c := &cli{stdin: strings.NewReader(""), stdout: &stdout, stderr: io.Discard, fetcher: sites}
	c.run([]string{"fetch", "-json", "https://example.com/x"})
	for _, w := range []string{`"crawl_delay_seconds": 2.5`, `"crawl_delay_line": 3`, `"sitemaps": [`} {
		if !strings.Contains(stdout.String(), w) {
			t.Errorf("fetch -json: no %s in\n%s", w, stdout.String())
		}
	}
}

// TestAPIFormBody: curl -d sends its data as
// application/x-www-form-urlencoded, whatever it is; a JSON body sent so
// was read as a robots.txt and answered "no agent". A form body that
// starts with '{' is read as JSON; the robots.txt itself, as curl
// --data-binary @robots.txt sends it with the same type, is still read
// raw; a multipart form (curl -F) is refused with 415 (RFC 9110
// §15.5.16), naming its Content-Type. The requests are those curl 7.88.1
// sends, byte for byte.
func TestAPIFormBody(t *testing.T) {
	srv, _ := tester(t, false)
	send := func(path, contentType, body string) (int, string) {
		conn, err := net.Dial("tcp", srv.Listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		conn.SetDeadline(time.Now().Add(10 * time.Second))
		fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: %s\r\nUser-Agent: curl/7.88.1\r\nAccept: */*\r\nContent-Length: %d\r\n"+
			"Content-Type: %s\r\n\r\n%s", path, srv.Listener.Addr(), len(body), contentType, body)
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatal(err)
		}
		msg, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(msg)
	}
	const form = "application/x-www-form-urlencoded"
	// curl -d '{"robots":...}' http://127.0.0.1:8080/api/check
	code, msg := send("/api/check", form, `{"robots":"User-agent: *\nDisallow: /private/","agent":"Googlebot","urls":["/private/x"]}`)
	if code != 200 || !strings.Contains(msg, `"allowed":false`) || !strings.Contains(msg, `"line":2`) {
		t.Errorf("/api/check, JSON as curl -d sends it: %d %s; want /private/x disallowed by line 2", code, msg)
	}
	code, msg = send("/api/lint", form, `{"robots":"User-agent: *\nDisallow: private/"}`)
	if code != 200 || !strings.Contains(msg, `"errors":1`) {
		t.Errorf("/api/lint, JSON as curl -d sends it: %d %s; want one error", code, msg)
	}
	// curl --data-binary @robots.txt 'http://127.0.0.1:8080/api/check?agent=Googlebot&url=/private/x'
	code, msg = send("/api/check?agent=Googlebot&url=/private/x", form, "User-agent: *\nDisallow: /private/\n")
	if code != 200 || !strings.Contains(msg, `"allowed":false`) {
		t.Errorf("/api/check, the file as curl --data-binary sends it: %d %s", code, msg)
	}
	// curl -F robots=@robots.txt
	const multipart = "multipart/form-data; boundary=------------------------d74496d66958873e"
	code, msg = send("/api/check", multipart, "--------------------------d74496d66958873e\r\nContent-Disposition: form-data; name=\"robots\"; filename=\"robots.txt\"\r\n"+
		"Content-Type: text/plain\r\n\r\nUser-agent: *\nDisallow: /private/\n\r\n--------------------------d74496d66958873e--\r\n")
	if code != http.StatusUnsupportedMediaType || !strings.Contains(msg, "multipart/form-data") {
		t.Errorf("/api/check, curl -F: %d %s; want 415 naming the Content-Type", code, msg)
	}
}

// TestSitemapsStandIn: sitemaps answers "*" under the name robotstxt, and
// says so where a robots.txt names robotstxt, whose group then answers.
func TestSitemapsStandIn(t *testing.T) {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			io.WriteString(w, "User-agent: robotstxt\nDisallow: /a\n\nSitemap: /sitemap.txt\n")
		case "/sitemap.txt":
			io.WriteString(w, "http://"+r.Host+"/a\nhttp://"+r.Host+"/b\n")
		}
	}))
	defer site.Close()
	_, _, stderr := runSitemaps("-delay", "1ms", site.URL+"/")
	if want := "robotstxt sitemaps: " + site.URL + "/robots.txt names robotstxt, the name fetched under for \"*\""; strings.Count(stderr, want) != 1 {
		t.Errorf("stderr says %d times %q:\n%s", strings.Count(stderr, want), want, stderr)
	}
}
