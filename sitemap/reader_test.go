package sitemap_test

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
	"github.com/robotstxt-go/robotstxt/sitemap"
)

const (
	smURL = "https://example.com/sitemap.xml"
	ns    = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`
)

// read reads doc fully and returns the locs and the codes of the
// findings.
func read(t *testing.T, doc []byte, o sitemap.Options) ([]string, []sitemap.Code, *sitemap.Reader) {
	t.Helper()
	if o.URL == "" {
		o.URL = smURL
	}
	r := sitemap.NewReader(bytes.NewReader(doc), &o)
	var locs []string
	for e, err := range r.All() {
		if err != nil {
			t.Fatalf("All: %v", err)
		}
		locs = append(locs, e.Loc)
	}
	var codes []sitemap.Code
	for _, f := range r.Findings() {
		codes = append(codes, f.Code)
	}
	return locs, codes, r
}

func gz(s string) []byte {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write([]byte(s))
	w.Close()
	return b.Bytes()
}

func urls(locs ...string) string {
	s := `<?xml version="1.0" encoding="UTF-8"?>` + "\n" + ns + "\n"
	for _, l := range locs {
		s += "<url><loc>" + l + "</loc></url>\n"
	}
	return s + "</urlset>\n"
}

func TestReader(t *testing.T) {
	billion := `<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
` + ns + `<url><loc>&lol9;</loc></url><url><loc>https://example.com/ok</loc></url></urlset>`
	tests := []struct {
		name   string
		doc    []byte
		o      sitemap.Options
		locs   []string
		codes  []sitemap.Code
		kind   sitemap.Kind
		reason string
	}{
		{"urlset", []byte(urls("https://example.com/a", "https://example.com/b")), sitemap.Options{},
			[]string{"https://example.com/a", "https://example.com/b"}, nil, sitemap.URLSet, "sitemaps.org XML format"},
		{"entity-escaped amp", []byte(urls("https://example.com/p?a=1&amp;b=2&#38;c=&#x33;")), sitemap.Options{},
			[]string{"https://example.com/p?a=1&b=2&c=3"}, nil, sitemap.URLSet, "sitemaps.org Entity escaping: &amp; and character references"},
		{"utf-8 loc", []byte(urls("https://example.com/ümlaut/日本")), sitemap.Options{},
			[]string{"https://example.com/ümlaut/日本"}, nil, sitemap.URLSet, "sitemaps.org: the file is UTF-8; the URL is read as written"},
		{"raw amp kept", []byte(urls("https://example.com/p?a=1&b=2")), sitemap.Options{},
			[]string{"https://example.com/p?a=1&b=2"}, []sitemap.Code{sitemap.RawAmp}, sitemap.URLSet, "an unescaped & is malformed XML, but unambiguous: kept, reported"},
		{"prefixed root", []byte(`<sm:urlset xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9"><sm:url><sm:loc>https://example.com/a</sm:loc></sm:url></sm:urlset>`),
			sitemap.Options{}, []string{"https://example.com/a"}, nil, sitemap.URLSet, "the sitemap namespace under a prefix"},
		{"cdata", []byte(ns + `<url><loc><![CDATA[https://example.com/a&amp;b]]></loc></url></urlset>`), sitemap.Options{},
			[]string{"https://example.com/a&amp;b"}, nil, sitemap.URLSet, "XML 1.0 §2.7: CDATA is text as written"},
		{"comments and PI", []byte(`<?xml version="1.0"?><!-- <url><loc>https://example.com/no</loc></url> -->` + ns + `<!-- x --><url><loc>https://example.com/a</loc></url><?pi x?></urlset>`),
			sitemap.Options{}, []string{"https://example.com/a"}, nil, sitemap.URLSet, "markup inside comments is not read"},
		{"extensions", []byte(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="i" xmlns:video="v" xmlns:news="n" xmlns:xhtml="http://www.w3.org/1999/xhtml">
<url><loc>https://example.com/a</loc>
 <xhtml:link rel="alternate" hreflang="de" href="https://example.com/de/a"/>
 <image:image><image:loc>https://cdn.example/i.png</image:loc><image:caption>a &gt; b</image:caption></image:image>
 <video:video><video:thumbnail_loc>https://cdn.example/t.jpg</video:thumbnail_loc><video:title>T</video:title><video:content_loc>https://cdn.example/v.mp4</video:content_loc><video:price currency="EUR">1.99</video:price></video:video>
 <news:news><news:publication><news:name>N</news:name><news:language>en</news:language></news:publication><news:publication_date>2026-11-01</news:publication_date><news:title>T</news:title></news:news>
</url></urlset>`), sitemap.Options{}, []string{"https://example.com/a"}, nil, sitemap.URLSet,
			"Google's image, video, news and hreflang extensions are skipped without error"},
		{"attribute with >", []byte(ns + `<url x="a>b"><loc>https://example.com/a</loc></url></urlset>`), sitemap.Options{},
			[]string{"https://example.com/a"}, nil, sitemap.URLSet, "XML 1.0 §3.1: > may appear in an attribute value"},
		{"index", []byte(`<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>https://example.com/s1.xml</loc><lastmod>2026-01-01</lastmod></sitemap></sitemapindex>`),
			sitemap.Options{}, []string{"https://example.com/s1.xml"}, nil, sitemap.Index, "sitemaps.org Using Sitemap index files"},
		{"text", []byte("https://example.com/a\r\n\n  https://example.com/b  \nnot a url\n"), sitemap.Options{},
			[]string{"https://example.com/a", "https://example.com/b"}, []sitemap.Code{sitemap.BadLoc}, sitemap.Text, "sitemaps.org Text file: one URL per line"},
		{"text, CR line ends", []byte("https://example.com/a\rhttps://example.com/b\r\r  https://example.com/c"), sitemap.Options{},
			[]string{"https://example.com/a", "https://example.com/b", "https://example.com/c"}, nil, sitemap.Text, "a line ends at CR, LF or CRLF, as XML 1.0 §2.11 and RFC 9309 §2.2 read them"},
		{"declared ISO-8859-1", []byte(`<?xml version="1.0" encoding="ISO-8859-1"?>` + ns + "<url><loc>https://example.com/a</loc></url><url><loc>https://example.com/caf\xe9</loc></url></urlset>"), sitemap.Options{},
			[]string{"https://example.com/a"}, []sitemap.Code{sitemap.Encoding, sitemap.Encoding}, sitemap.URLSet,
			"sitemaps.org: the file must be UTF-8; read as UTF-8, an ASCII URL is kept and one that is not UTF-8 dropped, each reported"},
		{"declared latin1, UTF-8 bytes", []byte(`<?xml version='1.0' encoding='latin1' standalone='yes'?>` + ns + "<url><loc>https://example.com/café</loc></url></urlset>"), sitemap.Options{},
			[]string{"https://example.com/café"}, []sitemap.Code{sitemap.Encoding}, sitemap.URLSet,
			"the bytes decide, as for Content-Type: a file labelled wrongly but written in UTF-8 keeps its URLs"},
		{"Latin-1 bytes undeclared", []byte(urls("https://example.com/caf\xe9")), sitemap.Options{},
			nil, []sitemap.Code{sitemap.Encoding}, sitemap.URLSet, "a URL that is not UTF-8 is an encoding finding, not a bad URL"},
		{"declared UTF-8", []byte(`<?xml version="1.0" encoding="utf-8"?>` + ns + "<url><loc>https://example.com/a</loc></url></urlset>"), sitemap.Options{ContentType: "text/xml; charset=UTF-8"},
			[]string{"https://example.com/a"}, nil, sitemap.URLSet, "XML 1.0 §4.3.3: encoding names match without case"},
		{"charset ISO-8859-1", []byte("https://example.com/a\n"), sitemap.Options{ContentType: "text/plain; charset=ISO-8859-1"},
			[]string{"https://example.com/a"}, []sitemap.Code{sitemap.Encoding}, sitemap.Text, "RFC 9110 §8.3.2: the charset a server declares is reported when it is not UTF-8"},
		{"unbalanced quote in the declaration", []byte(`<?xml version="1.0 encoding='ISO-8859-1'?>` + ns + "<url><loc>https://example.com/a</loc></url></urlset>"), sitemap.Options{},
			[]string{"https://example.com/a"}, nil, sitemap.URLSet, "XML 1.0 §2.6: a PI ends at the first ?>, quotes or not"},
		{"xml PI not first", []byte(`<!-- x --><?xml encoding="ISO-8859-1"?>` + ns + "<url><loc>https://example.com/a</loc></url></urlset>"), sitemap.Options{},
			[]string{"https://example.com/a"}, nil, sitemap.URLSet, "XML 1.0 §2.8: only the file's first markup can be its declaration"},
		{"text with BOM", []byte("\xEF\xBB\xBFhttps://example.com/a\n"), sitemap.Options{},
			[]string{"https://example.com/a"}, []sitemap.Code{sitemap.BOM}, sitemap.Text, "a BOM is a finding, then skipped"},
		{"xml with BOM", []byte("\xEF\xBB\xBF" + urls("https://example.com/a")), sitemap.Options{},
			[]string{"https://example.com/a"}, []sitemap.Code{sitemap.BOM}, sitemap.URLSet, "a BOM is a finding, then skipped"},
		{"rss", []byte(`<?xml version="1.0"?><rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom"><channel><title>T</title><link>https://example.com/</link>
<atom:link href="https://example.com/feed" rel="self"/>
<item><title>A</title><link>https://example.com/a</link><pubDate>Mon, 02 Nov 2026 10:00:00 +0000</pubDate><atom:link href="https://example.com/no"/></item>
<item><link>https://example.com/b</link></item></channel></rss>`), sitemap.Options{},
			[]string{"https://example.com/a", "https://example.com/b"}, nil, sitemap.RSS, "sitemaps.org Syndication feed: RSS 2.0 <item><link>"},
		{"atom", []byte(`<feed xmlns="http://www.w3.org/2005/Atom"><title>T</title><link href="https://example.com/"/>
<entry><link rel="edit" href="https://example.com/edit/a"/><link href="https://example.com/a"/><updated>2026-11-02T10:00:00Z</updated></entry>
<entry><link rel="alternate" href="https://example.com/b?x=1&amp;y=2"/></entry></feed>`), sitemap.Options{},
			[]string{"https://example.com/a", "https://example.com/b?x=1&y=2"}, nil, sitemap.Atom, "sitemaps.org Syndication feed: Atom 1.0 <entry><link href>"},
		{"html page", []byte("<!DOCTYPE html>\n<html><head><title>Not found</title></head><body><a href=\"/\">home</a></body></html>"), sitemap.Options{},
			nil, []sitemap.Code{sitemap.HTML}, sitemap.Unknown, "an HTML page where the sitemap should be: a finding, not a crash"},
		{"html without doctype", []byte("<html><body>x</body></html>"), sitemap.Options{},
			nil, []sitemap.Code{sitemap.HTML}, sitemap.Unknown, "an HTML page where the sitemap should be"},
		{"wrong content type", []byte(urls("https://example.com/a")), sitemap.Options{ContentType: "text/html; charset=utf-8"},
			[]string{"https://example.com/a"}, []sitemap.Code{sitemap.ContentType}, sitemap.URLSet, "the bytes decide; the header is reported"},
		{"fitting content type", []byte(urls("https://example.com/a")), sitemap.Options{ContentType: "application/xml; charset=UTF-8"},
			[]string{"https://example.com/a"}, nil, sitemap.URLSet, "application/xml fits"},
		{"utf-16", []byte("\xFF\xFE<\x00u\x00"), sitemap.Options{}, nil, []sitemap.Code{sitemap.UTF16}, sitemap.Unknown, "sitemaps.org: UTF-8 only"},
		{"binary", []byte("\x00\x01\x02garbage"), sitemap.Options{}, nil, []sitemap.Code{sitemap.Binary}, sitemap.Unknown, "NUL bytes are no sitemap"},
		{"NUL after an entry", []byte(ns + "<url><loc>https://example.com/a</loc></url>\x00<url><loc>https://example.com/b</loc></url></urlset>"), sitemap.Options{},
			[]string{"https://example.com/a"}, []sitemap.Code{sitemap.Binary}, sitemap.URLSet, "the NUL check stops the file where the NUL is, so that entries need not wait for 512 bytes"},
		{"NUL at byte 512", []byte(ns + strings.Repeat(" ", 511-len(ns)) + "\x00<url><loc>https://example.com/a</loc></url></urlset>"), sitemap.Options{},
			nil, []sitemap.Code{sitemap.Binary}, sitemap.URLSet, "the 512th byte is sniffed for binary data"},
		{"NUL at byte 513", []byte(ns + strings.Repeat(" ", 512-len(ns)) + "\x00<url><loc>https://example.com/a</loc></url></urlset>"), sitemap.Options{},
			[]string{"https://example.com/a"}, nil, sitemap.URLSet, "only the first 512 bytes are sniffed for binary data"},
		{"text cut by MaxBytes", []byte("https://example.com/a\nhttps://example.com/bcdefgh\n"), sitemap.Options{MaxBytes: 30},
			[]string{"https://example.com/a"}, []sitemap.Code{sitemap.TooLarge}, sitemap.Text, "a line the limit cuts is not an entry: its URL would be cut short"},
		{"gzip inside gzip", gz(string(gz(urls("https://example.com/a")))), sitemap.Options{}, nil, []sitemap.Code{sitemap.Binary}, sitemap.Unknown, "one layer of gzip is read, no more"},
		{"gzip by magic", gz(urls("https://example.com/a")), sitemap.Options{}, []string{"https://example.com/a"}, nil, sitemap.URLSet, "gzip found by its magic bytes, whatever the name"},
		{"gzip by name and magic", gz(urls("https://example.com/a")), sitemap.Options{URL: "https://example.com/sitemap.xml.gz", ContentType: "application/gzip"},
			[]string{"https://example.com/a"}, nil, sitemap.URLSet, "sitemaps.org: gzip-compressed sitemaps"},
		{"gz name, plain bytes", []byte(urls("https://example.com/a")), sitemap.Options{URL: "https://example.com/sitemap.xml.gz"},
			[]string{"https://example.com/a"}, []sitemap.Code{sitemap.GzipName}, sitemap.URLSet, "a server that decompressed it already: read as it is, reported"},
		{"broken gzip", gz(urls("https://example.com/a"))[:40], sitemap.Options{}, nil, []sitemap.Code{sitemap.BadGzip}, sitemap.Unknown, "a cut gzip stream is a finding"},
		{"invalid xml in the middle", []byte(ns + `<url><loc>https://example.com/a</loc></url><url><loc>https://example.com/b</lo></url><url><loc>https://example.com/c</loc></url></urlset>`),
			sitemap.Options{}, []string{"https://example.com/a"}, []sitemap.Code{sitemap.InvalidXML}, sitemap.URLSet, "stop the file, keep what was valid"},
		{"stray <", []byte(ns + `<url><loc>https://example.com/a</loc></url>< url></urlset>`), sitemap.Options{},
			[]string{"https://example.com/a"}, []sitemap.Code{sitemap.InvalidXML}, sitemap.URLSet, "XML 1.0 §3.1: a name follows <"},
		{"truncated", []byte(ns + `<url><loc>https://example.com/a</loc></url><url><loc>https://exa`), sitemap.Options{},
			[]string{"https://example.com/a"}, []sitemap.Code{sitemap.Truncated}, sitemap.URLSet, "a file cut short keeps its complete entries"},
		{"unknown root", []byte(`<foo><loc>https://example.com/a</loc></foo>`), sitemap.Options{}, nil, []sitemap.Code{sitemap.UnknownRoot}, sitemap.Unknown, "no sitemap format"},
		{"entity expansion", []byte(billion), sitemap.Options{}, []string{"https://example.com/ok"}, []sitemap.Code{sitemap.Doctype, sitemap.Entity}, sitemap.URLSet,
			"billion laughs: DTD entities are never expanded"},
		{"quote in a DOCTYPE comment", []byte(`<!DOCTYPE urlset [ <!-- it's --> ]>` + ns + `<url><loc>https://example.com/a</loc></url></urlset>`), sitemap.Options{},
			[]string{"https://example.com/a"}, []sitemap.Code{sitemap.Doctype}, sitemap.URLSet, "XML 1.0 §2.5: a comment in the internal subset is no quoted literal"},
		{"quote in a DOCTYPE PI", []byte(`<!DOCTYPE urlset [ <?pi don't ?> ]>` + ns + `<url><loc>https://example.com/a</loc></url></urlset>`), sitemap.Options{},
			[]string{"https://example.com/a"}, []sitemap.Code{sitemap.Doctype}, sitemap.URLSet, "XML 1.0 §2.6: a processing instruction in the internal subset is no quoted literal"},
		{"brackets in a DOCTYPE comment", []byte(`<!DOCTYPE urlset [ <!-- ]> --> <!ENTITY e "it's ]>"> <?pi ]> ?> ]>` + ns + `<url><loc>https://example.com/a</loc></url></urlset>`), sitemap.Options{},
			[]string{"https://example.com/a"}, []sitemap.Code{sitemap.Doctype}, sitemap.URLSet, "XML 1.0 §2.8: ] and > in a comment, a PI or a literal do not end the internal subset"},
		{"quote in a PI before the root", []byte(`<?xml version="1.0"?><?pi don't ?><!DOCTYPE urlset><?pi don't ?>` + ns + `<url><loc>https://example.com/a</loc></url></urlset>`), sitemap.Options{},
			[]string{"https://example.com/a"}, []sitemap.Code{sitemap.Doctype}, sitemap.URLSet, "XML 1.0 §2.6: PIs in the prolog, around the DOCTYPE"},
		{"unterminated comment in a DOCTYPE", []byte(`<!DOCTYPE urlset [ <!-- ` + urls("https://example.com/a")), sitemap.Options{},
			nil, []sitemap.Code{sitemap.UnknownRoot}, sitemap.Unknown, "the file ends inside its DOCTYPE: no root element, reported"},
		{"all DOCTYPE", []byte(`<!DOCTYPE urlset [` + strings.Repeat(`<!ENTITY a "b"><!-- c --><?d e?>`, 5000)), sitemap.Options{},
			nil, []sitemap.Code{sitemap.UnknownRoot}, sitemap.Unknown, "a DOCTYPE that never ends is read to the file's end, no further"},
		{"huge PI", []byte(`<?pi ` + strings.Repeat("'\"<>", 100000) + `?>` + ns + `<url><loc>https://example.com/a</loc></url></urlset>`), sitemap.Options{},
			[]string{"https://example.com/a"}, nil, sitemap.URLSet, "a PI is skipped in constant memory, whatever its length"},
		{"too deep", []byte(ns + strings.Repeat("<a>", 100) + strings.Repeat("</a>", 100) + `</urlset>`), sitemap.Options{}, nil, []sitemap.Code{sitemap.TooDeep}, sitemap.URLSet, "nesting is bounded"},
		{"outside", []byte(urls("https://example.com/a", "https://other.example/a", "http://example.com/a", "https://example.com:8443/a", "https://example.com/x/../../etc")),
			sitemap.Options{URL: "https://example.com/sitemap.xml"}, []string{"https://example.com/a"},
			[]sitemap.Code{sitemap.Outside, sitemap.Outside, sitemap.Outside, sitemap.Outside}, sitemap.URLSet, "sitemaps.org Sitemap file location: same host, scheme, port; dot segments refused"},
		{"directory", []byte(urls("https://example.com/catalog/a", "https://example.com/catalogue", "https://EXAMPLE.com/catalog/b")),
			sitemap.Options{URL: "https://example.com/catalog/sitemap.xml"}, []string{"https://example.com/catalog/a", "https://EXAMPLE.com/catalog/b"},
			[]sitemap.Code{sitemap.Outside}, sitemap.URLSet, "sitemaps.org: a sitemap in /catalog/ lists /catalog/ only; host compared without case"},
		{"allow given", []byte(urls("https://other.example/a")), sitemap.Options{Allow: func(string) bool { return true }},
			[]string{"https://other.example/a"}, nil, sitemap.URLSet, "cross-submission is the caller's to know"},
		{"duplicate", []byte(urls("https://example.com/a", "https://example.com/a")), sitemap.Options{}, []string{"https://example.com/a"}, []sitemap.Code{sitemap.Duplicate}, sitemap.URLSet, "duplicates found"},
		{"bad locs", []byte(urls("/relative", "ftp://example.com/a", "https://", "https://example.com/a b", "")),
			sitemap.Options{Allow: func(string) bool { return true }}, nil,
			[]sitemap.Code{sitemap.BadLoc, sitemap.BadLoc, sitemap.BadLoc, sitemap.BadLoc, sitemap.NoLoc}, sitemap.URLSet, "sitemaps.org: absolute URLs, escaped"},
		{"long loc", []byte(urls("https://example.com/" + strings.Repeat("a", 2100))), sitemap.Options{}, nil, []sitemap.Code{sitemap.LongLoc}, sitemap.URLSet, "sitemaps.org: less than 2,048 characters"},
		{"too many urls", []byte(urls("https://example.com/1", "https://example.com/2", "https://example.com/3", "https://example.com/4")), sitemap.Options{MaxURLs: 2},
			[]string{"https://example.com/1", "https://example.com/2"}, []sitemap.Code{sitemap.TooManyURLs}, sitemap.URLSet, "50,000 URLs per file, enforced"},
		{"too large", []byte(urls("https://example.com/1", "https://example.com/2", "https://example.com/3")), sitemap.Options{MaxBytes: 170},
			[]string{"https://example.com/1"}, []sitemap.Code{sitemap.TooLarge}, sitemap.URLSet, "50 MB per file, enforced"},
		{"text too many", []byte("https://example.com/1\nhttps://example.com/2\nhttps://example.com/3\n"), sitemap.Options{MaxURLs: 2},
			[]string{"https://example.com/1", "https://example.com/2"}, []sitemap.Code{sitemap.TooManyURLs}, sitemap.Text, "50,000 URLs per text file"},
		{"long text line", []byte("https://example.com/" + strings.Repeat("a", 70000) + "\nhttps://example.com/b\n"), sitemap.Options{},
			[]string{"https://example.com/b"}, []sitemap.Code{sitemap.LongLine}, sitemap.Text, "a line past the buffer is skipped"},
		{"empty", nil, sitemap.Options{}, nil, nil, sitemap.Unknown, "an empty file lists nothing"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			locs, codes, r := read(t, tt.doc, tt.o)
			if diff := cmp.Diff(tt.locs, locs); diff != "" {
				t.Errorf("locs mismatch (-want +got) (%s):\n%s", tt.reason, diff)
			}
			if diff := cmp.Diff(tt.codes, codes); diff != "" {
				t.Errorf("findings mismatch (-want +got) (%s):\n%s\n%v", tt.reason, diff, r.Findings())
			}
			if r.Kind() != tt.kind {
				t.Errorf("Kind = %v, want %v (%s)", r.Kind(), tt.kind, tt.reason)
			}
		})
	}
}

