package fetch

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/robotstxt-go/robotstxt"
)

// TestCacheDecideUsage: the Cache's answer carries the usage preferences
// of the rules it answered from, for the agent and URL asked, from a real
// server.
func TestCacheDecideUsage(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		w.Write([]byte("User-agent: *\nDisallow: /private/\nContent-Usage: train-ai=n, search=y\nContent-Usage: /open/ train-ai=y\nContent-Signal: ai-input=no\n"))
	}))
	defer srv.Close()
	c := NewCache(&Options{Client: srv.Client()})
	for _, tt := range []struct {
		path   string
		train  robotstxt.Pref
		line   int
		signal robotstxt.Pref
	}{
		{"/a", robotstxt.PrefNo, 3, robotstxt.PrefNo},
		{"/open/x", robotstxt.PrefYes, 4, robotstxt.PrefNo},
		{"/private/x", robotstxt.PrefNotCrawlable, 0, robotstxt.PrefNotCrawlable},
	} {
		d, err := c.For("Foobot").Decide(context.Background(), srv.URL+tt.path)
		if err != nil {
			t.Fatal(err)
		}
		got := d.Usage().ContentUsage[robotstxt.TrainAI]
		if got.Pref != tt.train || got.Line != tt.line || d.Usage().Signal(robotstxt.SignalAIInput) != tt.signal {
			t.Errorf("%s: train-ai %+v, ai-input %v; want %v on line %d, %v", tt.path, got, d.Usage().Signal(robotstxt.SignalAIInput), tt.train, tt.line, tt.signal)
		}
		if d.Usage().Decision != d.Decision {
			t.Errorf("%s: the usage's decision %+v is not the answer's %+v", tt.path, d.Usage().Decision, d.Decision)
		}
	}
}
