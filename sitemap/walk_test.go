package sitemap_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/robotstxt-go/robotstxt/fetch"
	"github.com/robotstxt-go/robotstxt/fetch/fetchtest"
	"github.com/robotstxt-go/robotstxt/internal/sitemaptest"
	"github.com/robotstxt-go/robotstxt/sitemap"
)

// walkResult is what a walk gave.
type walkResult struct {
	entries  []sitemap.WalkEntry
	findings []sitemap.Finding
	visits   []sitemap.Visit
	err      error
}

func (w walkResult) locs() []string {
	var out []string
	for _, e := range w.entries {
		out = append(out, e.Loc)
	}
	return out
}

func (w walkResult) codes() []sitemap.Code {
	var out []sitemap.Code
	for _, f := range w.findings {
		out = append(out, f.Code)
	}
	return out
}

// has reports whether the walk found a finding of code c.
func (w walkResult) has(c sitemap.Code) bool { return slices.Contains(w.codes(), c) }

// walkSite walks start with a fresh cache for Foobot and o's other
// settings.
func walkSite(t *testing.T, start string, o sitemap.WalkOptions) walkResult {
	t.Helper()
	if o.Cache == nil {
		o.Cache = fetch.NewCache(&fetch.Options{UserAgent: "Foobot/1.0 (+https://foo.example/bot)"})
	}
	var res walkResult
	var mu sync.Mutex
	o.OnFinding = func(f sitemap.Finding) { mu.Lock(); res.findings = append(res.findings, f); mu.Unlock() }
	o.OnSitemap = func(v sitemap.Visit) { res.visits = append(res.visits, v) }
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for e, err := range sitemap.Walk(ctx, start, &o) {
		if err != nil {
			res.err = err
			break
		}
		res.entries = append(res.entries, e)
	}
	return res
}

// server serves routes (path → handler) on a real socket and counts the
// requests for each path.
type server struct {
	*httptest.Server
	mu   sync.Mutex
	hits map[string]int
}

func serve(t *testing.T, routes map[string]http.HandlerFunc) *server {
	s := &server{hits: map[string]int{}}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.hits[r.URL.Path]++
		s.mu.Unlock()
		if h, ok := routes[r.URL.Path]; ok {
			h(w, r)
			return
		}
		http.NotFound(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *server) hit(path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits[path]
}

// text answers with body and a Content-Type.
func text(ctype, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", ctype)
		io.WriteString(w, strings.ReplaceAll(body, "{host}", "http://"+r.Host))
	}
}

const xmlType = "application/xml"

func urlset(locs ...string) string {
	s := `<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n"
	for _, l := range locs {
		s += "<url><loc>" + l + "</loc></url>\n"
	}
	return s + "</urlset>\n"
}

func index(locs ...string) string {
	s := `<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n"
	for _, l := range locs {
		s += "<sitemap><loc>" + l + "</loc></sitemap>\n"
	}
	return s + "</sitemapindex>\n"
}

func gzipped(s string) []byte {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write([]byte(s))
	w.Close()
	return b.Bytes()
}