func TestReaderFields(t *testing.T) {
	doc := ns + `
<url>
  <loc> https://example.com/a </loc>
  <lastmod>2026-11-01T10:30:00.5+01:00</lastmod>
  <changefreq>Weekly</changefreq>
  <priority>0.8</priority>
</url>
<url><loc>https://example.com/b</loc><lastmod>01/11/2026</lastmod><changefreq>sometimes</changefreq><priority>1.5</priority></url>
</urlset>`
	r := sitemap.NewReader(strings.NewReader(doc), &sitemap.Options{URL: smURL})
	var got []sitemap.Entry
	for e, err := range r.All() {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, e)
	}
	want := []sitemap.Entry{
		{Loc: "https://example.com/a", LastMod: "2026-11-01T10:30:00.5+01:00", ChangeFreq: "weekly", Priority: "0.8", Sitemap: smURL, Line: 2},
		{Loc: "https://example.com/b", Sitemap: smURL, Line: 8},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("entries mismatch (-want +got):\n%s", diff)
	}
	var codes []sitemap.Code
	for _, f := range r.Findings() {
		codes = append(codes, f.Code)
		if f.Line != 8 {
			t.Errorf("finding %v: line %d, want 8", f, f.Line)
		}
	}
	if want := []sitemap.Code{sitemap.BadLastMod, sitemap.BadFreq, sitemap.BadPriority}; !slices.Equal(codes, want) {
		t.Errorf("findings %v, want %v", codes, want)
	}
}

