package audit

import (
	"bufio"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"

	"github.com/nlnwa/gowarc"
)

// warcOptions read records leniently but keep the checks that tell a bad
// record: the block is read to its end and its length compared with
// Content-Length, and the end-of-record marker is checked. Nothing is fixed
// or added, and no HTTP block is parsed by the reader (net/http does it).
var warcOptions = []gowarc.WarcRecordOption{
	gowarc.WithSyntaxErrorPolicy(gowarc.ErrWarn),
	gowarc.WithSpecViolationPolicy(gowarc.ErrWarn),
	gowarc.WithUnknownRecordTypePolicy(gowarc.ErrIgnore),
	gowarc.WithSkipParseBlock(),
	gowarc.WithAddMissingRecordId(false),
	gowarc.WithAddMissingContentLength(false),
	gowarc.WithAddMissingDigest(false),
	gowarc.WithFixContentLength(false),
	gowarc.WithFixDigest(false),
	gowarc.WithFixSyntaxErrors(false),
}

var newReaderMu sync.Mutex

// readWARC calls emit for each response record of a WARC file, in file
// order, and report for each record it skips.
func readWARC(ctx context.Context, in *inputFile, want func(key string) bool, emit func(*Capture), report func(Problem)) error {
	newReaderMu.Lock() // the WARC library sets a global of package uuid when it makes a reader
	r, err := gowarc.NewWarcFileReaderFromStream(in.r, 0, warcOptions...)
	newReaderMu.Unlock()
	if err != nil {
		return err
	}
	defer r.Close()
	gz := in.gzip
	var (
		pending    *Capture
		pendingVal *gowarc.Validation
		responses  int
		errAt      int64 = -1
		errRepeat  int
		reported   = map[int64]bool{}
		buf        []byte
	)
	problem := func(off int64, kind, detail string) {
		if reported[off] {
			return
		}
		reported[off] = true
		report(Problem{Input: in.name, Offset: off, Kind: kind, Detail: detail, Skipped: true})
	}
	// flush hands over the previous record once the reader has closed it,
	// which is when its end-of-record marker has been checked.
	flush := func() {
		if pending == nil {
			return
		}
		if d := lengthTrouble(pendingVal); d != "" {
			problem(pending.Offset, ProblemLength, d)
		} else {
			emit(pending)
		}
		pending, pendingVal = nil, nil
	}
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		rec, off, val, err := r.Next()
		if err != nil && err != io.EOF && pending != nil && off == pending.Offset && gz && gzipTrouble(err) {
			pending = nil // its gzip member ends early: the record is not whole
		}
		flush()
		if err == io.EOF {
			break
		}
		if err != nil {
			kind := ProblemRecord
			if gz && gzipTrouble(err) {
				kind = ProblemGzip
			}
			problem(off, kind, err.Error())
			if off == errAt {
				if errRepeat++; errRepeat >= 3 {
					break // no progress: the rest of the file cannot be read
				}
			} else {
				errAt, errRepeat = off, 0
			}
			continue
		}
		if d := lengthTrouble(val); d != "" {
			problem(off, ProblemLength, d)
			continue
		}
		if rec.Type() != gowarc.Response {
			continue
		}
		responses++
		target := strings.Trim(rec.WarcHeader().Get(gowarc.WarcTargetURI), "<> ")
		key, ok := urlKey(target)
		if !ok {
			problem(off, ProblemURL, "WARC-Target-URI "+quoteShort(target)+" is not an absolute http(s) URL")
			continue
		}
		if want != nil && !want(key) {
			continue
		}
		raw, err := rec.Block().RawBytes()
		if err != nil {
			problem(off, ProblemRecord, err.Error())
			continue
		}
		c := &Capture{Input: in.name, Offset: off, URL: key, Date: rec.WarcHeader().Get(gowarc.WarcDate)}
		buf, err = readHTTP(raw, c, buf)
		if err == io.ErrUnexpectedEOF && !rec.WarcHeader().Has(gowarc.WarcTruncated) {
			problem(off, ProblemLength, "the record ends inside the HTTP body (Content-Length of the record too short)")
			continue
		}
		if err != nil {
			kind := ProblemHTTP
			if gz && gzipTrouble(err) {
				kind = ProblemGzip
			}
			problem(off, kind, err.Error())
			continue
		}
		pending, pendingVal = c, val
	}
	flush()
	if responses == 0 && len(reported) == 0 {
		report(Problem{Input: in.name, Offset: 0, Kind: ProblemEmpty, Detail: "no response records", Skipped: true})
	} else if responses == 0 {
		report(Problem{Input: in.name, Offset: 0, Kind: ProblemEmpty, Detail: "no readable response records", Skipped: true})
	}
	return nil
}

// lengthTrouble returns what the reader found wrong with a record's length,
// or "".
func lengthTrouble(v *gowarc.Validation) string {
	if v == nil {
		return ""
	}
	for _, e := range *v {
		s := e.Error()
		if strings.Contains(s, "content length mismatch") || strings.Contains(s, "end of record marker") {
			return s
		}
	}
	return ""
}

// gzipTrouble reports whether err comes from a gzip member that ends early
// or does not decompress.
func gzipTrouble(err error) bool {
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, gzip.ErrChecksum) || errors.Is(err, gzip.ErrHeader) {
		return true
	}
	s := err.Error()
	return strings.Contains(s, "gzip") || strings.Contains(s, "flate") || strings.Contains(s, "unexpected EOF")
}

// readHTTP reads an HTTP response into c: status, Location and the body up
// to maxBody bytes (decoded when the server sent it gzipped). buf is reused
// for the body and returned.
func readHTTP(raw io.Reader, c *Capture, buf []byte) ([]byte, error) {
	resp, err := http.ReadResponse(bufio.NewReader(raw), nil)
	if err != nil {
		return buf, errors.New("not an HTTP response: " + err.Error())
	}
	defer resp.Body.Close()
	c.Status = resp.StatusCode
	c.Location = resp.Header.Get("Location")
	var body io.Reader = resp.Body
	if strings.EqualFold(strings.TrimSpace(resp.Header.Get("Content-Encoding")), "gzip") {
		if z, err := gzip.NewReader(resp.Body); err == nil {
			body = z
		}
	}
	buf, c.Oversize, err = readCapped(body, buf[:0])
	c.Body = buf
	return buf, err
}

// readCapped reads r into buf up to maxBody bytes and reports whether more
// followed; what follows is read and dropped.
func readCapped(r io.Reader, buf []byte) ([]byte, bool, error) {
	for len(buf) <= maxBody {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := r.Read(buf[len(buf):min(cap(buf), maxBody+1)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, false, nil
		}
		if err != nil {
			return buf, false, err
		}
	}
	_, err := io.Copy(io.Discard, r)
	return buf[:maxBody], true, err
}

func quoteShort(s string) string {
	if len(s) > 80 {
		s = s[:80] + "..."
	}
	return `"` + s + `"`
}
