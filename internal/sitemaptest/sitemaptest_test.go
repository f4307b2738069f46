package sitemaptest

import (
	"bytes"
	"compress/gzip"
	"io"
	"runtime"
	"testing"
)

// TestPeakHeapSees checks that PeakHeap sees a large allocation, so that
// a bound asserted with it can fail.
func TestPeakHeapSees(t *testing.T) {
	const size = 32 << 20
	peak := PeakHeap(func() {
		b := make([]byte, size)
		for i := range b {
			b[i] = byte(i)
		}
		runtime.KeepAlive(b)
	})
	if peak < size {
		t.Errorf("PeakHeap = %d, want at least %d", peak, size)
	}
}

// TestPeakAbove checks that PeakAbove counts what f takes and not what
// was in use before it.
func TestPeakAbove(t *testing.T) {
	const size = 32 << 20
	held := make([]byte, size)
	for i := range held {
		held[i] = byte(i)
	}
	took := PeakAbove(func() {
		b := make([]byte, size/2)
		for i := range b {
			b[i] = byte(i)
		}
		runtime.KeepAlive(b)
	})
	runtime.KeepAlive(held)
	if took < size/2 || took >= size {
		t.Errorf("PeakAbove = %d, want at least %d (what f took) and under %d (what was held before)", took, size/2, size)
	}
}

// TestGzipBomb checks that the bomb is a valid gzip stream, CRC and size
// included, of the prefix and the zeros.
func TestGzipBomb(t *testing.T) {
	prefix := []byte("<urlset>")
	bomb := GzipBomb(prefix, 8<<20)
	zr, err := gzip.NewReader(bytes.NewReader(bomb))
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("reading the bomb: %v", err)
	}
	if len(got) != len(prefix)+8<<20 || !bytes.HasPrefix(got, prefix) || bytes.IndexFunc(got[len(prefix):], func(r rune) bool { return r != 0 }) >= 0 {
		t.Errorf("the bomb decompresses to %d bytes, want the prefix and %d zeros", len(got), 8<<20)
	}
	if len(bomb) > 64<<10 {
		t.Errorf("the bomb is %d bytes compressed", len(bomb))
	}
}