// TestReaderCompressed checks that Compressed tells a gzip stream, found by
// its magic bytes, from a plain one, once the file is read.
func TestReaderCompressed(t *testing.T) {
	for _, tt := range []struct {
		doc  []byte
		want bool
	}{{[]byte(urls("https://example.com/a")), false}, {gz(urls("https://example.com/a")), true}} {
		r := sitemap.NewReader(bytes.NewReader(tt.doc), &sitemap.Options{URL: smURL})
		if got := readAll(t, r); len(got) != 1 || r.Compressed() != tt.want {
			t.Errorf("entries %q, Compressed %v; want one entry and %v", got, r.Compressed(), tt.want)
		}
	}
}

// TestReaderFreqFold checks that changefreq is compared ignoring ASCII case
// only, the repository's one fold (internal/grammar): "wee\u212Aly" holds
// the Kelvin sign, which Unicode folds to k, and is no changefreq.
func TestReaderFreqFold(t *testing.T) {
	doc := ns + "<url><loc>https://example.com/a</loc><changefreq>wee\u212Aly</changefreq></url></urlset>"
	r := sitemap.NewReader(strings.NewReader(doc), &sitemap.Options{URL: smURL})
	for e, err := range r.All() {
		if err != nil || e.ChangeFreq != "" {
			t.Errorf("entry %+v, %v: want no changefreq", e, err)
		}
	}
	var codes []sitemap.Code
	for _, f := range r.Findings() {
		codes = append(codes, f.Code)
	}
	if want := []sitemap.Code{sitemap.BadFreq}; !slices.Equal(codes, want) {
		t.Errorf("findings %v, want %v", codes, want)
	}
}

