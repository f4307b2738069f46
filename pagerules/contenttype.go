package pagerules

import (
	"mime"
	"net/http"
	"strconv"
	"strings"
)

// This file decides whether a response is read for robots meta tags, from
// its Content-Type header. A crawler reads the header the way a browser
// does, so that a noindex a browser's page carries is not missed because
// its header is untidy: the rules of WHATWG Fetch, "extract a MIME type"
// (https://fetch.spec.whatwg.org/#concept-header-extract-mime-type).

// ContentType is what the Content-Type header of a response says about
// reading its body for robots meta tags.
type ContentType struct {
	// MediaType is the media type in effect, lower case, such as
	// "text/html"; "" when the header is absent or none of its values
	// names a media type.
	MediaType string
	// HTML reports whether the body is read for robots meta tags: the
	// media type is text/html or application/xhtml+xml, or there is none
	// (a crawler sniffs such a body, as a browser does, and the meta tag
	// reader reads anything).
	HTML bool
	// Malformed says in plain words what is wrong with the header and how
	// it was read, quoting the header and the media type read escaped (at
	// most MaxQuotedBytes of each); "" when the header is absent or well
	// formed.
	Malformed string
}

// MaxQuotedBytes is how much of a malformed header [ContentType.Malformed]
// quotes.
const MaxQuotedBytes = 100

// ReadContentType reads the Content-Type of response header h as a
// browser does (WHATWG Fetch, "extract a MIME type"): the field lines
// joined, split at the commas outside quoted strings, and the last value
// that names a media type (type/subtype, not */*) in effect. A value whose
// parameters do not parse ("text/html; charset") keeps its media type.
// Every such departure from RFC 9110 §8.3, which allows one media type
// with well-formed parameters, is described in Malformed.
func ReadContentType(h http.Header) ContentType {
	lines := h.Values("Content-Type")
	if len(lines) == 0 || len(lines) == 1 && trimWS(lines[0]) == "" {
		return ContentType{HTML: true}
	}
	joined := strings.Join(lines, ", ")
	var ct ContentType
	values, badParams := 0, false
	for i := 0; i <= len(joined); {
		end := nextOutsideQuotes(joined, i, ',')
		values++
		if mt, ok := mediaType(joined[i:end]); mt != "" {
			ct.MediaType, badParams = mt, !ok
		}
		i = end + 1
	}
	ct.HTML = ct.MediaType == "" || ct.MediaType == "text/html" || ct.MediaType == "application/xhtml+xml"
	var read string
	switch {
	case ct.MediaType == "":
		read = "names no media type: read as HTML, as a response without a Content-Type is"
	case values > 1:
		read = "holds " + strconv.Itoa(values) + " values where one is allowed (RFC 9110 §8.3): read as " + quoteCut(ct.MediaType) +
			", the last that names a media type, as browsers read it (WHATWG Fetch, extract a MIME type)"
	case badParams:
		read = "has a parameter that does not parse (RFC 9110 §5.6.6): read as " + quoteCut(ct.MediaType) + ", its media type"
	default:
		return ct
	}
	ct.Malformed = "Content-Type " + quoteCut(joined) + " is malformed: it " + read
	return ct
}

// mediaType returns the media type of one Content-Type value, lower case,
// and whether the whole value parses; "" when it names no media type.
func mediaType(v string) (string, bool) {
	typ, _, _ := strings.Cut(v, ";")
	mt, _, err := mime.ParseMediaType(typ)
	if err != nil || mt == "*/*" || !strings.Contains(mt, "/") {
		return "", false
	}
	_, _, err = mime.ParseMediaType(v)
	return mt, err == nil
}

// quoteCut quotes s as a Go string, cut to MaxQuotedBytes, so that a
// remote server's bytes reach no terminal unescaped.
func quoteCut(s string) string {
	if len(s) <= MaxQuotedBytes {
		return strconv.Quote(s)
	}
	return strconv.Quote(s[:MaxQuotedBytes]) + "..."
}
