package audit

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/klauspost/compress/gzip"
	"github.com/nlnwa/gowarc"
)

// warcOptions read records leniently: nothing is fixed or added, no HTTP
// block is parsed by the reader (net/http does it), and the reader does
// not validate digests, which would make it copy every block into a
// buffer of its own first. The checks that tell a bad record, the length
// of its block against Content-Length and its end-of-record marker, are
// made by warcRecords.end as the block is read.
var warcOptions = []gowarc.WarcRecordOption{
	gowarc.WithSyntaxErrorPolicy(gowarc.ErrWarn),
	gowarc.WithSpecViolationPolicy(gowarc.ErrIgnore),
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

func newUnmarshaler() gowarc.Unmarshaler {
	newReaderMu.Lock() // the WARC library sets a global of package uuid when it makes an unmarshaler
	defer newReaderMu.Unlock()
	return gowarc.NewUnmarshaler(warcOptions...)
}

// readWARC calls emit for each response record of a WARC file, in file
// order, and report for each record it skips. A .gz file is read a gzip
// member at a time, here rather than in the WARC library, so that a member
// that ends early or does not decompress ends its records there: the
// library sees the end of a stream, and the problem is reported at the
// member's offset. With more than one worker, a .gz file is cut into
// segments that the workers decompress and read side by side
// (readSegments); what is emitted and reported is the same.
func readWARC(ctx context.Context, in *inputFile, rd reading, want func(key string) bool, emit func(*Capture), report func(Problem)) error {
	var n atomic.Int64
	br := bufio.NewReaderSize(countReads(in.r, &n), 1<<20)
	pos := func() int64 { return n.Load() - int64(br.Buffered()) }
	if b, _ := br.Peek(2); len(b) == 2 && b[0] == 0x1f && b[1] == 0x8b {
		in.gzip = true // gzipped whatever the name says
	}
	if in.gzip && rd.workers > 1 && in.ra != nil {
		return readSegments(ctx, in, br, rd, want, emit, report)
	}
	w := newWARCRecords(in, want, emit, report)
	if in.ra != nil {
		w.seek = func(off int64) {
			n.Store(off)
			br.Reset(countReads(io.NewSectionReader(in.ra, off, noLimit-off), &n))
		}
	}
	if in.gzip {
		w.members(ctx, br, pos, noLimit)
		return w.finish(ctx)
	}
	u := newUnmarshaler()
	lineStart, resync := true, false
	for ctx.Err() == nil {
		start := pos()
		skipped, ok := seekRecord(br, lineStart)
		if skipped > 0 && !resync {
			w.problem(at{off: start}, ProblemRecord, fmt.Sprintf("%d bytes that are not a WARC record", skipped))
		}
		if !ok {
			break
		}
		start = pos()
		if kind, d := recordProblem(br, w.marker(start)); d != "" {
			// Resynchronise: the record's bytes are passed over up to
			// the next line that starts a record.
			w.problem(at{off: start}, kind, d)
			br.Discard(1)
			lineStart, resync = false, true
			continue
		}
		resync = false
		if !w.next(u, br, start, nil) {
			break
		}
		lineStart = true
		if pos() == start { // no progress: step over a byte
			br.Discard(1)
			lineStart = false
		}
	}
	return w.finish(ctx)
}

// marker returns, for an uncompressed input read at offsets, what reads
// the 4 bytes n bytes after the record at start: where its end-of-record
// marker should be. It returns nil for other inputs.
func (w *warcRecords) marker(start int64) func(n int64) []byte {
	if w.in.ra == nil {
		return nil
	}
	return func(n int64) []byte {
		b := make([]byte, 4)
		k, _ := w.in.ra.ReadAt(b, start+n)
		return b[:k]
	}
}

// recordProblem reads the header of the record r starts with, before the
// WARC library reads the record, and returns the kind and detail of what
// is wrong with its framing (WARC 1.1 §4: a record is its header, an empty
// line, a block of Content-Length bytes and two CRLFs): no end of the
// header in its first maxHeader bytes or before the next version line, a
// Content-Length that is not a
// length (negative, not a number), or no end-of-record marker where the
// block it gives should end. Such a record would take the records after
// it as its header or block; told here, the reader passes over it and
// reads on from the next record. The marker is looked for in what r holds or, beyond it, with
// at, or else in r's buffer filled further (when at is nil). It returns
// "" when nothing is wrong, or nothing can be told (no Content-Length, a
// block longer than r's buffer without at): the record is read, and its
// length checked by end.
func recordProblem(r *bufio.Reader, at func(n int64) []byte) (kind, detail string) {
	b, _ := r.Peek(min(r.Size(), maxHeader))
	h := bytes.Index(b, []byte("\r\n\r\n"))
	if h < 0 {
		// The WARC library would read on for the header's end, through
		// the records that follow.
		return ProblemRecord, fmt.Sprintf("no end of the WARC header (an empty line) in its first %d bytes", len(b))
	}
	h += 4
	if i := bytes.Index(b[:h], []byte("\nWARC/")); i >= 0 && isRecordStart(b[i+1:]) {
		return ProblemRecord, "no end of the WARC header (an empty line) before the next record"
	}
	cl, ok := contentLength(b[:h])
	if !ok {
		return "", ""
	}
	n, err := strconv.ParseInt(cl, 10, 64)
	if err != nil || n < 0 || n > 1<<62 {
		return ProblemLength, "Content-Length " + quoteShort(cl) + " is not a length"
	}
	end := int64(h) + n
	var m []byte
	switch {
	case end+4 <= int64(r.Buffered()):
		b, _ = r.Peek(int(end + 4))
		m = b[end:]
	case at != nil:
		m = at(end)
	case end+4 <= int64(r.Size()):
		b, _ = r.Peek(int(end + 4)) // fewer when the input ends in the block
		m = b[min(end, int64(len(b))):]
	default:
		return "", ""
	}
	switch {
	case len(m) < 4:
		return ProblemLength, "Content-Length " + quoteShort(cl) + ": the input ends inside the block"
	case string(m) != "\r\n\r\n":
		return ProblemLength, noMarker(m)
	}
	return "", ""
}

// maxHeader is how much of a record recordProblem looks at for its
// header: a longer WARC header is not read.
const maxHeader = 64 << 10

// contentLength returns the value of the Content-Length field of a WARC
// header.
func contentLength(head []byte) (string, bool) {
	for len(head) > 0 {
		line := head
		if i := bytes.IndexByte(head, '\n'); i >= 0 {
			line, head = head[:i], head[i+1:]
		} else {
			head = nil
		}
		name, value, ok := bytes.Cut(line, []byte(":"))
		if ok && strings.EqualFold(string(bytes.TrimSpace(name)), "Content-Length") {
			return string(bytes.TrimSpace(value)), true
		}
	}
	return "", false
}

// noMarker is the problem of a record not followed by the end-of-record
// marker: m is what follows its block instead.
func noMarker(m []byte) string {
	return fmt.Sprintf("no end of record marker: %q where \"\\r\\n\\r\\n\" should follow the block", m)
}

// noLimit is a limit of members that no offset reaches.
const noLimit = int64(1<<63 - 1)

// members reads the gzip members of br from where it stands, each as a
// run of WARC records, until br ends, ctx is cancelled, the next member
// starts at limit or beyond, or (with a budget) the budget is spent. pos
// gives br's offset in the input. It returns the offset of the member it
// stopped before (the input's end when none is left), and whether the
// input ended.
func (w *warcRecords) members(ctx context.Context, br *bufio.Reader, pos func() int64, limit int64) (int64, bool) {
	if w.u == nil {
		w.u = newUnmarshaler()
		w.zr = new(gzip.Reader)
		w.mbr = bufio.NewReaderSize(nil, maxHeader)
	}
	for ctx.Err() == nil {
		if !seekMember(br) {
			return pos(), true
		}
		start := pos()
		if start >= limit || w.budget > 0 && w.kept >= w.budget {
			return start, false
		}
		if err := w.zr.Reset(br); err != nil {
			w.problem(at{off: start}, ProblemGzip, err.Error())
			w.resync(br, start, pos())
			continue
		}
		w.zr.Multistream(false)
		mr := &w.member
		mr.reset(w.zr)
		w.mbr.Reset(mr)
		w.current, w.dropped = at{off: start}, nil
		in := func() int64 { return mr.n - int64(w.mbr.Buffered()) }
		lineStart, resync := true, false
		for {
			from := in()
			skipped, ok := seekRecord(w.mbr, lineStart)
			if skipped > 0 && !resync && mr.err == nil {
				w.problem(at{start, from}, ProblemRecord, fmt.Sprintf("%d bytes of a gzip member that are not a WARC record", skipped))
			}
			if !ok {
				break
			}
			if kind, d := recordProblem(w.mbr, nil); d != "" {
				w.current = at{start, in()}
				if mr.err == nil { // else the gzip problem below tells
					w.problem(w.current, kind, d)
				}
				w.mbr.Discard(1)
				lineStart, resync = false, true
				continue
			}
			resync = false
			if !w.next(w.u, w.mbr, start, mr) {
				break
			}
			lineStart = true
		}
		io.Copy(io.Discard, w.mbr)
		w.flush(mr)
		if mr.err != nil {
			// The records of the member from the first not handed over
			// are lost: those held back until it was known that the
			// member ended (its last run of memberSize bytes), and the
			// one being read.
			lost := w.current
			if w.dropped != nil {
				lost = *w.dropped
			}
			w.problem(lost, ProblemGzip, mr.err.Error()+"; the records of the member from here on are lost")
		}
		if mr.err != nil {
			w.resync(br, start, pos())
		}
	}
	return pos(), false
}

// resync moves br, which stands at offset end, to where the member after
// the broken one at start is looked for: its header or its decompressor
// may have read into the next member as if it were its own. The next
// member is looked for again from the broken one's start, but at most
// resyncWindow bytes back from where it broke; without w.seek, from end.
func (w *warcRecords) resync(br *bufio.Reader, start, end int64) {
	switch {
	case end <= start:
		br.Discard(1)
	case end == start+1:
	case w.seek != nil:
		w.seek(max(start+1, end-resyncWindow))
	}
}

// resyncWindow is how far back from where a gzip member broke the next
// member is looked for. A deflate stream that ends early reads on into
// the bytes after it: by a few bytes mostly, by up to a stored block of
// 64 KiB before it must fail again (RFC 1951 §3.2.4); a gzip header, by
// up to an extra field of 64 KiB (RFC 1952 §2.3.1). Each broken member
// thus costs at most this many bytes read again.
const resyncWindow = 128 << 10

// memberSize is the size of the runs in which a member is decompressed
// and handed to the WARC reader.
const memberSize = 64 << 10

// seekRecord moves br to the next record's start, a line that starts with
// "WARC/" and a digit (the version line, WARC 1.1 §4), and reports how many
// bytes it skipped and whether there is one. At lineStart, br stands at
// the start of a line. The WARC library is only ever handed a record's
// start: it would read gzip data by itself, and loops on an error of a
// gzip stream it opened. Each byte is looked at once.
func seekRecord(br *bufio.Reader, lineStart bool) (int64, bool) {
	var n int64
	for {
		b, _ := br.Peek(br.Size())
		if len(b) < len(versionLine)+1 {
			br.Discard(len(b))
			return n + int64(len(b)), false
		}
		if lineStart && isRecordStart(b) {
			return n, true
		}
		i := bytes.Index(b[1:], versionLine)
		if i < 0 || i+1+len(versionLine) == len(b) {
			k := len(b) - len(versionLine) // what cannot start a match
			br.Discard(k)
			n += int64(k)
			lineStart = b[k-1] == '\n'
			continue
		}
		br.Discard(i + 1)
		n += int64(i + 1)
		lineStart = b[i] == '\n'
	}
}

// versionLine is how a record's version line starts.
var versionLine = []byte("WARC/")

func isRecordStart(b []byte) bool {
	return len(b) > len(versionLine) && bytes.HasPrefix(b, versionLine) && '0' <= b[len(versionLine)] && b[len(versionLine)] <= '9'
}

// seekMember moves br to the next gzip header and reports whether there is
// one.
func seekMember(br *bufio.Reader) bool {
	for {
		b, err := br.Peek(3)
		if len(b) < 3 || err != nil {
			return false
		}
		if isMemberStart(b) {
			return true
		}
		br.Discard(1)
	}
}

// gzipMagic is how a gzip member begins: its magic number and the deflate
// method.
var gzipMagic = []byte{0x1f, 0x8b, 8}

func isMemberStart(b []byte) bool { return bytes.HasPrefix(b, gzipMagic) }

// gzipReader reads one gzip member and turns an error into the end of
// the member, keeping the error: the WARC library reads a broken member as
// a record that ends early.
type gzipReader struct {
	r   io.Reader
	err error
}

func (m *gzipReader) Read(p []byte) (int, error) {
	if m.err != nil {
		return 0, io.EOF
	}
	n, err := m.r.Read(p)
	if err != nil && err != io.EOF {
		m.err = err
		return n, io.EOF
	}
	return n, err
}

// memberReader reads one gzip member, decompressed memberSize bytes at a
// time, up to its end, and keeps what ended it early. What ended the
// member is known once its last run has been read, not before, however far
// the reader of the records reads ahead.
type memberReader struct {
	gz    gzipReader
	buf   []byte
	cur   []byte
	ended bool // the last run is in cur
	done  bool
	err   error
	n     int64 // decompressed bytes handed out
}

func (m *memberReader) reset(r io.Reader) {
	buf := m.buf
	if buf == nil {
		buf = make([]byte, memberSize)
	}
	*m = memberReader{gz: gzipReader{r: r}, buf: buf}
}

func (m *memberReader) Read(p []byte) (int, error) {
	for {
		if len(m.cur) > 0 {
			n := copy(p, m.cur)
			m.cur = m.cur[n:]
			m.n += int64(n)
			return n, nil
		}
		if m.done {
			return 0, io.EOF
		}
		if m.ended {
			m.done, m.err = true, m.gz.err
			continue
		}
		n, err := io.ReadFull(&m.gz, m.buf)
		m.cur = m.buf[:n]
		m.ended = err != nil
	}
}

// warcRecords turns WARC records into captures.
type warcRecords struct {
	in        *inputFile
	want      func(string) bool
	emit      func(*Capture)
	report    func(Problem)
	reported  map[at]bool
	responses int
	pending   *Capture
	buf       []byte
	block     blockReader
	http      *bufio.Reader // reset for each record

	// budget, when not 0, is how many body bytes members emits before it
	// stops at the start of a member; kept counts them.
	budget, kept int

	// seek, when the input is read at offsets, moves the reader of the
	// input (and pos) to an offset.
	seek func(off int64)
	// current is where the record being read is; dropped, the first
	// record of the member dropped because the member broke.
	current at
	dropped *at

	// For gzip members, made when the first is read.
	u      gowarc.Unmarshaler
	zr     *gzip.Reader
	member memberReader
	mbr    *bufio.Reader // reset for each member
}

func newWARCRecords(in *inputFile, want func(string) bool, emit func(*Capture), report func(Problem)) *warcRecords {
	return &warcRecords{in: in, want: want, emit: emit, report: report, reported: map[at]bool{}}
}

// at is where a record is: the offset of its record (or gzip member) in
// the input and, in a gzip member, its offset in the member's decompressed
// bytes.
type at struct{ off, in int64 }

func (w *warcRecords) problem(a at, kind, detail string) {
	w.reportOnce(Problem{Input: w.in.name, Offset: a.off, InMember: a.in, Kind: kind, Detail: detail, Skipped: true})
}

// reportOnce reports p unless a problem at its place was reported.
func (w *warcRecords) reportOnce(p Problem) {
	a := at{p.Offset, p.InMember}
	if w.reported[a] {
		return
	}
	w.reported[a] = true
	w.report(p)
}

// flush hands over the last record read once its gzip member has ended
// (for a .gz input) or at once; a record of a broken gzip member is
// dropped.
func (w *warcRecords) flush(mr *memberReader) {
	c := w.pending
	if c == nil {
		return
	}
	w.pending = nil
	if mr != nil && mr.err != nil {
		if w.dropped == nil {
			w.dropped = &at{c.Offset, c.InMember}
		}
		return
	}
	w.kept += len(c.Body)
	w.emit(c)
}

// next reads one record from r and reports whether reading may go on. r
// reads the input from offset base, or (with mr) the decompressed bytes of
// the gzip member at base: a record is then at base and, in the member,
// as far as mr has handed out less what r holds.
func (w *warcRecords) next(u gowarc.Unmarshaler, r *bufio.Reader, base int64, mr *memberReader) bool {
	w.flush(mr) // a second record in one member
	var in int64
	if mr != nil {
		in = mr.n - int64(r.Buffered())
	}
	rec, skip, _, err := unmarshal(u, r)
	off := at{base, in}
	if mr != nil {
		off.in += skip
	} else {
		off.off += skip
	}
	w.current = off
	if rec != nil {
		defer func() {
			rec.Close()
			if w.pending != nil && mr == nil {
				w.flush(nil)
			}
		}()
	}
	if err == io.EOF && rec == nil {
		return false
	}
	if err != nil {
		if mr != nil && mr.err != nil {
			return false // reported by the caller as a gzip problem
		}
		w.problem(off, ProblemRecord, err.Error())
		return rec != nil
	}
	raw, err := rec.Block().RawBytes()
	if err != nil {
		w.problem(off, ProblemRecord, err.Error())
		return true
	}
	w.block = blockReader{r: raw}
	c, httpErr := w.capture(rec, off)
	if d := w.end(rec, r); d != "" {
		if mr == nil || mr.err == nil {
			w.problem(off, ProblemLength, d)
		}
		return true
	}
	switch {
	case c == nil:
	case httpErr == io.ErrUnexpectedEOF && !rec.WarcHeader().Has(gowarc.WarcTruncated):
		w.problem(off, ProblemLength, "the record ends inside the HTTP body (Content-Length of the record too short)")
	case httpErr != nil && mr != nil && mr.err != nil:
	case httpErr != nil:
		w.problem(off, ProblemHTTP, httpErr.Error())
	default:
		w.pending = c
	}
	return true
}

// capture reads a response record whose URL is wanted from w.block into a
// capture; it returns nil for other records, and the error of reading the
// HTTP response.
func (w *warcRecords) capture(rec gowarc.WarcRecord, off at) (*Capture, error) {
	if rec.Type() != gowarc.Response {
		return nil, nil
	}
	w.responses++
	target := strings.Trim(rec.WarcHeader().Get(gowarc.WarcTargetURI), "<> ")
	key, err := urlKey(target)
	if err != nil {
		w.problem(off, ProblemURL, urlProblem("WARC-Target-URI "+quoteShort(target), err))
		return nil, nil
	}
	if w.want != nil && !w.want(key) {
		return nil, nil
	}
	c := &Capture{Input: w.in.name, Offset: off.off, InMember: off.in, URL: key, Date: rec.WarcHeader().Get(gowarc.WarcDate)}
	if w.http == nil {
		w.http = bufio.NewReader(&w.block)
	} else {
		w.http.Reset(&w.block)
	}
	w.buf, err = readHTTP(w.http, c, w.buf)
	return c, err
}

// end reads the rest of a record's block and returns what is wrong with
// its length, or "": a block shorter than its Content-Length (the record
// was cut), or one not followed by the end-of-record marker (its
// Content-Length is too short, or too long for what follows).
func (w *warcRecords) end(rec gowarc.WarcRecord, r *bufio.Reader) string {
	io.Copy(io.Discard, &w.block)
	if cl := rec.WarcHeader().Get(gowarc.ContentLength); cl != strconv.FormatInt(w.block.n, 10) {
		return fmt.Sprintf("content length mismatch: header %q, block %d bytes", cl, w.block.n)
	}
	if b, _ := r.Peek(4); string(b) != "\r\n\r\n" {
		return noMarker(b)
	}
	return ""
}

// blockReader counts the bytes of a block read through it.
type blockReader struct {
	r io.Reader
	n int64
}

func (c *blockReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// unmarshal reads a record, turning a panic of the WARC library on a
// malformed record (it indexes a version line shorter than two bytes) into
// an error.
func unmarshal(u gowarc.Unmarshaler, r *bufio.Reader) (rec gowarc.WarcRecord, skip int64, val *gowarc.Validation, err error) {
	defer func() {
		if p := recover(); p != nil {
			rec, val, err = nil, nil, fmt.Errorf("malformed record: %v", p)
		}
	}()
	return u.Unmarshal(r)
}

func (w *warcRecords) finish(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if w.responses == 0 {
		detail := "no response records"
		if len(w.reported) > 0 {
			detail = "no readable response records"
		}
		w.report(Problem{Input: w.in.name, Offset: 0, Kind: ProblemEmpty, Detail: detail, Skipped: true})
	}
	return nil
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
func readHTTP(raw *bufio.Reader, c *Capture, buf []byte) ([]byte, error) {
	resp, err := http.ReadResponse(raw, nil)
	if err != nil {
		return buf, errors.New("not an HTTP response: " + err.Error())
	}
	defer resp.Body.Close()
	if !httpStatus(resp.StatusCode) {
		return buf, fmt.Errorf("not an HTTP response: status %d is not %s", resp.StatusCode, statusRange)
	}
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

// quoteShort quotes text from an input for a problem's detail, cut after
// 80 bytes: Go-quoted, so that none of its control characters reaches the
// terminal the problems are listed on.
func quoteShort(s string) string {
	if len(s) > 80 {
		return strconv.Quote(s[:80]) + "..."
	}
	return strconv.Quote(s)
}