// TestReaderStreamError checks that a failing stream is an error, not a
// finding, and that what came before it is kept.
func TestReaderStreamError(t *testing.T) {
	boom := errors.New("connection reset")
	doc := urls("https://example.com/a", "https://example.com/b")
	src := io.MultiReader(strings.NewReader(doc[:len(doc)-40]), iotest.ErrReader(boom))
	r := sitemap.NewReader(src, &sitemap.Options{URL: smURL})
	var locs []string
	var gotErr error
	for e, err := range r.All() {
		if err != nil {
			gotErr = err
			break
		}
		locs = append(locs, e.Loc)
	}
	if !errors.Is(gotErr, boom) || !slices.Equal(locs, []string{"https://example.com/a"}) {
		t.Errorf("got %v, %v; want [https://example.com/a], %v", locs, gotErr, boom)
	}
	for range r.All() {
		t.Error("a second All yields")
	}
}

// TestReaderBreak checks that the consumer can stop early.
func TestReaderBreak(t *testing.T) {
	r := sitemap.NewReader(strings.NewReader(urls("https://example.com/a", "https://example.com/b")), &sitemap.Options{URL: smURL})
	for range r.All() {
		break
	}
	if r.Count() != 1 {
		t.Errorf("Count = %d, want 1", r.Count())
	}
}

