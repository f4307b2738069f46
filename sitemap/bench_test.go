package sitemap_test

import (
	"bytes"
	"testing"

	"github.com/robotstxt-go/robotstxt/internal/sitemaptest"
	"github.com/robotstxt-go/robotstxt/sitemap"
)

// BenchmarkReader reads a 50,000-URL sitemap, plain and gzipped, and a
// 50,000-entry index. bench/ compares it with a whole-document reader.
func BenchmarkReader(b *testing.B) {
	plain, gz, idx := sitemaptest.Documents()
	for _, doc := range []struct {
		name string
		data []byte
	}{{"urlset", plain}, {"urlset.gz", gz}, {"index", idx}} {
		b.Run(doc.name, func(b *testing.B) {
			b.SetBytes(int64(len(doc.data)))
			b.ReportAllocs()
			for b.Loop() {
				r := sitemap.NewReader(bytes.NewReader(doc.data), &sitemap.Options{URL: "https://example.com/sitemap.xml"})
				n := 0
				for range r.All() {
					n++
				}
				if n != sitemap.MaxURLs {
					b.Fatalf("%d entries", n)
				}
			}
			b.ReportMetric(float64(sitemap.MaxURLs*b.N)/b.Elapsed().Seconds(), "entries/s")
		})
	}
}
