package pagerules

import (
	"mime"
	"net/http"
	"strings"
	"testing"
)

// The sources of the rows.
const (
	rfc9110 = "RFC 9110"
	whatwg  = "fetch.spec.whatwg.org/#concept-header-extract-mime-type"
)

var contentTypeTests = []struct {
	why       string
	lines     []string // the Content-Type field lines
	mediaType string
	html      bool
	malformed bool
}{
	{"no Content-Type: sniffed, so read", nil, "", true, false},
	{"an empty Content-Type is none", []string{""}, "", true, false},
	{rfc9110 + " §8.3.1 text/html", []string{"text/html"}, "text/html", true, false},
	{rfc9110 + " §8.3.1 with a charset", []string{"text/html; charset=utf-8"}, "text/html", true, false},
	{rfc9110 + " §8.3.1 case and white space do not matter", []string{"Text/HTML ; Charset=UTF-8"}, "text/html", true, false},
	{rfc9110 + " §8.3.1 a quoted parameter may hold a comma", []string{`text/html; x="a,b"`}, "text/html", true, false},
	{"XHTML is HTML", []string{"application/xhtml+xml"}, "application/xhtml+xml", true, false},
	{"a PDF is not read", []string{"application/pdf"}, "application/pdf", false, false},
	{rfc9110 + " §5.6.6 a parameter without a value: the media type stands", []string{"text/html; charset"}, "text/html", true, true},
	{rfc9110 + " §5.6.6 empty parameters: the media type stands", []string{"text/html; charset=utf-8;;"}, "text/html", true, true},
	{rfc9110 + " §5.6.6 an unterminated quoted string: the media type stands", []string{`text/html; charset="utf-8`}, "text/html", true, true},
	{rfc9110 + " §5.6.6 a parameter without a name: the media type stands", []string{"text/html; =utf-8"}, "text/html", true, true},
	{"a duplicate parameter: the media type stands", []string{"text/html; charset=utf-8; charset=latin1"}, "text/html", true, true},
	{rfc9110 + " §8.3 one value: two merged on one line", []string{"text/html,text/html"}, "text/html", true, true},
	{rfc9110 + " §8.3 one value: two field lines", []string{"text/html", "text/html"}, "text/html", true, true},
	{rfc9110 + " §8.3 one value: a trailing comma", []string{"text/html;charset=utf-8,"}, "text/html", true, true},
	{whatwg + " the last value that parses wins", []string{"text/plain, text/html"}, "text/html", true, true},
	{whatwg + " the last value that parses wins, across field lines", []string{"text/html", "application/pdf"}, "application/pdf", false, true},
	{whatwg + " a value that names no media type is skipped", []string{"text/html, nonsense"}, "text/html", true, true},
	{whatwg + " */* is skipped", []string{"text/html, */*"}, "text/html", true, true},
	{"a malformed parameter of a type that is not HTML", []string{"application/pdf; x"}, "application/pdf", false, true},
	{"no media type: read as with no Content-Type", []string{"nonsense"}, "", true, true},
	{"no media type in any value: read as with no Content-Type", []string{",,"}, "", true, true},
	{"control bytes are quoted, never passed on", []string{"text/html; \x1b[31m"}, "text/html", true, true},
}

func TestReadContentType(t *testing.T) {
	for _, tt := range contentTypeTests {
		if tt.why == "" {
			t.Errorf("row %q says not why it exists", tt.lines)
		}
		h := http.Header{}
		for _, l := range tt.lines {
			h.Add("Content-Type", l)
		}
		ct := ReadContentType(h)
		if ct.MediaType != tt.mediaType || ct.HTML != tt.html || (ct.Malformed != "") != tt.malformed {
			t.Errorf("%s\nReadContentType(%q) = %+v, want media type %q, HTML %v, malformed %v",
				tt.why, tt.lines, ct, tt.mediaType, tt.html, tt.malformed)
		}
		if strings.ContainsFunc(ct.Malformed, func(r rune) bool { return r < ' ' || r == 0x7f }) {
			t.Errorf("%s\nMalformed %q holds a control character", tt.why, ct.Malformed)
		}
	}
}

// FuzzReadContentType: any header reads without panicking; HTML follows
// from the media type alone; a single value that parses whole is not
// malformed; and what Malformed says is escaped and bounded.
func FuzzReadContentType(f *testing.F) {
	for _, tt := range contentTypeTests {
		if len(tt.lines) > 0 {
			f.Add(tt.lines[0], strings.Join(tt.lines[1:], ""))
		}
	}
	f.Fuzz(func(t *testing.T, v, second string) {
		h := http.Header{"Content-Type": {v}}
		if second != "" {
			h.Add("Content-Type", second)
		}
		ct := ReadContentType(h)
		mt := ct.MediaType
		if ct.HTML != (mt == "" || mt == "text/html" || mt == "application/xhtml+xml") {
			t.Errorf("%q: HTML %v for media type %q", h["Content-Type"], ct.HTML, mt)
		}
		if whole, _, err := mime.ParseMediaType(v); second == "" && err == nil && strings.Contains(whole, "/") && whole != "*/*" &&
			!strings.Contains(v, ",") && (mt != whole || ct.Malformed != "") {
			t.Errorf("%q parses as %q, read as %+v", v, whole, ct)
		}
		if strings.ContainsFunc(ct.Malformed, func(r rune) bool { return r < ' ' || r == 0x7f }) || len(ct.Malformed) > 4*MaxQuotedBytes+400 {
			t.Errorf("Malformed %q: control characters, or too long", ct.Malformed)
		}
	})
}
