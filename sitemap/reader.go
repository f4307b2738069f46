package sitemap

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"iter"
	"mime"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/robotstxt-go/robotstxt/internal/grammar"
)

// Options configure a [Reader]. The zero value of each field picks its
// default.
type Options struct {
	// URL is the file's URL: the Sitemap of its entries and findings, the
	// name that says ".gz", and the directory that [InScope] allows when
	// Allow is nil.
	URL string

	// ContentType is the Content-Type the file was served with, if known.
	// One that does not fit what the bytes are gives a ContentType
	// finding; the bytes decide how the file is read.
	ContentType string

	// MaxURLs bounds the entries read (default [MaxURLs]); MaxBytes bounds
	// the bytes read once decompressed (default [MaxBytes]). Past either,
	// the file stops with a finding.
	MaxURLs  int
	MaxBytes int64

	// Allow reports whether the file may list loc; nil means
	// InScope(URL, loc). Entries it refuses are reported (Outside) and
	// dropped.
	Allow func(loc string) bool

	// Seen finds duplicates; nil means a set of this file's URLs only. A
	// crawler reading many files passes one set to all of them.
	Seen *Seen

	// OnFinding, when not nil, is called with each finding as it is found,
	// before the entries that follow it are yielded.
	OnFinding func(Finding)

	// MaxFindings bounds the findings that [Reader.Findings] keeps
	// (default 100); the others are counted.
	MaxFindings int
}

// A Reader reads the entries of one sitemap file from a stream. It holds
// one entry and a 64 KiB buffer at a time. Create it with [NewReader]; it
// is not safe for concurrent use.
type Reader struct {
	o          Options
	src        *source
	br         *bufio.Reader
	kind       Kind
	compressed bool
	seen       *Seen
	line       int  // the current line of the decompressed file, from 1
	cr         bool // a text line ended at CR: an LF next ends no line
	n          int  // entries yielded
	findings   []Finding
	nFindings  int
	stopped    bool
	used       bool
}

// bufSize is the read buffer: the longest text line, and the longest run
// of bytes without a '<', read in one piece.
const bufSize = 64 << 10

// NewReader returns a Reader of the file read from r, configured by o (nil:
// defaults, and entries in no directory are allowed, so pass at least URL).
func NewReader(r io.Reader, o *Options) *Reader {
	rd := &Reader{src: &source{r: r}, line: 1}
	if o != nil {
		rd.o = *o
	}
	if rd.o.MaxURLs <= 0 {
		rd.o.MaxURLs = MaxURLs
	}
	if rd.o.MaxBytes <= 0 {
		rd.o.MaxBytes = MaxBytes
	}
	if rd.o.MaxFindings <= 0 {
		rd.o.MaxFindings = 100
	}
	if rd.o.Allow == nil {
		prefix, ok := Prefix(rd.o.URL)
		rd.o.Allow = func(loc string) bool { return ok && Under(prefix, loc) }
	}
	rd.seen = rd.o.Seen
	if rd.seen == nil {
		rd.seen = NewSeen(rd.o.MaxURLs)
	}
	return rd
}

// All returns an iterator over the entries of the file, in file order. It
// yields a non-nil error only when reading the stream fails (the network,
// a closed body), and then stops; what is wrong with the file itself is a
// finding. The file can be read once: a second call yields nothing.
func (r *Reader) All() iter.Seq2[Entry, error] {
	return func(yield func(Entry, error) bool) {
		if r.used {
			return
		}
		r.used = true
		err := r.read(yield)
		if err != nil {
			yield(Entry{}, err)
		}
	}
}

// Kind returns the format of the file, known once All has begun to yield.
func (r *Reader) Kind() Kind { return r.kind }

// Compressed reports whether the file was gzip-compressed.
func (r *Reader) Compressed() bool { return r.compressed }

// Count returns the number of entries yielded.
func (r *Reader) Count() int { return r.n }

// Findings returns the first findings (Options.MaxFindings of them).
func (r *Reader) Findings() []Finding { return r.findings }

// FindingCount returns the number of findings, those not kept included.
func (r *Reader) FindingCount() int { return r.nFindings }

// Stopped reports whether the file was stopped by a finding before its end.
func (r *Reader) Stopped() bool { return r.stopped }

// errTooLarge is what the limited stream returns past MaxBytes, and
// errBinary at a NUL byte among its first sniffLen bytes.
var (
	errTooLarge = errors.New("sitemap: too large")
	errBinary   = errors.New("sitemap: binary data")
)

// sniffLen is how far into a file a NUL byte says binary data rather than
// text: the 512 bytes that net/http.DetectContentType considers. A sitemap
// in UTF-8 has no NUL byte; an image, an archive or UTF-16 without a
// byte-order mark has one early.
const sniffLen = 512