// TestReaderOneByte reads through a stream that gives one byte at a time,
// so that every tag, entity and CDATA section spans reads.
func TestReaderOneByte(t *testing.T) {
	doc := `<?xml version="1.0"?><!-- a -- b --><!DOCTYPE urlset [<!ENTITY x "y">]>` + ns +
		`<url a="x>y"><loc><![CDATA[https://example.com/a]]></loc></url><url><loc>https://example.com/b?c=1&amp;d=2</loc></url></urlset>`
	r := sitemap.NewReader(iotest.OneByteReader(strings.NewReader(doc)), &sitemap.Options{URL: smURL})
	var locs []string
	for e, err := range r.All() {
		if err != nil {
			t.Fatal(err)
		}
		locs = append(locs, e.Loc)
	}
	if want := []string{"https://example.com/a", "https://example.com/b?c=1&d=2"}; !slices.Equal(locs, want) {
		t.Errorf("locs %v, want %v; findings %v", locs, want, r.Findings())
	}
}

// TestReaderTextLines checks the line of each entry of a text sitemap
// whose lines end in CR, LF and CRLF: each of the three ends one line, and
// CRLF one only.
func TestReaderTextLines(t *testing.T) {
	doc := "https://example.com/1\rhttps://example.com/2\nhttps://example.com/3\r\n\r\n\n\rhttps://example.com/7\r\r\nhttps://example.com/9"
	for _, cut := range []bool{false, true} {
		var src io.Reader = strings.NewReader(doc)
		if cut {
			src = iotest.OneByteReader(src)
		}
		r := sitemap.NewReader(src, &sitemap.Options{URL: smURL})
		var got []string
		for e, err := range r.All() {
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, fmt.Sprintf("%d %s", e.Line, e.Loc))
		}
		want := []string{"1 https://example.com/1", "2 https://example.com/2", "3 https://example.com/3", "7 https://example.com/7", "9 https://example.com/9"}
		if !slices.Equal(got, want) {
			t.Errorf("one byte at a time %v: %q, want %q", cut, got, want)
		}
	}
}

// TestReaderEncodingFinding checks what an encoding finding says: the
// label declared, and a URL that is not UTF-8 with its bytes %-escaped, so
// that the finding is printable text.
func TestReaderEncodingFinding(t *testing.T) {
	doc := `<?xml version="1.0" encoding="ISO-8859-1"?>` + ns + "<url><loc>https://example.com/caf\xe9</loc></url></urlset>"
	_, _, r := read(t, []byte(doc), sitemap.Options{})
	var got []string
	for _, f := range r.Findings() {
		got = append(got, f.String())
	}
	want := []string{
		smURL + `:1: encoding: declared "ISO-8859-1": sitemaps.org requires UTF-8; read as UTF-8`,
		smURL + `:1: encoding: a URL whose bytes are not UTF-8 (sitemaps.org requires UTF-8): dropped (https://example.com/caf%E9)`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("findings mismatch (-want +got):\n%s", diff)
	}
}
