package audit

import (
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"

	"github.com/robotstxt-go/robotstxt/internal/grammar"
)

// maxBody is how much of a body is kept: what Google's crawler reads, the
// limit that fetch, lint and the CLI share (grammar.MaxBodySize).
const maxBody = grammar.MaxBodySize

// inputFile is an open input.
type inputFile struct {
	name  string
	kind  string // "warc", "jsonl" or "dir"
	r     io.Reader
	gzip  bool
	ra    io.ReaderAt   // the file, read at offsets; nil when r is not the file itself
	count *atomic.Int64 // bytes read from disk, for progress
	close func() error
}

// Kind returns the kind of input a path names: "warc", "jsonl" or "dir", or
// an error for anything else.
func Kind(path string) (string, error) {
	st, err := os.Stat(path)
	if err != nil {
		return "", err
	}
	if st.IsDir() {
		return "dir", nil
	}
	n := strings.ToLower(strings.TrimSuffix(filepath.Base(path), ".gz"))
	switch {
	case strings.HasSuffix(n, ".warc"):
		return "warc", nil
	case strings.HasSuffix(n, ".jsonl"), strings.HasSuffix(n, ".ndjson"):
		return "jsonl", nil
	}
	return "", fmt.Errorf("%s: not a WARC (.warc, .warc.gz), JSON Lines (.jsonl, .ndjson) file or a directory", path)
}

// Expand returns the inputs that the patterns name (shell globs, or plain
// paths), sorted by name and without duplicates. A pattern that matches
// nothing is an error.
func Expand(patterns []string) ([]string, error) {
	seen := map[string]bool{}
	var out []string
	for _, p := range patterns {
		m, err := filepath.Glob(p)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", p, err)
		}
		if len(m) == 0 {
			return nil, fmt.Errorf("%s: no such input", p)
		}
		for _, f := range m {
			if _, err := Kind(f); err != nil {
				return nil, err
			}
			if !seen[f] {
				seen[f] = true
				out = append(out, f)
			}
		}
	}
	sort.Strings(out)
	return out, nil
}

func openInput(name string, count *atomic.Int64) (*inputFile, error) {
	kind, err := Kind(name)
	if err != nil {
		return nil, err
	}
	in := &inputFile{name: name, kind: kind, count: count, close: func() error { return nil }}
	if kind == "dir" {
		return in, nil
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	in.close = f.Close
	in.r = countReads(f, count)
	if kind == "warc" {
		in.ra = f
	}
	in.gzip = strings.HasSuffix(strings.ToLower(name), ".gz")
	if kind == "jsonl" && in.gzip {
		z, err := gzip.NewReader(in.r)
		if err != nil {
			f.Close()
			return nil, err
		}
		in.r = z
	}
	return in, nil
}

// reading is how an input is read: by how many goroutines and, for a .gz
// WARC read by several, in segments of about how many bytes (see
// readSegments).
type reading struct {
	workers int
	split   int64
}

// each reads the captures of an input in order. want is called from any
// of the reading goroutines.
func (in *inputFile) each(ctx context.Context, rd reading, want func(string) bool, emit func(*Capture), report func(Problem)) error {
	switch in.kind {
	case "warc":
		return readWARC(ctx, in, rd, want, emit, report)
	case "jsonl":
		return readJSONL(ctx, in, want, emit, report)
	}
	return readDir(ctx, in, want, emit, report)
}

// scanInput opens an input and reads its captures once, as rd says; want
// must be safe to call from several goroutines at once.
func scanInput(ctx context.Context, name string, count *atomic.Int64, rd reading, want func(string) bool, emit func(*Capture), report func(Problem)) error {
	if st, err := os.Stat(name); err == nil && st.Mode().IsRegular() && st.Size() == 0 {
		report(Problem{Input: name, Kind: ProblemZero, Detail: "the file is empty (0 bytes)"})
		return nil
	}
	in, err := openInput(name, count)
	if err != nil {
		report(Problem{Input: name, Kind: ProblemInput, Detail: err.Error(), Skipped: true})
		return nil
	}
	defer in.close()
	return in.each(ctx, rd, want, emit, report)
}

type countingReader struct {
	r io.Reader
	n *atomic.Int64
}

func (c countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	if c.n != nil {
		c.n.Add(int64(n))
	}
	return n, err
}

func countReads(r io.Reader, n *atomic.Int64) io.Reader { return countingReader{r, n} }