// TestWalkSite follows a site's robots.txt to an index, a gzipped sitemap
// and a text sitemap, and gives each page the crawler's decision with its
// deciding line.
func TestWalkSite(t *testing.T) {
	s := serve(t, map[string]http.HandlerFunc{
		"/robots.txt":        text("text/plain", "User-agent: *\nDisallow: /private/\n\nSitemap: /sitemap_index.xml\n"),
		"/sitemap_index.xml": text(xmlType, index("{host}/sitemaps/pages.xml.gz", "{host}/sitemaps/more.txt", "{host}/sitemaps/pages.xml.gz")),
		"/sitemaps/pages.xml.gz": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/gzip")
			w.Write(gzipped(urlset("http://"+r.Host+"/a", "http://"+r.Host+"/private/b", "http://elsewhere.example/c", "http://"+r.Host+"/a")))
		},
		"/sitemaps/more.txt": text("text/plain", "{host}/d?x=1&y=2\n{host}/ü\n"),
	})
	res := walkSite(t, s.URL, sitemap.WalkOptions{Decide: true})
	if res.err != nil {
		t.Fatal(res.err)
	}
	want := []string{s.URL + "/a", s.URL + "/private/b", s.URL + "/d?x=1&y=2", s.URL + "/ü"}
	if got := res.locs(); !slices.Equal(got, want) {
		t.Errorf("locs %v, want %v", got, want)
	}
	for _, e := range res.entries {
		d := e.Decision
		wantAllowed := !strings.Contains(e.Loc, "/private/")
		if d == nil || d.Allowed != wantAllowed || (!wantAllowed && d.Line != 2) {
			t.Errorf("%s: decision %+v, want allowed %v (line 2 when disallowed)", e.Loc, d, wantAllowed)
		}
	}
	if e := res.entries[0]; e.Sitemap != s.URL+"/sitemaps/pages.xml.gz" {
		t.Errorf("entry's sitemap %q", e.Sitemap)
	}
	// elsewhere.example is asked whether it names the sitemap; it cannot
	// be reached, so the entry is outside. The index lists pages.xml.gz
	// twice (a duplicate), and pages.xml.gz lists /a twice.
	for _, c := range []sitemap.Code{sitemap.Outside, sitemap.Duplicate} {
		if !res.has(c) {
			t.Errorf("no %s finding in %v", c, res.findings)
		}
	}
	if len(res.visits) != 3 || res.visits[1].Kind != sitemap.URLSet || res.visits[2].Kind != sitemap.Text {
		t.Errorf("visits %+v", res.visits)
	}
	// A polite walk fetches robots.txt once, from its cache, and the
	// sitemap the index lists twice once.
	for _, p := range []string{"/robots.txt", "/sitemap_index.xml", "/sitemaps/pages.xml.gz", "/sitemaps/more.txt"} {
		if n := s.hit(p); n != 1 {
			t.Errorf("%s fetched %d times, want once", p, n)
		}
	}
}

// TestWalkCrossSubmission: a sitemap on one host lists the pages of
// another whose robots.txt names it (sitemaps.org, "Sitemaps & Cross
// Submits"); a third host, whose robots.txt does not, gets nothing in.
// 127.0.0.1 and localhost are two hosts of one server.
func TestWalkCrossSubmission(t *testing.T) {
	var port string
	s := serve(t, map[string]http.HandlerFunc{
		"/robots.txt": func(w http.ResponseWriter, r *http.Request) {
			if strings.HasPrefix(r.Host, "localhost:") {
				fmt.Fprintf(w, "User-agent: *\nAllow: /\nSitemap: http://127.0.0.1:%s/sitemaps/cross.xml\n", port)
				return
			}
			io.WriteString(w, "User-agent: *\nAllow: /\n")
		},
		"/sitemaps/cross.xml": func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, urlset("http://localhost:"+port+"/x", "http://127.0.0.1:"+port+"/sitemaps/y", "http://127.0.0.1:"+port+"/z"))
		},
	})
	port = s.URL[strings.LastIndexByte(s.URL, ':')+1:]
	res := walkSite(t, s.URL+"/sitemaps/cross.xml", sitemap.WalkOptions{})
	want := []string{"http://localhost:" + port + "/x", "http://127.0.0.1:" + port + "/sitemaps/y"}
	if got := res.locs(); !slices.Equal(got, want) {
		t.Errorf("locs %v, want %v (findings %v)", got, want, res.findings)
	}
	if codes := res.codes(); !slices.Equal(codes, []sitemap.Code{sitemap.Outside}) {
		t.Errorf("findings %v, want one outside (/z is not in /sitemaps/ and 127.0.0.1 names no sitemap)", res.findings)
	}
}

