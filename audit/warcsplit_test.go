package audit

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/klauspost/compress/gzip"
)

// readEvents reads a WARC file with the given workers, cut into segments
// of split bytes, and returns what it emitted and reported, in order.
func readEvents(t testing.TB, path string, workers int, split int64) []string {
	t.Helper()
	in, err := openInput(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer in.close()
	var out []string
	err = readWARC(context.Background(), in, reading{workers: workers, split: split}, nil, func(c *Capture) {
		out = append(out, fmt.Sprintf("capture %d+%d %s %d %q %v %q", c.Offset, c.InMember, c.URL, c.Status, c.Location, c.Oversize, c.Body))
	}, func(p Problem) {
		out = append(out, fmt.Sprintf("problem %d+%d %s %v %s", p.Offset, p.InMember, p.Kind, p.Skipped, p.Detail))
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// storedMember is a gzip member whose deflate data is the record as it
// is (no compression): bytes of the record that look like the start of a
// member are then inside the member.
func storedMember(t testing.TB, rec []byte) []byte {
	var b bytes.Buffer
	z, err := gzip.NewWriterLevel(&b, gzip.NoCompression)
	if err != nil {
		t.Fatal(err)
	}
	z.Write(rec)
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestSegmentsReadAsOne holds the seam between cutting a .gz WARC into
// segments read side by side and reading it member after member: for
// every way to cut, the same captures and problems come out in the same
// order, also where a cut falls on bytes that only look like a member's
// start, inside a broken member, or past a worker's body budget.
func TestSegmentsReadAsOne(t *testing.T) {
	good := func(i int) []byte {
		return warcRecord(t, capture{url: fmt.Sprintf("https://g%d.example/robots.txt", i), status: 200, body: fmt.Sprintf("User-agent: *\nDisallow: /x%d\n", i)})
	}
	gz := func(i int) []byte { return gzipMember(t, good(i)) }
	// The body holds a member's first bytes; stored, they are in the file.
	lookalike := storedMember(t, warcRecord(t, capture{url: "https://l.example/robots.txt", status: 200, body: "User-agent: *\nDisallow: /\x1f\x8b\x08\x00\x1f\x8b\x08\n"}))
	big := strings.Repeat("Disallow: /a/long/compressible/path\n", maxBody/36+100) // over maxBody
	bigs := func(n int) []byte {
		var b []byte
		for i := range n {
			b = append(b, gzipMember(t, warcRecord(t, capture{url: fmt.Sprintf("https://b%d.example/robots.txt", i), status: 200, body: big}))...)
		}
		return b
	}
	truncated := gz(2)
	truncated = truncated[:len(truncated)/2]
	inputs := map[string][]byte{
		"good":                 cat(gz(1), gz(2), gz(3), gz(4)),
		"lookalike":            cat(gz(1), lookalike, gz(2), lookalike, lookalike, gz(3)),
		"junk first":           cat([]byte("junk\x1f\x8b"), gz(1), gz(2)),
		"junk between":         cat(gz(1), []byte("\x00\x01junk\x1f"), gz(2), []byte("\x1f\x8b\x08junk"), gz(3)),
		"truncated member":     cat(gz(1), truncated, gz(3), gz(4), gz(5)),
		"truncated at the end": cat(gz(1), gz(2)[:len(gz(2))-9]),
		"length too long":      cat(gz(1), gzipMember(t, longLength(good(2))), gz(3)),
		"length too short":     cat(gz(1), gzipMember(t, shortLength(t, good(2))), gz(3)),
		"two records a member": cat(gz(1), gzipMember(t, cat(good(2), good(3))), gz(4)),
		"not a record":         cat(gz(1), gzipMember(t, []byte("hello\n")), gz(2)),
		"over the budget":      cat(gz(1), bigs(segmentBodies/maxBody+3), gz(2)),
		"one stream":           gzipMember(t, cat(good(1), good(2), good(3))),
	}
	dir := t.TempDir()
	for name, data := range inputs {
		t.Run(name, func(t *testing.T) {
			p := filepath.Join(dir, strings.ReplaceAll(name, " ", "-")+".warc.gz")
			if err := os.WriteFile(p, data, 0o644); err != nil {
				t.Fatal(err)
			}
			want := readEvents(t, p, 1, segmentSize)
			if len(want) == 0 {
				t.Fatal("nothing read")
			}
			for _, split := range []int64{1, 3, 17, 100, 700, 5000, segmentSize} {
				for _, workers := range []int{2, 3} {
					got := readEvents(t, p, workers, split)
					if d := cmp.Diff(want, got); d != "" {
						t.Errorf("%d workers, segments of %d bytes (-one reader +segments):\n%s", workers, split, d)
					}
				}
			}
		})
	}
}
