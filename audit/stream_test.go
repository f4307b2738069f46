package audit

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/klauspost/compress/gzip"
)

// streamCaptures are captures of a few origins, each captured several
// times on different dates, and two on the same date (the later read
// wins).
func streamCaptures(n int) []capture {
	var cs []capture
	for i := range n {
		o := i % 7
		body := fmt.Sprintf("User-agent: *\nDisallow: /v%d\n", i)
		date := fmt.Sprintf("2026-01-%02dT00:00:00Z", 1+i%20)
		if i == n-1 {
			date = fmt.Sprintf("2026-01-%02dT00:00:00Z", 1+(i-7)%20) // the same date as the capture before of its origin
		}
		cs = append(cs, capture{url: fmt.Sprintf("https://o%d.example/robots.txt", o), status: 200, body: body, date: date})
	}
	return cs
}

// writeStream writes captures as a .warc.gz gzipped as one stream, as
// `gzip file.warc` makes it, and returns the records' offsets in the
// decompressed stream (their in_member).
func writeStream(t testing.TB, name string, cs []capture) []int64 {
	t.Helper()
	var b bytes.Buffer
	z := gzip.NewWriter(&b)
	var offs []int64
	var n int64
	for _, c := range cs {
		offs = append(offs, n)
		rec := warcRecord(t, c)
		z.Write(rec)
		n += int64(len(rec))
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return offs
}

// seekRecordURI finds a row's record as the README says a reader seeks to
// it: to offset in the file, then, gunzipping from there (a .gz input),
// in_member bytes further; it returns the record's WARC-Target-URI.
func seekRecordURI(t testing.TB, path string, offset, inMember int64) string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Seek(offset, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	var r io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		z, err := gzip.NewReader(f)
		if err != nil {
			t.Fatalf("%s@%d: %v", path, offset, err)
		}
		r = z
	}
	if _, err := io.CopyN(io.Discard, r, inMember); err != nil {
		t.Fatalf("%s@%d+%d: %v", path, offset, inMember, err)
	}
	br := bufio.NewReader(r)
	first, _ := br.ReadString('\n')
	if !strings.HasPrefix(first, "WARC/1.") {
		return fmt.Sprintf("no record: %q", first)
	}
	for {
		l, err := br.ReadString('\n')
		if err != nil || l == "\r\n" {
			return ""
		}
		if v, ok := strings.CutPrefix(l, "WARC-Target-URI: "); ok {
			return strings.TrimSpace(v)
		}
	}
}

// TestSingleStreamGzip holds a .warc.gz gzipped as one stream to the
// answers of the same records gzipped one member a record: each record
// has an offset of its own (offset, in_member), one answer per origin
// answers once per origin, and the pair leads to the record.
func TestSingleStreamGzip(t *testing.T) {
	dir := t.TempDir()
	cs := streamCaptures(40)
	per := filepath.Join(dir, "per.warc.gz")
	one := filepath.Join(dir, "one.warc.gz")
	plain := filepath.Join(dir, "plain.warc")
	writeWARC(t, per, cs)
	writeStream(t, one, cs)
	writeWARC(t, plain, cs)
	type answer struct {
		url, date, label string
		captures         int32
		allowed          bool
	}
	answers := func(b []byte) []string {
		var out []string
		for _, r := range decodeRows(t, b) {
			c := int32(0)
			if r.Captures != nil {
				c = *r.Captures
			}
			out = append(out, fmt.Sprint(answer{r.URL, r.Date, r.Label, c, *r.Verdicts[0].Allowed}))
		}
		return out
	}
	for _, all := range []bool{false, true} {
		for _, workers := range []int{1, 2} {
			t.Run(fmt.Sprintf("all=%v workers=%d", all, workers), func(t *testing.T) {
				cfg := func(in string) Config {
					return Config{Inputs: []string{in}, Format: FormatJSONL, AllCaptures: all, Workers: workers, split: 512,
						Paths: []string{"/v39"}, Agents: []Agent{{Tokens: []string{"Googlebot"}}}}
				}
				pb, ps := run(t, cfg(per))
				ob, os_ := run(t, cfg(one))
				lb, _ := run(t, cfg(plain))
				want := answers(pb)
				if len(want) == 0 {
					t.Fatal("no rows")
				}
				if !all && len(want) != 7 {
					t.Errorf("per record: %d rows, want one an origin (7)", len(want))
				}
				for name, got := range map[string][]string{"one stream": answers(ob), "uncompressed": answers(lb)} {
					if strings.Join(got, "\n") != strings.Join(want, "\n") {
						t.Errorf("%s: %d rows\n%s\nper record: %d rows\n%s", name, len(got), strings.Join(got, "\n"), len(want), strings.Join(want, "\n"))
					}
				}
				if os_.Captures != ps.Captures || os_.Seen != ps.Seen || len(os_.Problems) != 0 {
					t.Errorf("one stream: %d answered of %d, problems %v; per record %d of %d", os_.Captures, os_.Seen, os_.Problems, ps.Captures, ps.Seen)
				}
				// Each row's (offset, in_member) leads to its record.
				for _, in := range []struct {
					path string
					b    []byte
				}{{per, pb}, {one, ob}, {plain, lb}} {
					sc := bufio.NewScanner(bytes.NewReader(in.b))
					seen := map[string]bool{}
					for sc.Scan() {
						var r struct {
							URL      string `json:"url"`
							Offset   int64  `json:"offset"`
							InMember int64  `json:"in_member"`
						}
						if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
							t.Fatal(err)
						}
						if got := seekRecordURI(t, in.path, r.Offset, r.InMember); got != r.URL {
							t.Errorf("%s: row %s at %d+%d leads to %s", filepath.Base(in.path), r.URL, r.Offset, r.InMember, got)
						}
						seen[fmt.Sprint(r.Offset, r.InMember)] = true
					}
					if want := len(want); len(seen) != want { // one agent: one row a capture
						t.Errorf("%s: %d places for %d rows", filepath.Base(in.path), len(seen), want)
					}
				}
			})
		}
	}
}
