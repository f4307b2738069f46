package audit

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/klauspost/compress/gzip"
)

// resyncRecords are 51 good records, one an origin.
func resyncRecords(t *testing.T) [][]byte {
	var recs [][]byte
	for i := range 51 {
		recs = append(recs, warcRecord(t, capture{url: fmt.Sprintf("https://g%d.example/robots.txt", i), status: 200, body: "User-agent: *\nDisallow: /x\n"}))
	}
	return recs
}

// negativeLength makes a record's Content-Length negative.
func negativeLength(rec []byte) []byte {
	return bytes.Replace(rec, []byte("Content-Length: "), []byte("Content-Length: -"), 1)
}

// oneStream gzips records as one stream and returns it with the records'
// offsets in it.
func oneStream(t *testing.T, recs [][]byte) ([]byte, []int64) {
	var b bytes.Buffer
	z := gzip.NewWriter(&b)
	var offs []int64
	var n int64
	for _, r := range recs {
		offs = append(offs, n)
		z.Write(r)
		n += int64(len(r))
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes(), offs
}

// TestResync holds the WARC reader to losing only what is broken: after a
// record whose length is wrong it finds the next record (a line that
// starts "WARC/" and a digit), after a gzip member that ends early the
// next member, and it reports each loss where it is (WARC 1.1 §4: a
// record is its header, a block of Content-Length bytes and two CRLFs).
func TestResync(t *testing.T) {
	dir := t.TempDir()
	recs := resyncRecords(t)
	with := func(i int, bad []byte) [][]byte {
		rs := append([][]byte(nil), recs...)
		rs[i] = bad
		return rs
	}
	plainOffs := func(rs [][]byte) []int64 {
		var offs []int64
		var n int64
		for _, r := range rs {
			offs = append(offs, n)
			n += int64(len(r))
		}
		return offs
	}
	type place struct{ off, in int64 }
	cases := []struct {
		name    string
		ext     string
		build   func() ([]byte, []place) // the input, where its losses are
		kind    string
		answers int64
	}{
		{"negative Content-Length", ".warc", func() ([]byte, []place) {
			rs := with(10, negativeLength(recs[10]))
			return bytes.Join(rs, nil), []place{{plainOffs(rs)[10], 0}}
		}, ProblemLength, 50},
		{"negative Content-Length of the last record", ".warc", func() ([]byte, []place) {
			rs := with(50, negativeLength(recs[50]))
			return bytes.Join(rs, nil), []place{{plainOffs(rs)[50], 0}}
		}, ProblemLength, 50},
		{"Content-Length too long", ".warc", func() ([]byte, []place) {
			rs := with(10, longLength(recs[10]))
			return bytes.Join(rs, nil), []place{{plainOffs(rs)[10], 0}}
		}, ProblemLength, 50},
		{"Content-Length not a number", ".warc", func() ([]byte, []place) {
			rs := with(10, bytes.Replace(recs[10], []byte("Content-Length: "), []byte("Content-Length: x"), 1))
			return bytes.Join(rs, nil), []place{{plainOffs(rs)[10], 0}}
		}, ProblemLength, 50},
		{"garbage between records", ".warc", func() ([]byte, []place) {
			rs := with(10, []byte("garbage\r\nWARC/x\r\n\r\n"))
			rs = append(rs[:11], recs[10:]...)
			return bytes.Join(rs, nil), []place{{plainOffs(rs)[10], 0}}
		}, ProblemRecord, 51},
		{"negative Content-Length in one stream", ".warc.gz", func() ([]byte, []place) {
			b, offs := oneStream(t, with(10, negativeLength(recs[10])))
			return b, []place{{0, offs[10]}}
		}, ProblemLength, 50},
		{"Content-Length too long in one stream", ".warc.gz", func() ([]byte, []place) {
			b, offs := oneStream(t, with(10, longLength(recs[10])))
			return b, []place{{0, offs[10]}}
		}, ProblemLength, 50},
		{"negative Content-Length of a member", ".warc.gz", func() ([]byte, []place) {
			var ms [][]byte
			for _, r := range with(10, negativeLength(recs[10])) {
				ms = append(ms, gzipMember(t, r))
			}
			return bytes.Join(ms, nil), []place{{plainOffs(ms)[10], 0}}
		}, ProblemLength, 50},
		{"truncated member", ".warc.gz", func() ([]byte, []place) {
			var ms [][]byte
			for _, r := range recs {
				ms = append(ms, gzipMember(t, r))
			}
			ms[10] = ms[10][:len(ms[10])/2]
			return bytes.Join(ms, nil), []place{{plainOffs(ms)[10], 0}}
		}, ProblemGzip, 50},
		{"truncated final member", ".warc.gz", func() ([]byte, []place) {
			var ms [][]byte
			for _, r := range recs {
				ms = append(ms, gzipMember(t, r))
			}
			ms[50] = ms[50][:len(ms[50])-9]
			return bytes.Join(ms, nil), []place{{plainOffs(ms)[50], 0}}
		}, ProblemGzip, 50},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			data, losses := c.build()
			p := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "-")+c.ext)
			if err := os.WriteFile(p, data, 0o644); err != nil {
				t.Fatal(err)
			}
			for _, workers := range []int{1, 2} {
				_, s := run(t, Config{Inputs: []string{p}, Format: FormatCSV, AllCaptures: true, Workers: workers, split: 300})
				if s.Captures != c.answers {
					t.Errorf("workers %d: %d of %d answered, want %d (problems %v)", workers, s.Captures, len(recs), c.answers, s.Problems)
				}
				if len(s.Problems) != len(losses) {
					t.Errorf("workers %d: problems %v, want %d", workers, s.Problems, len(losses))
				}
				for _, l := range losses {
					found := false
					for _, pr := range s.Problems {
						found = found || pr.Kind == c.kind && pr.Skipped && pr.Offset == l.off && pr.InMember == l.in
					}
					if !found {
						t.Errorf("workers %d: no %s problem at %d+%d: %v", workers, c.kind, l.off, l.in, s.Problems)
					}
				}
			}
		})
	}
}

