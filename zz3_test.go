package robotstxt

import (
	"os"
	"testing"
)

func BenchmarkZZOracle(b *testing.B) {
	for _, n := range []string{"docs.oracle.com.txt", "www.runescape.com.txt", "www.smugmug.com.txt", "www.fxnetworks.com.txt"} {
		data, _ := os.ReadFile("/work/shared/corpus/real/" + n)
		b.Run(n, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for i := 0; i < b.N; i++ {
				Parse(data)
			}
		})
	}
}