// read sniffs the format and reads the file with the reader for it. It
// returns the error of the underlying stream, if any. The sniff reads no
// byte it does not need: the three of a byte-order mark, and the white
// space up to the first other byte, which tells XML ('<') from text; so
// that a file's first entries are yielded as soon as they have come, how
// slowly the rest may come.
func (r *Reader) read(yield func(Entry, error) bool) error {
	in, err := r.decompress()
	if in == nil {
		return err
	}
	r.br = bufio.NewReaderSize(&limited{r: in, max: r.o.MaxBytes}, bufSize)
	head, err := r.br.Peek(3)
	if len(head) == 0 && err != nil {
		return r.streamErr(err)
	}
	switch {
	case bytes.HasPrefix(head, []byte("\xEF\xBB\xBF")):
		r.find(1, BOM, "a UTF-8 byte-order mark, skipped", "")
		r.br.Discard(3)
	case bytes.HasPrefix(head, []byte("\xFE\xFF")), bytes.HasPrefix(head, []byte("\xFF\xFE")):
		r.find(1, UTF16, "a UTF-16 byte-order mark: sitemaps are UTF-8", "")
		return nil
	case r.compressed && bytes.HasPrefix(head, gzipMagic):
		r.find(1, Binary, "gzip inside gzip: not read", "")
		return nil
	}
	if r.firstByte() == '<' {
		err = r.readXML(yield)
	} else {
		err = r.readText(yield)
	}
	return r.streamErr(err)
}

// firstByte returns the first byte that is not white space, reading up
// to it and no further, or 0 when there is none in the buffer's reach.
func (r *Reader) firstByte() byte {
	for i := 0; ; i++ {
		b, _ := r.br.Peek(i + 1)
		if len(b) <= i {
			return 0
		}
		if !isSpace(b[i]) {
			return b[i]
		}
	}
}

// gzipMagic begins every gzip stream (RFC 1952 §2.3.1).
var gzipMagic = []byte{0x1f, 0x8b}

// decompress returns the stream of the file's bytes: decompressed when it
// begins with the gzip magic bytes, whatever its name. It returns nil when
// nothing can be read, with the stream's error if there was one.
func (r *Reader) decompress() (io.Reader, error) {
	var magic [2]byte
	n, err := io.ReadFull(r.src, magic[:])
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return nil, err
	}
	in := io.MultiReader(bytes.NewReader(magic[:n]), r.src)
	p := urlPath(r.o.URL)
	gzName := len(p) >= 3 && grammar.EqualFold(p[len(p)-3:], ".gz")
	if n < 2 || !bytes.Equal(magic[:], gzipMagic) {
		if gzName {
			r.find(0, GzipName, "named .gz but not gzip-compressed: read as it is", "")
		}
		return in, nil
	}
	r.compressed = true
	gz, err := gzip.NewReader(in)
	if err != nil {
		if err = r.streamErr(err); err == nil {
			r.find(0, BadGzip, "a gzip header that cannot be read", "")
		}
		return nil, err
	}
	return gz, nil
}

// streamErr sorts an error of reading: the source's own failure is
// returned; the limit and a broken gzip stream become findings.
func (r *Reader) streamErr(err error) error {
	switch {
	case err == nil || err == io.EOF:
		return nil
	case errors.Is(err, errBinary):
		r.find(r.line, Binary, "a NUL byte in the first "+itoa(sniffLen)+" bytes: binary data, not a sitemap", "")
		return nil
	case errors.Is(err, errTooLarge):
		r.find(r.line, TooLarge, "more than "+itoa(r.o.MaxBytes)+" bytes once decompressed: the rest is not read", "")
		return nil
	case r.src.err != nil && errors.Is(err, r.src.err):
		return r.src.err
	case r.compressed:
		r.find(r.line, BadGzip, "the gzip stream is broken: "+err.Error(), "")
		return nil
	}
	return err
}

// urlPath returns the path of a URL, or "" when it cannot be parsed.
func urlPath(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return u.Path
}

// find records a finding.
func (r *Reader) find(line int, c Code, msg, u string) {
	f := Finding{Sitemap: r.o.URL, Line: line, Code: c, Message: msg, URL: u}
	r.nFindings++
	if len(r.findings) < r.o.MaxFindings {
		r.findings = append(r.findings, f)
	}
	if c.Stops() {
		r.stopped = true
	}
	if r.o.OnFinding != nil {
		r.o.OnFinding(f)
	}
}

// emit checks an entry and yields it. It reports whether reading goes on.
func (r *Reader) emit(e Entry, yield func(Entry, error) bool) bool {
	switch {
	case e.Loc == "":
		r.find(e.Line, NoLoc, "an entry without a URL: dropped", "")
	case len(e.Loc) >= MaxLocLen:
		r.find(e.Line, LongLoc, "a URL of "+itoa(int64(len(e.Loc)))+" bytes, not under 2,048: dropped", e.Loc[:64]+"…")
	case !validLoc(e.Loc):
		r.find(e.Line, BadLoc, "not an absolute http or https URL: dropped", e.Loc)
	case !utf8.ValidString(e.Loc):
		r.find(e.Line, Encoding, "a URL whose bytes are not UTF-8 (sitemaps.org requires UTF-8): dropped", string(grammar.AppendEscaped(nil, []byte(e.Loc))))
	case !r.o.Allow(e.Loc):
		r.find(e.Line, Outside, "outside what "+r.o.URL+" may list: dropped", e.Loc)
	case r.n >= r.o.MaxURLs:
		r.find(e.Line, TooManyURLs, "more than "+itoa(int64(r.o.MaxURLs))+" URLs: the rest is not read", "")
		return false
	case !r.seen.Add(e.Loc):
		r.find(e.Line, Duplicate, "listed before: dropped", e.Loc)
	default:
		r.n++
		e.Sitemap = r.o.URL
		return yield(e, nil)
	}
	return true
}

