package lint

import (
	"bytes"
	"compress/gzip"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fileLevel returns the finding of rep about the whole file (HTML,
// UTF-16, binary data), or nil.
func fileLevelFinding(rep *Report) *Error {
	for _, e := range rep.Findings {
		if e.Severity == SeverityError && (errors.Is(e, ErrHTML) || errors.Is(e, ErrEncoding)) {
			return e
		}
	}
	return nil
}

// checkNotRobots is the seam between NotRobots, which fetch and the CLI
// ask of every body, and Diagnose: both say the same of body, down to the
// finding.
func checkNotRobots(t *testing.T, name string, body []byte) error {
	t.Helper()
	got := NotRobots(body)
	want := fileLevelFinding(Diagnose(body))
	switch {
	case got == nil && want == nil:
	case got == nil || want == nil:
		t.Errorf("%s: NotRobots = %v, Diagnose's file-level finding = %v", name, got, want)
	case got.Error() != want.Error() || !errors.Is(got, want.Err):
		t.Errorf("%s: NotRobots = %v, Diagnose says %v", name, got, want)
	}
	return got
}

// TestNotRobots: what a fetcher must not take for a robots.txt (#27: 5 MB
// of random bytes passed as one, a gzip-compressed robots.txt served
// without Content-Encoding was caught 231 times in 245, random 8 KiB
// bodies 401 in 500), and what it must.
func TestNotRobots(t *testing.T) {
	var gz bytes.Buffer
	w := gzip.NewWriter(&gz)
	w.Write([]byte("User-agent: *\nDisallow: /private/\n"))
	w.Close()
	tests := []struct {
		body   string
		want   error
		reason string
	}{
		{"User-agent: *\nDisallow: /\n", nil, "a robots.txt"},
		{"", nil, "an empty body is an empty robots.txt"},
		{"User-agent: *\n\x00Disallow: /x\n", nil, "one NUL is reported on its line, not as binary data"},
		{"\xef\xbb\xbfUser-agent: *\n", nil, "a byte order mark"},
		{"# Ä Ö Ü in Latin-1: \xc4 \xd6 \xdc\nUser-agent: *\n", nil, "bytes that are not UTF-8 are reported line by line"},
		{gz.String(), ErrEncoding, "a gzip stream served without Content-Encoding"},
		{"\x1f\x8b", ErrEncoding, "the gzip magic number alone"},
		{"\x28\xb5\x2f\xfd\x04\x00", ErrEncoding, "a zstd stream"},
		{"\xff\xfeU\x00s\x00e\x00r\x00", ErrEncoding, "UTF-16 with a byte order mark"},
		{"U\x00s\x00e\x00r\x00-\x00a\x00g\x00e\x00n\x00t\x00:\x00 \x00*\x00", ErrEncoding, "UTF-16 without a byte order mark: half NULs"},
		{"\r\n  \n<!DOCTYPE html>\n<html><title>404</title></html>", ErrHTML, "an HTML page after blank lines"},
		{"\xef\xbb\xbf<html><body>Not found</body></html>", ErrHTML, "an HTML page after a byte order mark"},
		{"<Disallow: /x", nil, "'<' without an HTML tag"},
		{"<https://example.com/sitemap.xml>\nUser-agent: *\n", nil, "'<' then a URL: no tag name ends before ':'"},
		// The rule for markup: past a byte order mark, whitespace and
		// HTML comments, the body starts with a tag or an XML
		// declaration. A comment alone is one line the parser skips
		// (RFC 9309 §2.3.1.5: crawlers use the rules they can parse), and
		// the rules after it apply.
		{"<!-- managed by CMS -->\nUser-agent: *\nDisallow: /x\n", nil, "an HTML comment, then rules: a robots.txt whose first line is skipped"},
		{"<!-- managed by CMS -->\n<html><body>Not found</body></html>", ErrHTML, "an HTML comment, then a page"},
		{"<!--\n-->\n\n<script language=\"Javascript\">\nloc = document.URL;\n</script>", ErrHTML, "a script page after a comment (www.ingrammicro.com's /robots.txt in the corpus)"},
		{"\n\n<p>hello</p>", ErrHTML, "an HTML fragment: a tag, and no <html>"},
		{"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n<url><loc>https://example.com/</loc></url>\n</urlset>\n", ErrHTML, "an XML sitemap served as robots.txt"},
		{"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>", ErrHTML, "a storage service's XML error (scifri-segments.s3.amazonaws.com's /robots.txt in the corpus)"},
		{"<xsl:stylesheet version=\"1.0\">", ErrHTML, "an element with a namespace prefix"},
		{"<sitemapindex>", ErrHTML, "a bare XML root element"},
	}
	for _, tt := range tests {
		got := checkNotRobots(t, tt.reason, []byte(tt.body))
		if tt.want == nil && got != nil || tt.want != nil && !errors.Is(got, tt.want) {
			t.Errorf("%s: NotRobots = %v, want %v", tt.reason, got, tt.want)
		}
	}
}

// TestNotRobotsXML: an XML document that is no HTML page is named as one;
// an XHTML page, which starts with an XML declaration, is an HTML page.
func TestNotRobotsXML(t *testing.T) {
	tests := []struct{ body, want string }{
		{"<?xml version=\"1.0\"?>\n<urlset><url><loc>https://example.com/</loc></url></urlset>", "XML document"},
		{"<?xml version=\"1.0\"?>\n<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\"><body/></html>", "HTML page"},
		{"<urlset>", "HTML page"}, // without a declaration, an element is taken for HTML
	}
	for _, tt := range tests {
		err := checkNotRobots(t, tt.body, []byte(tt.body))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("NotRobots(%q) = %v, want a finding naming an %s", tt.body, err, tt.want)
		}
	}
}

// TestNotRobotsRandom: every body of random bytes is binary data, at the
// sizes a fetcher meets (#27 item 8): 500 bodies of 8 KiB, and 5 MB.
func TestNotRobotsRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(28, 8))
	body := make([]byte, 8<<10)
	for i := range 500 {
		for j := range body {
			body[j] = byte(rng.Uint32())
		}
		if err := NotRobots(body); !errors.Is(err, ErrEncoding) {
			t.Fatalf("random body %d: NotRobots = %v, want binary data", i, err)
		}
		if i < 20 {
			checkNotRobots(t, "random 8 KiB", body)
		}
	}
	big := make([]byte, 5<<20)
	for j := range big {
		big[j] = byte(rng.Uint32())
	}
	if err := NotRobots(big); !errors.Is(err, ErrEncoding) {
		t.Errorf("5 MB of random bytes: NotRobots = %v, want binary data", err)
	}
}