// TestGarbageInput holds the reader to a clear, bounded outcome on input
// that is not WARC: places that look like the start of a record or of a
// gzip member, among random bytes, are each reported once at most, and a
// good record after them is found and answered.
func TestGarbageInput(t *testing.T) {
	dir := t.TempDir()
	r := rand.New(rand.NewPCG(3, 4))
	junk := make([]byte, 1<<20)
	for i := range junk {
		junk[i] = byte(r.Uint32())
	}
	for i := 0; i+16 < len(junk); i += 4099 {
		copy(junk[i:], "\nWARC/1.1\r\n")
	}
	for i := 7; i+3 < len(junk); i += 8191 {
		copy(junk[i:], gzipMagic)
	}
	rec := warcRecord(t, capture{url: "https://after.example/robots.txt", status: 200, body: "User-agent: *\nDisallow: /x\n"})
	for _, name := range []string{"junk.warc", "junk.warc.gz"} {
		good := rec
		if strings.HasSuffix(name, ".gz") {
			good = gzipMember(t, rec)
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, cat(junk, good), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, workers := range []int{1, 2} {
			_, s := run(t, Config{Inputs: []string{p}, Format: FormatCSV, Workers: workers})
			if s.Captures != 1 || s.Skipped == 0 {
				t.Errorf("%s, %d workers: %d answered (want the record after the junk), %d skipped", name, workers, s.Captures, s.Skipped)
			}
			// One problem a place that looks like a start, at most.
			if len(s.Problems) > len(junk)/4099+len(junk)/8191+2 {
				t.Errorf("%s: %d problems for %d places that look like a start", name, len(s.Problems), len(junk)/4099+len(junk)/8191)
			}
		}
	}
}

// TestTruncatedStream holds a .warc.gz gzipped as one stream and cut short
// to losing only its last records: those of the run of decompressed bytes
// in which the stream broke (a record is handed over once it is known
// that more of the member followed it), reported at the first of them.
func TestTruncatedStream(t *testing.T) {
	dir := t.TempDir()
	r := rand.New(rand.NewPCG(5, 6))
	var recs [][]byte
	for i := range 51 {
		body := make([]byte, 8<<10) // 8 KiB that gzip cannot shrink much
		for j := range body {
			body[j] = "abcdefghijklmnopqrstuvwxyz0123456789\n"[r.IntN(37)]
		}
		recs = append(recs, warcRecord(t, capture{url: fmt.Sprintf("https://g%d.example/robots.txt", i), status: 200, body: string(body)}))
	}
	b, offs := oneStream(t, recs)
	p := filepath.Join(dir, "cut.warc.gz")
	if err := os.WriteFile(p, b[:len(b)-200], 0o644); err != nil {
		t.Fatal(err)
	}
	for _, workers := range []int{1, 2} {
		out, s := run(t, Config{Inputs: []string{p}, Format: FormatJSONL, AllCaptures: true, Workers: workers, Agents: []Agent{{Tokens: []string{"Googlebot"}}}})
		rows := decodeRows(t, out)
		for i, row := range rows {
			if row.InMember != offs[i] {
				t.Fatalf("workers %d: row %d is the record at %d, want %d: not the records before the cut", workers, i, row.InMember, offs[i])
			}
		}
		k := len(rows)
		if k < 51-(2*memberSize)/(8<<10)-2 || k == 51 {
			t.Errorf("workers %d: %d of 51 records answered", workers, k)
		}
		if len(s.Problems) != 1 || s.Problems[0].Kind != ProblemGzip || s.Problems[0].Offset != 0 || s.Problems[0].InMember != offs[k] {
			t.Errorf("workers %d: problems %v, want one gzip problem at 0+%d", workers, s.Problems, offs[k])
		}
	}
}
