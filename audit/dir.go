package audit

import (
	"context"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// readDir calls emit for each file of a directory, in name order: the file
// "example.com.txt" is the body of https://example.com/robots.txt, fetched
// with status 200.
func readDir(ctx context.Context, in *inputFile, want func(key string) bool, emit func(*Capture), report func(Problem)) error {
	var names []string
	err := filepath.WalkDir(in.name, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			report(Problem{Input: p, Kind: ProblemInput, Detail: err.Error(), Skipped: true})
			return nil
		}
		if d.Type().IsRegular() && !strings.HasPrefix(d.Name(), ".") {
			names = append(names, p)
		}
		return nil
	})
	if err != nil {
		return err
	}
	sort.Strings(names)
	var buf []byte
	good := 0
	for _, p := range names {
		if err := ctx.Err(); err != nil {
			return err
		}
		host := strings.TrimSuffix(filepath.Base(p), ".txt")
		key, err := urlKey("https://" + host + "/robots.txt")
		if err != nil || !isRobotsURL(key) {
			report(Problem{Input: p, Kind: ProblemURL, Detail: "file name " + quoteShort(filepath.Base(p)) + " is not a host name", Skipped: true})
			continue
		}
		good++
		if want != nil && !want(key) {
			continue
		}
		f, err := os.Open(p)
		if err != nil {
			report(Problem{Input: p, Kind: ProblemInput, Detail: err.Error(), Skipped: true})
			continue
		}
		c := &Capture{Input: p, URL: key, Status: 200}
		buf, c.Oversize, err = readCapped(countReads(f, in.count), buf[:0])
		f.Close()
		if err != nil && err != io.ErrUnexpectedEOF {
			report(Problem{Input: p, Kind: ProblemInput, Detail: err.Error(), Skipped: true})
			continue
		}
		c.Body = buf
		emit(c)
	}
	if good == 0 {
		report(Problem{Input: in.name, Kind: ProblemEmpty, Detail: "no files", Skipped: true})
	}
	return nil
}