// TestWalkRedirectScope: sitemaps.org's location rule ("Sitemap file
// location") applies to the location that served the document, after
// redirects; a redirect never lets another host list the URLs of the host
// that redirected. 127.0.0.1 and localhost are two hosts of one server:
// 127.0.0.1 redirects its sitemaps to localhost.
func TestWalkRedirectScope(t *testing.T) {
	var port string
	tests := []struct {
		name   string
		robots string // 127.0.0.1's robots.txt
		start  string // a path on 127.0.0.1; "" is the site
		want   []string
		out    int // Outside findings
		reason string
	}{
		{"site without sitemap lines", "User-agent: *\nAllow: /\n", "",
			[]string{"http://localhost:{port}/w/1"}, 1,
			"/sitemap.xml redirects to localhost: localhost's pages are in its scope, 127.0.0.1's are not"},
		{"sitemap given", "User-agent: *\nAllow: /\n", "/sitemap.xml",
			[]string{"http://localhost:{port}/w/1"}, 1,
			"the scope of a sitemap given is where it was served from"},
		{"named by robots.txt", "User-agent: *\nAllow: /\nSitemap: http://127.0.0.1:{port}/sitemap.xml\n", "",
			[]string{"http://localhost:{port}/w/1"}, 1,
			"robots.txt named the URL as listed; the document localhost served is not what it named"},
		{"named by robots.txt, redirect on its host", "User-agent: *\nAllow: /\nSitemap: http://127.0.0.1:{port}/old.xml\n", "",
			[]string{"http://127.0.0.1:{port}/x", "http://127.0.0.1:{port}/y/2"}, 1,
			"a redirect within the host that named the sitemap keeps what robots.txt allows it"},
		{"index named by robots.txt", "User-agent: *\nAllow: /\nSitemap: http://127.0.0.1:{port}/index.xml\n", "",
			[]string{"http://localhost:{port}/w/1"}, 1,
			"the index localhost served may list localhost's sitemaps; they inherit nothing from 127.0.0.1's robots.txt"},
		{"final URL named by robots.txt", "User-agent: *\nAllow: /\nSitemap: http://localhost:{port}/sitemap.xml\n", "/sitemap.xml",
			[]string{"http://localhost:{port}/w/1", "http://127.0.0.1:{port}/x"}, 0,
			"sitemaps.org Sitemaps & Cross Submits: 127.0.0.1 names the location that served the document"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := serve(t, map[string]http.HandlerFunc{
				"/robots.txt": func(w http.ResponseWriter, r *http.Request) {
					if strings.HasPrefix(r.Host, "127.0.0.1:") {
						io.WriteString(w, strings.ReplaceAll(tt.robots, "{port}", port))
						return
					}
					io.WriteString(w, "User-agent: *\nAllow: /\n")
				},
				"/sitemap.xml": func(w http.ResponseWriter, r *http.Request) {
					if strings.HasPrefix(r.Host, "127.0.0.1:") {
						http.Redirect(w, r, "http://localhost:"+port+"/sitemap.xml", http.StatusMovedPermanently)
						return
					}
					io.WriteString(w, urlset("http://localhost:"+port+"/w/1", "http://127.0.0.1:"+port+"/x"))
				},
				"/index.xml": func(w http.ResponseWriter, r *http.Request) {
					if strings.HasPrefix(r.Host, "127.0.0.1:") {
						http.Redirect(w, r, "http://localhost:"+port+"/index.xml", http.StatusMovedPermanently)
						return
					}
					io.WriteString(w, index("http://localhost:"+port+"/s.xml"))
				},
				"/s.xml": func(w http.ResponseWriter, r *http.Request) {
					io.WriteString(w, urlset("http://localhost:"+port+"/w/1", "http://127.0.0.1:"+port+"/x"))
				},
				"/old.xml": func(w http.ResponseWriter, r *http.Request) {
					http.Redirect(w, r, "/y/new.xml", http.StatusMovedPermanently)
				},
				"/y/new.xml": func(w http.ResponseWriter, r *http.Request) {
					io.WriteString(w, urlset("http://"+r.Host+"/x", "http://"+r.Host+"/y/2", "http://localhost:"+port+"/z"))
				},
			})
			port = s.URL[strings.LastIndexByte(s.URL, ':')+1:]
			res := walkSite(t, s.URL+tt.start, sitemap.WalkOptions{})
			var want []string
			for _, l := range tt.want {
				want = append(want, strings.ReplaceAll(l, "{port}", port))
			}
			if got := res.locs(); !slices.Equal(got, want) || res.err != nil {
				t.Errorf("locs %v, %v; want %v (%s)\nfindings %v", got, res.err, want, tt.reason, res.findings)
			}
			for i, v := range res.visits {
				if v.Parent != "" && (i == 0 || v.Parent != res.visits[0].Served) {
					t.Errorf("visit %+v: want its parent to be %s, which served the index", v, res.visits[0].Served)
				}
			}
			out := 0
			for _, f := range res.findings {
				if f.Code == sitemap.Outside {
					out++
					if v := res.visits[len(res.visits)-1]; f.Sitemap != v.Served {
						t.Errorf("finding %v: want it about %s, which served the document", f, v.Served)
					}
				}
			}
			if out != tt.out {
				t.Errorf("findings %v, want %d outside (%s)", res.findings, tt.out, tt.reason)
			}
		})
	}
}

