package pagerules

import (
	"net/http"
	"testing"
)

// commonValues are the X-Robots-Tag values crawlers meet most, and a few
// more shapes that must not allocate either.
var commonValues = []struct{ name, value string }{
	{"noindex", "noindex"},
	{"noindex,nofollow", "noindex, nofollow"},
	{"none", "none"},
	{"index,follow", "index, follow"},
	{"noindex,follow", "noindex, follow"},
	{"agent", "googlebot: noindex, nofollow"},
	{"limits", "max-snippet:-1, max-image-preview:large, max-video-preview:-1"},
	{"unavailable_after", "unavailable_after: 25 Jun 2010 15:00:00 PST"},
}

// Reading the header values crawlers meet every day allocates nothing: a
// crawler reads one per page.
func TestAddHeaderNoAllocs(t *testing.T) {
	for _, v := range commonValues {
		h := http.Header{"X-Robots-Tag": {v.value}}
		var r Rules
		n := testing.AllocsPerRun(1000, func() {
			r = Rules{}
			r.AddHeader(h, "Googlebot")
		})
		if n != 0 {
			t.Errorf("AddHeader(%q): %v allocs, want 0", v.value, n)
		}
		if len(r.Unknown) != 0 {
			t.Errorf("AddHeader(%q): unknown rules %v", v.value, r.Unknown)
		}
	}
}

var sinkRules Rules

// BenchmarkAddHeader reads one X-Robots-Tag value, for Googlebot.
//
//	go test ./pagerules -run '^$' -bench AddHeader -benchmem
func BenchmarkAddHeader(b *testing.B) {
	for _, v := range commonValues {
		h := http.Header{"X-Robots-Tag": {v.value}}
		b.Run(v.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(v.value)))
			for b.Loop() {
				sinkRules = Rules{}
				sinkRules.AddHeader(h, "Googlebot")
			}
		})
	}
}
