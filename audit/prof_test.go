package audit

import (
	"context"
	"fmt"
	"io"
	"os"
	"testing"
)

func BenchmarkRunCorpus(b *testing.B) {
	p := os.Getenv("ROBOTSAUDIT_CORPUS_WARC")
	if p == "" {
		b.Skip("set ROBOTSAUDIT_CORPUS_WARC")
	}
	st, _ := os.Stat(p)
	for _, w := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d", w), func(b *testing.B) {
			b.SetBytes(st.Size())
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Run(context.Background(), Config{Inputs: []string{p}, Workers: w, NoLint: os.Getenv("NOLINT") != "", Paths: benchPaths, TempDir: b.TempDir()}, io.Discard); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
