package sitemap_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/robotstxt-go/robotstxt/sitemap"
)

// TestReaderYieldsAsRead serves a file whose first entries come at once and
// whose rest drips a byte every 100 ms, over a real socket: the entries
// already sent are yielded at once, not when 512 bytes (or the deadline)
// have come. Package doc: "[Reader.All] yields its entries as they are
// read".
func TestReaderYieldsAsRead(t *testing.T) {
	tests := []struct {
		name   string
		first  string   // sent at once
		locs   []string // the entries it holds
		reason string
	}{
		{"xml", ns + "\n<url><loc>https://example.com/a</loc></url>\n<url><loc>https://example.com/b</loc></url>\n",
			[]string{"https://example.com/a", "https://example.com/b"},
			"two complete <url> elements in fewer than 512 bytes"},
		{"text, LF", "https://example.com/a\nhttps://example.com/b\n",
			[]string{"https://example.com/a", "https://example.com/b"},
			"sitemaps.org Text file: a line is complete at its end"},
		{"text, CR", "https://example.com/a\rhttps://example.com/b\r",
			[]string{"https://example.com/a", "https://example.com/b"},
			"a CR ends a line without waiting to see whether LF follows"},
		{"xml with BOM and comment", "\xEF\xBB\xBF<!---->" + ns + "<url><loc>https://example.com/a</loc></url>",
			[]string{"https://example.com/a"},
			"the byte-order mark and a short comment need no more bytes than they have"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if len(tt.first) >= 512 {
				t.Fatalf("%d bytes sent at once: the test is of fewer than 512", len(tt.first))
			}
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				io.WriteString(w, tt.first)
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
			}))
			defer srv.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/sitemap.xml", nil)
			start := time.Now()
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			r := sitemap.NewReader(resp.Body, &sitemap.Options{URL: smURL})
			var got []string
			for e, err := range r.All() {
				if err != nil {
					t.Fatalf("after %v and %q: %v (%s)", time.Since(start), got, err, tt.reason)
				}
				got = append(got, e.Loc)
				if len(got) == len(tt.locs) {
					break
				}
			}
			if took := time.Since(start); took > 2*time.Second || strings.Join(got, " ") != strings.Join(tt.locs, " ") {
				t.Errorf("%q after %v; want %q at once (%s)", got, took, tt.locs, tt.reason)
			}
		})
	}
}
