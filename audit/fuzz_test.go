package audit

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// FuzzInputs feeds arbitrary bytes to the WARC and JSON Lines readers: they
// report problems and go on; they never panic or hang; a .gz WARC read by
// two workers in segments gives what one reader gives.
func FuzzInputs(f *testing.F) {
	rec := warcRecord(f, capture{url: "https://a.example/robots.txt", status: 200, body: "User-agent: *\nDisallow: /x\n"})
	f.Add(rec, false)
	f.Add(gzipMember(f, rec), true)
	f.Add(cat(gzipMember(f, rec), storedMember(f, []byte("\x1f\x8b\x08")), gzipMember(f, rec)[:20], gzipMember(f, rec)), true)
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
			err := scanShard(ctx, p, nil, reading{workers: 1}, nil, true, func(rs *resolved) { rs.read(true) }, func(Problem) {})
			cancel()
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if gz && name == "in.warc.gz" {
				// Read in segments side by side, the same as at once.
				one, split := readEvents(t, p, 1, segmentSize), readEvents(t, p, 2, 5)
				if d := cmp.Diff(one, split); d != "" {
					t.Fatalf("segments of 5 bytes differ from one reader (-one +segments):\n%s", d)
				}
			}
		}
	})
}