// validLoc reports whether loc can be an absolute http or https URL as
// sitemaps.org asks for it: with a host, and no spaces or control
// characters (those must be %-escaped). Whether its bytes are UTF-8 is
// the next check.
func validLoc(loc string) bool {
	var rest string
	switch {
	case grammar.HasPrefixFold(loc, "https://"):
		rest = loc[len("https://"):]
	case grammar.HasPrefixFold(loc, "http://"):
		rest = loc[len("http://"):]
	default:
		return false
	}
	if rest == "" || rest[0] == '/' || rest[0] == '?' || rest[0] == '#' {
		return false
	}
	for i := 0; i < len(loc); i++ {
		if c := loc[i]; c <= ' ' || c == 0x7f {
			return false
		}
	}
	return true
}

// checkEncoding reports an encoding label (an XML declaration's encoding,
// a Content-Type's charset) that does not name UTF-8. sitemaps.org: "The
// Sitemap must be UTF-8 encoded"; the file is read as UTF-8 whatever its
// label, so that a file labelled wrongly but written in UTF-8, or in
// ASCII, loses nothing, and a URL whose bytes are not UTF-8 is dropped
// with its own finding.
func (r *Reader) checkEncoding(line int, what string, label []byte) {
	if isUTF8Label(label) {
		return
	}
	r.find(line, Encoding, what+" "+quote(label)+": sitemaps.org requires UTF-8; read as UTF-8", "")
}

// isUTF8Label reports whether an encoding label names UTF-8 or US-ASCII,
// its subset. Labels match without case (XML 1.0 §4.3.3); "utf8" is one
// of the WHATWG Encoding Standard's labels of UTF-8
// (https://encoding.spec.whatwg.org/#names-and-labels).
func isUTF8Label(label []byte) bool {
	label = bytes.TrimSpace(label)
	return grammar.EqualFold(label, "utf-8") || grammar.EqualFold(label, "utf8") || grammar.EqualFold(label, "us-ascii")
}

// checkContentType reports a Content-Type that does not fit a file of kind
// k.
func (r *Reader) checkContentType(k Kind) {
	if r.o.ContentType == "" {
		return
	}
	mt, params, err := mime.ParseMediaType(r.o.ContentType)
	if err != nil {
		r.find(0, ContentType, "a Content-Type that cannot be read: "+r.o.ContentType, "")
		return
	}
	if cs, ok := params["charset"]; ok {
		r.checkEncoding(0, "served with charset", []byte(cs))
	}
	if r.compressed && (mt == "application/gzip" || mt == "application/x-gzip" || mt == "application/octet-stream") {
		return
	}
	xml := mt == "application/xml" || mt == "text/xml" || strings.HasSuffix(mt, "+xml")
	fits := map[Kind]bool{URLSet: xml, Index: xml, RSS: xml, Atom: xml, Text: mt == "text/plain"}[k]
	if !fits {
		r.find(0, ContentType, "served as "+mt+" but read as "+k.String(), "")
	}
}

// source remembers the error of the stream it reads, so that it can be
// told from the errors of the layers above it.
type source struct {
	r   io.Reader
	err error
}

func (s *source) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	if err != nil && err != io.EOF {
		s.err = err
	}
	return n, err
}

// limited reads at most max bytes of r, then fails with errTooLarge if
// there are more. A NUL byte among the first sniffLen bytes ends it with
// errBinary: the bytes before it are read, so that where the file stops
// does not depend on how the stream is cut into reads.
type limited struct {
	r      io.Reader
	n, max int64
	nul    bool
}

func (l *limited) Read(p []byte) (int, error) {
	if l.nul {
		return 0, errBinary
	}
	if l.n >= l.max {
		var b [1]byte
		n, err := l.r.Read(b[:])
		if n > 0 {
			return 0, errTooLarge
		}
		return 0, err
	}
	if rem := l.max - l.n; int64(len(p)) > rem {
		p = p[:rem]
	}
	n, err := l.r.Read(p)
	if l.n < sniffLen {
		if i := bytes.IndexByte(p[:min(int64(n), sniffLen-l.n)], 0); i >= 0 {
			l.n += int64(i)
			l.nul = true
			return i, errBinary
		}
	}
	l.n += int64(n)
	return n, err
}