// TestWalkCrossSubmissionAsWritten: a sitemap that is not redirected keeps
// the name robots.txt gives it, byte for byte, so that another host's
// robots.txt naming it as written (here with a non-ASCII path, which a
// client sends %-encoded) still cross-submits it.
func TestWalkCrossSubmissionAsWritten(t *testing.T) {
	var port string
	s := serve(t, map[string]http.HandlerFunc{
		"/robots.txt": func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprintf(w, "User-agent: *\nAllow: /\nSitemap: http://127.0.0.1:%s/sitemaps/ü.xml\n", port)
		},
		"/sitemaps/ü.xml": func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, urlset("http://localhost:"+port+"/x"))
		},
	})
	port = s.URL[strings.LastIndexByte(s.URL, ':')+1:]
	res := walkSite(t, s.URL, sitemap.WalkOptions{})
	want := []string{"http://localhost:" + port + "/x"}
	if got := res.locs(); !slices.Equal(got, want) {
		t.Errorf("locs %v, want %v (findings %v)", got, want, res.findings)
	}
	if len(res.entries) == 1 && res.entries[0].Sitemap != s.URL+"/sitemaps/ü.xml" {
		t.Errorf("entry's sitemap %q, want the URL as listed", res.entries[0].Sitemap)
	}
}