// TestNotRobotsCorpus: over the real files, NotRobots says what Diagnose
// says; every file gzip-compressed is binary data. The files of the
// corpus that are no robots.txt (HTML pages, images, UTF-16) are counted.
func TestNotRobotsCorpus(t *testing.T) {
	dir := needShared(t, filepath.Join("corpus", "real"))
	names, err := filepath.Glob(filepath.Join(dir, "*"))
	if err != nil {
		t.Fatal(err)
	}
	var html, enc int
	for _, n := range names {
		body, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		switch err := checkNotRobots(t, n, body); {
		case errors.Is(err, ErrHTML):
			html++
		case errors.Is(err, ErrEncoding):
			enc++
		}
		var gz bytes.Buffer
		w := gzip.NewWriter(&gz)
		w.Write(body)
		w.Close()
		if err := NotRobots(gz.Bytes()); !errors.Is(err, ErrEncoding) {
			t.Errorf("%s gzip-compressed: NotRobots = %v, want binary data", n, err)
		}
	}
	t.Logf("%d files: %d HTML pages, %d binary or UTF-16", len(names), html, enc)
}

// FuzzNotRobots holds NotRobots to Diagnose's file-level finding on any
// body, as fetch meets them.
func FuzzNotRobots(f *testing.F) {
	for _, s := range []string{"User-agent: *\nDisallow: /\n", "\x1f\x8b\x08", "\xff\xfeU\x00", "\r\n<html>", "\xef\xbb<head>", "\x00\x01\x02\x03\x04\x05\x06\x07\x08\x0e\x0f\x10\x11\x12\x13\x14\x15"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		checkNotRobots(t, "fuzz", body)
	})
}

// TestNotRobotsLargeUTF16: the finding on a UTF-16 body larger than the
// head NotRobots reads for binary data is Diagnose's, down to what the file
// would hold as UTF-8.
func TestNotRobotsLargeUTF16(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("\xff\xfe")
	for i := range 500 {
		for _, c := range []byte("User-agent: *\nDisallow: /p" + string(rune('a'+i%26)) + "\n") {
			b.WriteByte(c)
			b.WriteByte(0)
		}
	}
	if err := checkNotRobots(t, "UTF-16", b.Bytes()); !errors.Is(err, ErrEncoding) || !strings.Contains(err.Error(), "500 rules") {
		t.Errorf("NotRobots = %v, want UTF-16 holding 500 rules", err)
	}
}

// TestNotRobotsAllocs: asking it of a robots.txt allocates nothing, as its
// documentation says.
func TestNotRobotsAllocs(t *testing.T) {
	body := []byte("\xef\xbb\xbf\n# robots\nUser-agent: *\nDisallow: /private/\n" + strings.Repeat("Allow: /a/b/c\n", 500))
	if n := testing.AllocsPerRun(100, func() {
		if NotRobots(body) != nil {
			t.Fatal("a robots.txt taken for none")
		}
	}); n != 0 {
		t.Errorf("NotRobots of a robots.txt: %v allocations, want 0", n)
	}
}
