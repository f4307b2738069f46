package audit

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// FuzzInputs feeds arbitrary bytes to the WARC and JSON Lines readers: they
// report problems and go on; they never panic or hang.
func FuzzInputs(f *testing.F) {
	rec := warcRecord(f, capture{url: "https://a.example/robots.txt", status: 200, body: "User-agent: *\nDisallow: /x\n"})
	f.Add(rec, false)
	f.Add(gzipMember(f, rec), true)
	f.Add([]byte(`{"url":"https://a.example/robots.txt","status":301,"location":"/r"}`+"\n"), false)
	f.Fuzz(func(t *testing.T, data []byte, gz bool) {
		dir := t.TempDir()
		for _, name := range []string{"in.warc", "in.jsonl"} {
			if gz && name == "in.warc" {
				name += ".gz"
			}
			p := filepath.Join(dir, name)
			if err := os.WriteFile(p, data, 0o644); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			err := scanShard(ctx, p, nil, nil, true, func(rs *resolved) { rs.read(true) }, func(Problem) {})
			cancel()
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
		}
	})
}