// TestWalkHostile walks servers that try to make a crawler loop, wait or
// fill its memory.
func TestWalkHostile(t *testing.T) {
	tests := []struct {
		name   string
		routes map[string]http.HandlerFunc
		o      sitemap.WalkOptions
		start  string // path; "" is the site
		locs   int
		codes  []sitemap.Code // each must be among the findings
		visits int
		reason string
	}{
		{
			name: "index listing itself",
			routes: map[string]http.HandlerFunc{
				"/robots.txt": text("text/plain", "Sitemap: /index.xml\n"),
				"/index.xml":  text(xmlType, index("{host}/index.xml", "{host}/a.xml")),
				"/a.xml":      text(xmlType, urlset("{host}/1", "{host}/2")),
			},
			locs: 2, codes: []sitemap.Code{sitemap.Loop}, visits: 2,
			reason: "ultimate-sitemap-parser's index loops: each sitemap is read once",
		},
		{
			name: "chain of ten indexes",
			routes: func() map[string]http.HandlerFunc {
				m := map[string]http.HandlerFunc{"/robots.txt": text("text/plain", "Sitemap: /i0.xml\n")}
				for i := range 10 {
					m[fmt.Sprintf("/i%d.xml", i)] = text(xmlType, index(fmt.Sprintf("{host}/i%d.xml", i+1)))
				}
				m["/i10.xml"] = text(xmlType, urlset("{host}/deep"))
				return m
			}(),
			locs: 0, codes: []sitemap.Code{sitemap.NestedIndex}, visits: 2,
			reason: "sitemaps.org: an index lists sitemaps, not indexes; one level is followed, the next reported",
		},
		{
			name: "redirect loop",
			routes: map[string]http.HandlerFunc{
				"/robots.txt": text("text/plain", "Sitemap: /r1.xml\n"),
				"/r1.xml":     func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/r2.xml", http.StatusFound) },
				"/r2.xml": func(w http.ResponseWriter, r *http.Request) {
					http.Redirect(w, r, "/r1.xml", http.StatusMovedPermanently)
				},
			},
			codes: []sitemap.Code{sitemap.Redirects}, visits: 1,
			reason: "a redirect loop ends at its first repeat",
		},
		{
			name: "too many redirects",
			routes: func() map[string]http.HandlerFunc {
				m := map[string]http.HandlerFunc{"/robots.txt": text("text/plain", "Sitemap: /c0.xml\n")}
				for i := range 20 {
					to := fmt.Sprintf("/c%d.xml", i+1)
					m[fmt.Sprintf("/c%d.xml", i)] = func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, to, http.StatusFound) }
				}
				return m
			}(),
			codes: []sitemap.Code{sitemap.Redirects}, visits: 1,
			reason: "redirects are capped (MaxRedirects)",
		},
		{
			name: "invalid XML in the middle",
			routes: map[string]http.HandlerFunc{
				"/robots.txt":  text("text/plain", "Sitemap: /sitemap.xml\n"),
				"/sitemap.xml": text(xmlType, strings.Replace(urlset("{host}/1", "{host}/2", "{host}/3", "{host}/4", "{host}/5"), "<url><loc>{host}/4</loc>", "<url><loc>{host}/4</lc>", 1)),
			},
			locs: 3, codes: []sitemap.Code{sitemap.InvalidXML}, visits: 1,
			reason: "past malformed XML the file stops; what was valid is kept",
		},
		{
			name: "entity expansion",
			routes: map[string]http.HandlerFunc{
				"/robots.txt": text("text/plain", "Sitemap: /sitemap.xml\n"),
				"/sitemap.xml": text(xmlType, `<?xml version="1.0"?>
<!DOCTYPE urlset [<!ENTITY a "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;"><!ENTITY e "&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;"><!ENTITY f "&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;"><!ENTITY g "&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;"><!ENTITY h "&g;&g;&g;&g;&g;&g;&g;&g;&g;&g;"><!ENTITY i "&h;&h;&h;&h;&h;&h;&h;&h;&h;&h;">]>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>{host}/&i;</loc></url><url><loc>{host}/ok</loc></url></urlset>`),
			},
			locs: 1, codes: []sitemap.Code{sitemap.Doctype, sitemap.Entity}, visits: 1,
			reason: "billion laughs: a DTD's entities are never expanded",
		},
		{
			name: "html instead of a sitemap",
			routes: map[string]http.HandlerFunc{
				"/robots.txt":  text("text/plain", "Sitemap: /sitemap.xml\n"),
				"/sitemap.xml": text("text/html", "<!doctype html><html><body><h1>Welcome</h1></body></html>"),
			},
			codes: []sitemap.Code{sitemap.HTML}, visits: 1,
			reason: "a soft 404 page is a finding",
		},
		{
			name: "disallowed sitemap",
			routes: map[string]http.HandlerFunc{
				"/robots.txt":          text("text/plain", "User-agent: Foobot\nDisallow: /private/\nSitemap: /private/sitemap.xml\n"),
				"/private/sitemap.xml": text(xmlType, urlset("{host}/private/1")),
			},
			codes: []sitemap.Code{sitemap.Disallowed}, visits: 1,
			reason: "a sitemap is fetched only where robots.txt of its host allows",
		},
		{
			name: "missing sitemap",
			routes: map[string]http.HandlerFunc{
				"/robots.txt": text("text/plain", "User-agent: *\nAllow: /\n"),
			},
			codes: []sitemap.Code{sitemap.NoSitemaps, sitemap.Status}, visits: 1,
			reason: "no Sitemap line: /sitemap.xml is tried, and a 404 reported",
		},
		{
			name: "too many sitemaps",
			routes: map[string]http.HandlerFunc{
				"/robots.txt": text("text/plain", "Sitemap: /index.xml\n"),
				"/index.xml":  text(xmlType, index("{host}/s1.xml", "{host}/s2.xml", "{host}/s3.xml", "{host}/s4.xml")),
				"/s1.xml":     text(xmlType, urlset("{host}/1")),
				"/s2.xml":     text(xmlType, urlset("{host}/2")),
			},
			o:    sitemap.WalkOptions{MaxSitemaps: 3},
			locs: 2, codes: []sitemap.Code{sitemap.TooManySitemaps}, visits: 3,
			reason: "sitemaps per walk are capped",
		},
		{
			name: "a sitemap given",
			routes: map[string]http.HandlerFunc{
				"/robots.txt":       text("text/plain", "User-agent: *\nAllow: /\n"),
				"/shop/sitemap.xml": text(xmlType, urlset("{host}/shop/1", "{host}/blog/2")),
			},
			start: "/shop/sitemap.xml",
			locs:  1, codes: []sitemap.Code{sitemap.Outside}, visits: 1,
			reason: "not named in robots.txt: the sitemap's directory is its scope",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := serve(t, tt.routes)
			res := walkSite(t, s.URL+tt.start, tt.o)
			if res.err != nil {
				t.Fatal(res.err)
			}
			if len(res.entries) != tt.locs {
				t.Errorf("%d entries %v, want %d (%s)", len(res.entries), res.locs(), tt.locs, tt.reason)
			}
			for _, c := range tt.codes {
				if !res.has(c) {
					t.Errorf("no %s finding in %v (%s)", c, res.findings, tt.reason)
				}
			}
			if len(res.visits) != tt.visits {
				t.Errorf("%d sitemaps read, want %d: %+v (%s)", len(res.visits), tt.visits, res.visits, tt.reason)
			}
		})
	}
}

