// Package sitemaptest makes the large and hostile sitemaps that the tests
// and benchmarks of package sitemap and package fetch read, on the fly, so
// that none of them is stored, and measures the peak heap of reading them.
package sitemaptest

import (
	"bufio"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"runtime"
	"runtime/metrics"
	"sync/atomic"
	"time"
)

// PeakHeap runs f and returns the largest heap in use (live and not yet
// collected objects, "/memory/classes/heap/objects:bytes") seen while it
// ran, sampled every millisecond, after a collection before it starts.
func PeakHeap(f func()) uint64 {
	runtime.GC()
	sample := heapObjects
	var peak atomic.Uint64
	peak.Store(sample())
	done, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			if v := sample(); v > peak.Load() {
				peak.Store(v)
			}
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	f()
	close(done)
	<-stopped
	if v := sample(); v > peak.Load() {
		peak.Store(v)
	}
	return peak.Load()
}

// PeakAbove runs f and returns its PeakHeap less the heap in use, after a
// collection, before f starts: the most that f itself took.
func PeakAbove(f func()) uint64 {
	runtime.GC()
	before := heapObjects()
	peak := PeakHeap(f)
	return peak - min(peak, before)
}

// heapObjects is the heap in use: live objects and those not yet collected.
func heapObjects() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// GzipBomb returns a gzip stream of prefix followed by zeros zero bytes
// (rounded up to MiB), made in a fraction of a second: the deflate
// block that stands for a MiB of zeros after zeros is repeated rather than
// computed again. 1 GiB of zeros is about 1 MB.
func GzipBomb(prefix []byte, zeros int64) []byte {
	const mib = 1 << 20
	var out bytes.Buffer
	out.Write([]byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff}) // RFC 1952 header: deflate, no name, unknown OS
	fw, _ := flate.NewWriter(&out, flate.BestCompression)
	zero := make([]byte, mib)
	fw.Write(prefix)
	fw.Write(zero)
	fw.Flush()
	n := max((zeros+mib-1)/mib, 2)
	start := out.Len()
	fw.Write(zero)
	fw.Flush() // a byte-aligned block that only copies from the zeros before it
	block := append([]byte(nil), out.Bytes()[start:]...)
	for i := int64(2); i < n; i++ {
		out.Write(block)
	}
	fw.Close() // the final, empty block
	crc := crc32.ChecksumIEEE(prefix)
	for i := int64(0); i < n; i++ {
		crc = crc32.Update(crc, crc32.IEEETable, zero)
	}
	var trailer [8]byte
	binary.LittleEndian.PutUint32(trailer[:4], crc)
	binary.LittleEndian.PutUint32(trailer[4:], uint32(int64(len(prefix))+n*mib))
	out.Write(trailer[:])
	return out.Bytes()
}

// URLSet writes a <urlset> of n pages under base ("https://example.com/")
// to w, each with a lastmod, a changefreq and a priority, and pad bytes of
// an image caption, as it goes: nothing of it is held. It returns the
// first write error, such as a reader that stopped reading.
func URLSet(w io.Writer, base string, n, pad int) error {
	bw := bufio.NewWriterSize(w, 32<<10)
	bw.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" +
		`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">` + "\n")
	padding := bytes.Repeat([]byte("x"), pad)
	for i := 0; i < n; i++ {
		fmt.Fprintf(bw, "<url><loc>%sproducts/item-%d?color=blue&amp;size=%d</loc><lastmod>2026-11-%02dT10:00:00+00:00</lastmod><changefreq>weekly</changefreq><priority>0.%d</priority>",
			base, i, i%50, 1+i%28, i%10)
		if pad > 0 {
			bw.WriteString("<image:image><image:loc>")
			bw.WriteString(base)
			bw.WriteString("img.png</image:loc><image:caption>")
			bw.Write(padding)
			bw.WriteString("</image:caption></image:image>")
		}
		if _, err := bw.WriteString("</url>\n"); err != nil {
			return err
		}
	}
	bw.WriteString("</urlset>\n")
	return bw.Flush()
}

// Documents returns the three documents the benchmarks read: a sitemap of
// 50,000 URLs (about 9 MB), the same gzipped, and an index of 50,000
// sitemaps (about 5 MB).
func Documents() (plain, gzipped, index []byte) {
	var p, g, i bytes.Buffer
	URLSet(&p, "https://example.com/", 50000, 0)
	Index(&i, "https://example.com/", 50000)
	w := gzip.NewWriter(&g)
	w.Write(p.Bytes())
	w.Close()
	return p.Bytes(), g.Bytes(), i.Bytes()
}

// Index writes a <sitemapindex> of n sitemaps under base to w.
func Index(w io.Writer, base string, n int) error {
	bw := bufio.NewWriterSize(w, 32<<10)
	bw.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" +
		`<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	for i := 0; i < n; i++ {
		if _, err := fmt.Fprintf(bw, "<sitemap><loc>%ssitemaps/part-%d.xml</loc><lastmod>2026-11-01</lastmod></sitemap>\n", base, i); err != nil {
			return err
		}
	}
	bw.WriteString("</sitemapindex>\n")
	return bw.Flush()
}

// HeapLimit is the most heap that reading any sitemap may take, however
// large or hostile: the bound the tests assert.
const HeapLimit = 16 << 20

// Heavy reports why a test that reads tens of megabytes should not run,
// or "" when it should: under the race detector it runs only with
// ROBOTSTXT_LONG=1.
func Heavy() string {
	if Race && os.Getenv("ROBOTSTXT_LONG") == "" {
		return "reads 50 MB or more: under the race detector only with ROBOTSTXT_LONG=1"
	}
	return ""
}
