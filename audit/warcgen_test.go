package audit

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/klauspost/compress/gzip"
	"github.com/nlnwa/gowarc"
)

// capture is a robots.txt fetch that a test writes into a WARC file.
type capture struct {
	url      string
	status   int
	location string
	body     string
	date     string // WARC-Date; default 2026-01-02T03:04:05Z
}

// warcRecord builds the WARC response record of a capture with the WARC
// library's record builder and writes it with its marshaler.
func warcRecord(t testing.TB, c capture) []byte {
	t.Helper()
	var http bytes.Buffer
	fmt.Fprintf(&http, "HTTP/1.1 %d %s\r\n", c.status, statusText(c.status))
	if c.location != "" {
		fmt.Fprintf(&http, "Location: %s\r\n", c.location)
	}
	fmt.Fprintf(&http, "Content-Type: text/plain\r\nContent-Length: %d\r\n\r\n%s", len(c.body), c.body)
	b := gowarc.NewRecordBuilder(gowarc.Response, gowarc.WithAddMissingDigest(false))
	b.AddWarcHeader(gowarc.WarcTargetURI, c.url)
	date := c.date
	if date == "" {
		date = "2026-01-02T03:04:05Z"
	}
	b.AddWarcHeader(gowarc.WarcDate, date)
	b.AddWarcHeader(gowarc.ContentType, "application/http;msgtype=response")
	b.AddWarcHeader(gowarc.WarcRecordID, fmt.Sprintf("<urn:uuid:%08x-0000-4000-8000-000000000000>", recordNumber(c)))
	if _, err := b.Write(http.Bytes()); err != nil {
		t.Fatal(err)
	}
	rec, _, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if _, _, err := gowarc.NewMarshaler().Marshal(&out, rec, 0); err != nil {
		t.Fatal(err)
	}
	rec.Close()
	return out.Bytes()
}

// recordNumber numbers a record's ID; captures with a date of their own
// (repeated captures of a URL) are told apart by it and their body.
func recordNumber(c capture) int {
	n := len(c.url)*7919 + c.status
	if c.date != "" {
		n += len(c.body)*31 + int(captureDate(c.date).Unix()%1000003)
	}
	return n
}

func statusText(code int) string {
	switch {
	case code < 300:
		return "OK"
	case code < 400:
		return "Moved"
	case code < 500:
		return "Not Found"
	}
	return "Server Error"
}

// gzipMember compresses one record as a gzip member of its own, as WARC
// files do.
func gzipMember(t testing.TB, rec []byte) []byte {
	var b bytes.Buffer
	z := gzip.NewWriter(&b)
	z.Write(rec)
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// writeWARC writes captures to a WARC file (gzipped per record when the
// name ends in .gz) and returns the offsets of the records.
func writeWARC(t testing.TB, name string, cs []capture) []int64 {
	t.Helper()
	var out bytes.Buffer
	var offs []int64
	for _, c := range cs {
		offs = append(offs, int64(out.Len()))
		rec := warcRecord(t, c)
		if strings.HasSuffix(name, ".gz") {
			rec = gzipMember(t, rec)
		}
		out.Write(rec)
	}
	if err := os.WriteFile(name, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return offs
}

// corpusDir returns the real corpus, or skips the test when it is absent.
func corpusDir(t testing.TB) string {
	t.Helper()
	dir := os.Getenv("ROBOTSTXT_CORPUS")
	if dir == "" {
		dir = filepath.Join("..", "..", "shared", "corpus")
	}
	if _, err := os.Stat(filepath.Join(dir, "real")); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("corpus missing at %s (set ROBOTSTXT_CORPUS)", dir)
		}
		t.Skipf("corpus absent at %s: set ROBOTSTXT_CORPUS to run", dir)
	}
	return dir
}

// corpusCaptures reads the real corpus as 200 captures, one origin a file,
// in name order.
func corpusCaptures(t testing.TB) []capture {
	dir := filepath.Join(corpusDir(t), "real")
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		if e.Type().IsRegular() {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	var cs []capture
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			t.Fatal(err)
		}
		host := strings.TrimSuffix(n, ".txt")
		cs = append(cs, capture{url: "https://" + host + "/robots.txt", status: 200, body: string(b)})
	}
	return cs
}

// TestWriteCorpusWARC writes the real corpus as a WARC file to the path in
// ROBOTSAUDIT_CORPUS_WARC, for measuring the command on it:
//
//	ROBOTSAUDIT_CORPUS_WARC=/tmp/corpus.warc.gz go test -count=1 -v -run TestWriteCorpusWARC ./audit
//
// The corpus is read from ROBOTSTXT_CORPUS, by default ../../shared/corpus
// from the audit directory; when it is not there, the test fails rather
// than skip, since the path asked for would stay unwritten. A path with
// "%d" writes the corpus in two halves, corpus-0 and corpus-1.
func TestWriteCorpusWARC(t *testing.T) {
	p := os.Getenv("ROBOTSAUDIT_CORPUS_WARC")
	if p == "" {
		t.Skip("set ROBOTSAUDIT_CORPUS_WARC to a path to write the corpus WARC")
	}
	dir := os.Getenv("ROBOTSTXT_CORPUS")
	if dir == "" {
		dir = filepath.Join("..", "..", "shared", "corpus")
	}
	if _, err := os.Stat(filepath.Join(dir, "real")); err != nil {
		abs, _ := filepath.Abs(dir)
		t.Fatalf("ROBOTSAUDIT_CORPUS_WARC is set but the corpus is not at %s: set ROBOTSTXT_CORPUS to the corpus directory (the one holding real/)", abs)
	}
	cs := corpusCaptures(t)
	defer func() {
		if !t.Failed() {
			t.Logf("wrote %d captures to %s", len(cs), p)
		}
	}()
	if !strings.Contains(p, "%d") {
		writeWARC(t, p, cs)
		return
	}
	for i := 0; i < 2; i++ { // "%d" in the path: two halves, one shard each
		var half []capture
		for j := i; j < len(cs); j += 2 {
			half = append(half, cs[j])
		}
		writeWARC(t, fmt.Sprintf(p, i), half)
	}
}