// TestWalkSlowDrip: a server that sends one byte at a time, forever, is
// cut off at the sitemap's Timeout, and the entries read before are kept.
func TestWalkSlowDrip(t *testing.T) {
	s := serve(t, map[string]http.HandlerFunc{
		"/robots.txt": text("text/plain", "Sitemap: /sitemap.xml\n"),
		"/sitemap.xml": func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, strings.TrimSuffix(urlset("http://"+r.Host+"/1"), "</urlset>\n"))
			w.(http.Flusher).Flush()
			for {
				select {
				case <-r.Context().Done():
					return
				case <-time.After(20 * time.Millisecond):
				}
				if _, err := io.WriteString(w, " "); err != nil {
					return
				}
				w.(http.Flusher).Flush()
			}
		},
	})
	start := time.Now()
	res := walkSite(t, s.URL, sitemap.WalkOptions{Timeout: 500 * time.Millisecond})
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("the walk took %v", took)
	}
	if len(res.entries) != 1 || !res.has(sitemap.Unreachable) || res.err != nil {
		t.Errorf("entries %v, findings %v, err %v; want 1 entry and an unreachable finding", res.locs(), res.findings, res.err)
	}
}

// TestWalkYieldsAsRead: a sitemap whose first two entries (fewer than 512
// bytes) come at once and whose rest drips a byte every 100 ms gives the
// two at once, not at its Timeout.
func TestWalkYieldsAsRead(t *testing.T) {
	s := serve(t, map[string]http.HandlerFunc{
		"/robots.txt": text("text/plain", "Sitemap: /sitemap.xml\n"),
		"/sitemap.xml": func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, strings.TrimSuffix(urlset("http://"+r.Host+"/1", "http://"+r.Host+"/2"), "</urlset>\n"))
			w.(http.Flusher).Flush()
			for {
				select {
				case <-r.Context().Done():
					return
				case <-time.After(100 * time.Millisecond):
				}
				if _, err := io.WriteString(w, "\n"); err != nil {
					return
				}
				w.(http.Flusher).Flush()
			}
		},
	})
	o := sitemap.WalkOptions{Timeout: 10 * time.Second, Cache: fetch.NewCache(&fetch.Options{UserAgent: "Foobot/1.0"})}
	start := time.Now()
	var got []string
	for e, err := range sitemap.Walk(context.Background(), s.URL, &o) {
		if err != nil {
			t.Fatal(err)
		}
		if got = append(got, e.Loc); len(got) == 2 {
			break
		}
	}
	if took := time.Since(start); took > 2*time.Second || len(got) != 2 {
		t.Errorf("%v after %v; want 2 entries at once", got, took)
	}
}

// TestWalkMemory walks a gzip bomb (1 GiB of zeros in about 1 MB) and a
// 200 MB sitemap that the server writes as it goes, and asserts the peak
// heap of the process, server included.
func TestWalkMemory(t *testing.T) {
	if why := sitemaptest.Heavy(); why != "" {
		t.Skip(why)
	}
	var prefix bytes.Buffer
	prefix.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	for i := range 10 {
		fmt.Fprintf(&prefix, "<url><loc>{host}/page-%d</loc></url>\n", i)
	}
	var written atomic.Int64
	s := serve(t, map[string]http.HandlerFunc{
		"/robots.txt": text("text/plain", "Sitemap: /bomb.xml.gz\nSitemap: /huge.xml\n"),
		"/bomb.xml.gz": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/gzip")
			w.Write(sitemaptest.GzipBomb(bytes.ReplaceAll(prefix.Bytes(), []byte("{host}"), []byte("http://"+r.Host)), 1<<30))
		},
		"/huge.xml": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", xmlType)
			cw := &countingWriter{w: w, n: &written}
			// 200 MB: 50,000 entries of 4 KB, more than MaxBytes allows.
			sitemaptest.URLSet(cw, "http://"+r.Host+"/", 50000, 4000)
		},
	})
	var res walkResult
	peak := sitemaptest.PeakHeap(func() { res = walkSite(t, s.URL, sitemap.WalkOptions{}) })
	t.Logf("gzip bomb and 200 MB sitemap: peak heap %.1f MiB (bound %d MiB); the server wrote %d MB of the 200 MB",
		float64(peak)/(1<<20), sitemaptest.HeapLimit>>20, written.Load()>>20)
	if peak > sitemaptest.HeapLimit && !sitemaptest.Race {
		t.Errorf("peak heap %d bytes, over %d", peak, sitemaptest.HeapLimit)
	}
	tooLarge := 0
	for _, f := range res.findings {
		if f.Code == sitemap.TooLarge {
			tooLarge++
		}
	}
	if tooLarge != 2 || res.err != nil {
		t.Errorf("findings %v, err %v; want too-large for both files", res.findings, res.err)
	}
	if n := len(res.entries); n < 10+12000 || n > 10+13000 {
		t.Errorf("%d entries: want the bomb's 10 and the ~12,500 entries of the huge sitemap's first 50 MB", n)
	}
}

// countingWriter counts what it writes.
type countingWriter struct {
	w io.Writer
	n *atomic.Int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n.Add(int64(n))
	return n, err
}

// TestWalkNamedByHostCase: a site given with its host in upper case still
// lets the sitemaps its robots.txt names list the site's URLs (hosts
// compare without case, RFC 3986 §3.2.2).
func TestWalkNamedByHostCase(t *testing.T) {
	s := serve(t, map[string]http.HandlerFunc{
		"/robots.txt":       text("text/plain", "Sitemap: /maps/sitemap.xml\n"),
		"/maps/sitemap.xml": text(xmlType, urlset("{host}/top", "{host}/maps/x")),
	})
	upper := strings.Replace(s.URL, "127.0.0.1", "LOCALHOST", 1)
	res := walkSite(t, upper+"/", sitemap.WalkOptions{})
	if len(res.entries) != 2 || len(res.findings) != 0 {
		t.Errorf("entries %v, findings %v: want both, the robots.txt names the sitemap", res.locs(), res.findings)
	}
}

// TestWalkCrossHostsCapped: a sitemap listing pages on many hosts has the
// robots.txt of at most MaxCrossHosts of them read; the rest are outside.
func TestWalkCrossHostsCapped(t *testing.T) {
	sites := fetchtest.NewSites(nil, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var b strings.Builder
		b.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
		for i := range 50 {
			fmt.Fprintf(&b, "<url><loc>https://host%d.example/page</loc></url>", i)
		}
		b.WriteString("</urlset>")
		w.Header().Set("Content-Type", "application/xml")
		io.WriteString(w, b.String())
	}))
	sites.Set("maps.example", fetchtest.Answer{Body: "User-agent: *\nAllow: /\n"})
	for i := range 50 {
		sites.Set(fmt.Sprintf("host%d.example", i), fetchtest.Answer{Body: "User-agent: *\nAllow: /\nSitemap: https://maps.example/sitemap.xml\n"})
	}
	cache := fetch.NewCache(&fetch.Options{Client: sites.Client(), UserAgent: "Foobot/1.0"})
	res := walkSite(t, "https://maps.example/sitemap.xml", sitemap.WalkOptions{
		Cache: cache, Transport: fetch.NewTransport(sites, cache), MaxCrossHosts: 5})
	asked := 0
	for i := range 50 {
		asked += sites.Fetches(fmt.Sprintf("host%d.example", i))
	}
	// The sitemap's own host counts as one of the five hosts asked.
	if len(res.entries) != 4 || asked != 4 || !res.has(sitemap.Outside) {
		t.Errorf("%d entries, %d other hosts' robots.txt fetched; want 4 and 4, and the rest outside", len(res.entries), asked)
	}
}
