package sitemap

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"strings"

	"github.com/robotstxt-go/robotstxt/internal/grammar"
)

// The XML reader is a small streaming tokenizer, not encoding/xml: it
// reads the bytes between tags with one search for '<', keeps the text of
// the few elements a sitemap defines and nothing else, and never expands
// an entity declared in a DTD. It knows the element names of the four XML
// formats by their depth below the root:
//
//	urlset(1) url(2) loc|lastmod|changefreq|priority(3)
//	sitemapindex(1) sitemap(2) loc|lastmod(3)
//	rss(1) channel(2) item(3) link|pubDate(4)
//	feed(1) entry(2) link@href|updated(3)
//
// An element counts only with the root's namespace prefix, so that
// <image:loc> (depth 4 anyway) or <atom:link> inside an RSS item is not
// taken for the page's own. Extensions are read past like any other
// element.

const (
	// maxDepth bounds the nesting of elements: sitemaps with extensions
	// need 5 levels; a document nested deeper is no sitemap.
	maxDepth = 64
	// maxTag bounds a tag with its attributes.
	maxTag = 64 << 10
	// maxDecl bounds what is kept of an XML declaration, which needs
	// fewer than 100 bytes.
	maxDecl = 1 << 10
	// maxText bounds the text kept of one field: more than any URL under
	// MaxLocLen needs, even with entities.
	maxText = 4 * MaxLocLen
)

var errLongTag = errors.New("sitemap: tag too long")

// xmlReader is the state of reading one XML file.
type xmlReader struct {
	r     *Reader
	br    *bufio.Reader
	yield func(Entry, error) bool

	stack  []byte // the qualified names of the open elements, one after another
	ends   []int  // where each name in stack ends
	prefix string // the root's namespace prefix with its colon, or ""
	rooted bool   // the root element has been seen
	stop   bool   // reading ends: a finding stopped the file, or the consumer

	inDoctype bool // a DOCTYPE is being read
	begun     bool // the file's first markup has been read: no XML declaration follows

	cur        Entry
	inEntry    bool
	entryDepth int
	locLong    bool   // the entry's loc was longer than maxText
	locEntity  string // an entity the entry's loc has that cannot be decoded

	field      int // the field whose text is kept, or fieldNone
	fieldDepth int
	text       []byte
	textLong   bool
	textEntity string

	tag []byte // a tag that spans reads
}

// readXML reads an XML file.
func (r *Reader) readXML(yield func(Entry, error) bool) error {
	x := &xmlReader{r: r, br: r.br, yield: yield, text: make([]byte, 0, 256)}
	err := x.run()
	if err == io.EOF {
		x.atEOF()
		return nil
	}
	return err
}

// run reads text up to each '<' and the markup after it.
func (x *xmlReader) run() error {
	for !x.stop && !x.r.stopped {
		chunk, err := x.br.ReadSlice('<')
		x.lines(chunk)
		if x.field != fieldNone {
			t := chunk
			if err == nil {
				t = t[:len(t)-1]
			}
			x.addText(t, true)
		}
		switch err {
		case nil:
		case bufio.ErrBufferFull:
			continue
		default:
			return err
		}
		if err := x.markup(); err != nil {
			return err
		}
	}
	return nil
}

// atEOF reports a file that ends before its root element does.
func (x *xmlReader) atEOF() {
	switch {
	case x.stop || x.r.stopped:
	case x.inDoctype:
		x.r.find(x.r.line, UnknownRoot, "no root element: the file ends inside its DOCTYPE", "")
	case !x.rooted:
		x.r.find(x.r.line, UnknownRoot, "no root element", "")
	default:
		x.r.find(x.r.line, Truncated, "the file ends inside <"+string(x.top())+">", "")
	}
}

func (x *xmlReader) lines(b []byte) { x.r.line += bytes.Count(b, []byte{'\n'}) }

// invalid stops the file as malformed XML.
func (x *xmlReader) invalid(msg string) {
	x.r.find(x.r.line, InvalidXML, msg, "")
	x.stop = true
}

// markup reads what follows a '<'.
func (x *xmlReader) markup() error {
	first := !x.begun
	x.begun = true
	b, err := x.br.Peek(1)
	if err != nil {
		return err
	}
	switch b[0] {
	case '/':
		return x.endTag()
	case '!':
		return x.bang()
	case '?':
		x.br.Discard(1)
		if first {
			return x.declaration()
		}
		return x.skipPast("?>", false)
	}
	return x.startTag()
}

// declaration reads the processing instruction that begins a file: the
// XML declaration (XML 1.0 §2.8) when its target is "xml", whose encoding
// is checked, or any other, skipped. Like any PI it ends at the first
// "?>" (§2.6), and only its first maxDecl bytes are kept.
func (x *xmlReader) declaration() error {
	b, _ := x.br.Peek(4)
	if len(b) < 4 || string(b[:3]) != "xml" || !isSpace(b[3]) {
		return x.skipPast("?>", false)
	}
	x.tag = x.tag[:0]
	var last byte // the byte before b
	for {
		b, err := x.br.ReadSlice('>')
		x.lines(b)
		x.tag = append(x.tag, b[:min(len(b), maxDecl-len(x.tag))]...)
		switch err {
		case nil:
			if len(b) >= 2 && b[len(b)-2] == '?' || len(b) == 1 && last == '?' {
				if enc, ok := attr(x.tag[3:], "encoding"); ok {
					x.r.checkEncoding(x.r.line, "declared", enc)
				}
				return nil
			}
		case bufio.ErrBufferFull:
		default:
			return err
		}
		if len(b) > 0 {
			last = b[len(b)-1]
		}
	}
}

// bang reads a comment, a CDATA section or a DOCTYPE.
func (x *xmlReader) bang() error {
	if b, _ := x.br.Peek(3); bytes.HasPrefix(b, []byte("!--")) {
		x.br.Discard(3)
		return x.skipPast("-->", false)
	}
	b, err := x.br.Peek(8)
	switch {
	case bytes.HasPrefix(b, []byte("![CDATA[")):
		x.br.Discard(8)
		return x.cdata()
	case len(b) >= 8 && grammar.EqualFold(b[:8], "!DOCTYPE"):
		x.br.Discard(8)
		return x.doctype()
	case err != nil && err != io.EOF:
		return err
	}
	x.invalid("\"<!\" begins no comment, CDATA section or DOCTYPE")
	return nil
}

// cdata reads a CDATA section: text kept as it is, entities and all.
func (x *xmlReader) cdata() error {
	if x.field == fieldNone {
		return x.skipPast("]]>", false)
	}
	n := len(x.text)
	if err := x.skipPast("]]>", true); err != nil {
		return err
	}
	if !x.textLong && len(x.text) >= n+3 {
		x.text = x.text[:len(x.text)-3]
	}
	return nil
}

// skipPast reads up to and including end, keeping what it reads as text
// when keep is set.
func (x *xmlReader) skipPast(end string, keep bool) error {
	last := end[len(end)-1]
	var tail []byte
	for {
		b, err := x.br.ReadSlice(last)
		x.lines(b)
		if keep {
			x.addText(b, false)
		}
		tail = append(tail, b[max(0, len(b)-len(end)):]...)
		if len(tail) > len(end) {
			tail = append(tail[:0], tail[len(tail)-len(end):]...)
		}
		switch err {
		case nil:
			if string(tail) == end {
				return nil
			}
		case bufio.ErrBufferFull:
		default:
			return err
		}
	}
}

// doctype skips a DOCTYPE with its internal subset. The entities it
// declares are never expanded, so a "billion laughs" costs nothing: its
// references are reported where they are used. Quotes are tracked so that
// a '>' or ']' in a literal does not end it; a comment or a processing
// instruction in the internal subset is skipped whole (XML 1.0 §2.8:
// markupdecl includes Comment and PI), so that a quote in "<!-- it's -->"
// opens no literal. It reads in constant memory up to the file's end.
func (x *xmlReader) doctype() error {
	var name []byte
	depth, quote, naming := 0, byte(0), true
	x.inDoctype = true
	for {
		c, err := x.br.ReadByte()
		if err != nil {
			return err
		}
		if c == '\n' {
			x.r.line++
		}
		if naming {
			switch {
			case c == ' ' || c == '\t' || c == '\r' || c == '\n':
				naming = len(name) == 0
			case c == '[' || c == '>':
				naming = false
			default:
				if len(name) < 16 {
					name = append(name, c)
				}
			}
		}
		inQuote := quote != 0
		quote = nextQuote(quote, c)
		switch {
		case inQuote || quote != 0:
		case c == '<' && depth > 0:
			if err := x.subsetMarkup(); err != nil {
				return err
			}
		case c == '[':
			depth++
		case c == ']':
			depth--
		case c == '>' && depth <= 0:
			x.inDoctype = false
			if grammar.EqualFold(name, "html") {
				x.r.find(x.r.line, HTML, "an HTML page, not a sitemap", "")
				x.stop = true
				return nil
			}
			x.r.find(x.r.line, Doctype, "a DOCTYPE, skipped: the entities it declares are never expanded", "")
			return nil
		}
	}
}

// subsetMarkup skips a comment or a processing instruction that begins
// after a '<' in the internal subset; any other declaration is left to
// doctype, which reads its literals.
func (x *xmlReader) subsetMarkup() error {
	b, err := x.br.Peek(1)
	switch {
	case len(b) == 0:
		return err
	case b[0] == '?':
		x.br.Discard(1)
		return x.skipPast("?>", false)
	case b[0] != '!':
		return nil
	}
	if b, _ := x.br.Peek(3); bytes.HasPrefix(b, []byte("!--")) {
		x.br.Discard(3)
		return x.skipPast("-->", false)
	}
	return nil
}

// readTag reads a start tag up to its '>', which may not be inside a
// quoted attribute value.
func (x *xmlReader) readTag() ([]byte, error) {
	b, err := x.br.ReadSlice('>')
	quote := scanQuotes(0, b)
	if err == nil && quote == 0 {
		x.lines(b)
		return b, nil
	}
	x.tag = append(x.tag[:0], b...)
	for err == bufio.ErrBufferFull || err == nil && quote != 0 {
		if len(x.tag) > maxTag {
			return nil, errLongTag
		}
		b, err = x.br.ReadSlice('>')
		quote = scanQuotes(quote, b)
		x.tag = append(x.tag, b...)
	}
	x.lines(x.tag)
	return x.tag, err
}

// scanQuotes returns the quote open at the end of b when quote was open
// at its start (0: none).
func scanQuotes(quote byte, b []byte) byte {
	for _, c := range b {
		quote = nextQuote(quote, c)
	}
	return quote
}

// nextQuote returns the quote open after c when quote was open before it.
func nextQuote(quote, c byte) byte {
	switch {
	case quote != 0:
		if c == quote {
			return 0
		}
	case c == '"' || c == '\'':
		return c
	}
	return quote
}

// startTag reads a start tag or an empty-element tag.
func (x *xmlReader) startTag() error {
	tag, err := x.readTag()
	if err == errLongTag {
		x.invalid("a tag longer than 64 KiB")
		return nil
	}
	if err != nil {
		return err
	}
	tag = tag[:len(tag)-1]
	empty := len(tag) > 0 && tag[len(tag)-1] == '/'
	if empty {
		tag = tag[:len(tag)-1]
	}
	n := 0
	for n < len(tag) && !isSpace(tag[n]) {
		n++
	}
	name, attrs := tag[:n], tag[n:]
	if len(name) == 0 || !nameStart(name[0]) {
		x.invalid("\"<\" not followed by an element name")
		return nil
	}
	depth := len(x.ends) + 1
	if depth > maxDepth {
		x.r.find(x.r.line, TooDeep, "elements nested more than 64 deep", "")
		x.stop = true
		return nil
	}
	local, prefix := name, name[:0]
	if i := bytes.LastIndexByte(name, ':'); i >= 0 {
		local, prefix = name[i+1:], name[:i+1]
	}
	if depth == 1 {
		x.root(local, prefix)
	} else {
		x.element(depth, local, string(prefix) == x.prefix, attrs)
	}
	if x.stop {
		return nil
	}
	if empty {
		x.closed(depth)
		return nil
	}
	x.stack = append(x.stack, name...)
	x.ends = append(x.ends, len(x.stack))
	return nil
}

// isSpace reports whether c is XML white space (XML 1.0 §2.3).
func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// nameStart reports whether c can begin an XML name (ASCII letters, '_',
// ':', or any byte of a non-ASCII character).
func nameStart(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' || c == ':' || c >= 0x80
}

// top returns the name of the innermost open element.
func (x *xmlReader) top() []byte {
	n := len(x.ends)
	if n == 0 {
		return nil
	}
	start := 0
	if n > 1 {
		start = x.ends[n-2]
	}
	return x.stack[start:x.ends[n-1]]
}

// endTag reads an end tag and closes the innermost element, which it must
// name.
func (x *xmlReader) endTag() error {
	b, err := x.br.ReadSlice('>')
	if err == bufio.ErrBufferFull {
		x.invalid("an end tag longer than 64 KiB")
		return nil
	}
	if err != nil {
		return err
	}
	x.lines(b)
	name := b[1 : len(b)-1]
	for len(name) > 0 && isSpace(name[len(name)-1]) {
		name = name[:len(name)-1]
	}
	top := x.top()
	switch {
	case top == nil:
		x.invalid("</" + string(name) + "> closes no element")
	case !bytes.Equal(name, top):
		x.invalid("</" + string(name) + "> where </" + string(top) + "> was expected")
	default:
		depth := len(x.ends)
		x.ends = x.ends[:depth-1]
		x.stack = x.stack[:len(x.stack)-len(top)]
		x.closed(depth)
	}
	return nil
}

// root chooses the format by the root element.
func (x *xmlReader) root(local, prefix []byte) {
	x.rooted = true
	x.prefix = string(prefix)
	var k Kind
	switch string(local) {
	case "urlset":
		k = URLSet
	case "sitemapindex":
		k = Index
	case "rss":
		k = RSS
	case "feed":
		k = Atom
	default:
		if grammar.EqualFold(local, "html") {
			x.r.find(x.r.line, HTML, "an HTML page, not a sitemap", "")
		} else {
			x.r.find(x.r.line, UnknownRoot, "<"+string(local)+"> is the root of no sitemap format (urlset, sitemapindex, rss, feed)", "")
		}
		x.stop = true
		return
	}
	x.r.kind = k
	x.r.checkContentType(k)
}

// element opens an element below the root: an entry, or a field of the
// entry being read. own tells whether it has the root's prefix.
func (x *xmlReader) element(depth int, local []byte, own bool, attrs []byte) {
	if !own {
		return
	}
	name := string(local) // no copy: the compiler sees the comparisons only
	switch x.r.kind {
	case URLSet, Index:
		switch {
		case depth == 2 && (name == "url" && x.r.kind == URLSet || name == "sitemap" && x.r.kind == Index):
			x.beginEntry(depth)
		case depth == 3 && x.inEntry && name == "loc":
			x.beginField(fieldLoc, depth)
		case depth == 3 && x.inEntry && name == "lastmod":
			x.beginField(fieldLastMod, depth)
		case depth == 3 && x.inEntry && x.r.kind == URLSet && name == "changefreq":
			x.beginField(fieldFreq, depth)
		case depth == 3 && x.inEntry && x.r.kind == URLSet && name == "priority":
			x.beginField(fieldPriority, depth)
		}
	case RSS:
		switch {
		case depth == 3 && name == "item":
			x.beginEntry(depth)
		case depth == 4 && x.inEntry && name == "link":
			x.beginField(fieldLoc, depth)
		case depth == 4 && x.inEntry && name == "pubDate":
			x.beginField(fieldPubDate, depth)
		}
	case Atom:
		switch {
		case depth == 2 && name == "entry":
			x.beginEntry(depth)
		case depth == 3 && x.inEntry && name == "link":
			x.atomLink(attrs)
		case depth == 3 && x.inEntry && name == "updated":
			x.beginField(fieldLastMod, depth)
		}
	}
}

// atomLink takes the href of an Atom link that points to the entry itself
// (RFC 4287 §4.2.7.2: no rel, or rel="alternate"), the first one only.
func (x *xmlReader) atomLink(attrs []byte) {
	if x.cur.Loc != "" || x.locEntity != "" {
		return
	}
	if rel, ok := attr(attrs, "rel"); ok && strings.TrimSpace(string(rel)) != "alternate" {
		return
	}
	href, ok := attr(attrs, "href")
	if !ok {
		return
	}
	x.text, x.textLong, x.textEntity = x.text[:0], false, ""
	x.addText(href, true)
	x.field = fieldLoc
	x.endField()
}

// attr returns the raw value of the attribute named name in attrs.
func attr(attrs []byte, name string) ([]byte, bool) {
	for {
		attrs = bytes.TrimLeft(attrs, " \t\r\n")
		eq := bytes.IndexByte(attrs, '=')
		if eq < 0 {
			return nil, false
		}
		key := bytes.TrimRight(attrs[:eq], " \t\r\n")
		rest := bytes.TrimLeft(attrs[eq+1:], " \t\r\n")
		if len(rest) == 0 || rest[0] != '"' && rest[0] != '\'' {
			return nil, false
		}
		end := bytes.IndexByte(rest[1:], rest[0])
		if end < 0 {
			return nil, false
		}
		if string(key) == name {
			return rest[1 : 1+end], true
		}
		attrs = rest[2+end:]
	}
}

func (x *xmlReader) beginEntry(depth int) {
	x.inEntry, x.entryDepth = true, depth
	x.cur = Entry{Line: x.r.line}
	x.locLong, x.locEntity = false, ""
}

func (x *xmlReader) beginField(f, depth int) {
	x.field, x.fieldDepth = f, depth
	x.text, x.textLong, x.textEntity = x.text[:0], false, ""
}

// addText keeps text of the current field, with entities decoded unless
// it comes from a CDATA section.
func (x *xmlReader) addText(t []byte, decode bool) {
	if x.textLong || len(t) == 0 {
		return
	}
	if len(x.text)+len(t) > maxText {
		x.textLong = true
		return
	}
	if !decode || bytes.IndexByte(t, '&') < 0 {
		x.text = append(x.text, t...)
		return
	}
	var bad string
	var raw bool
	x.text, bad, raw = decodeEntities(x.text, t)
	if bad != "" && x.textEntity == "" {
		x.textEntity = bad
	}
	if raw {
		x.r.find(x.r.line, RawAmp, "a \"&\" that begins no entity (sitemaps.org asks for &amp;): kept as written", "")
	}
}

// closed ends the element at depth: a field, an entry, or the root.
func (x *xmlReader) closed(depth int) {
	if x.field != fieldNone && depth == x.fieldDepth {
		x.endField()
	}
	if x.inEntry && depth == x.entryDepth {
		x.endEntry()
	}
	if depth == 1 {
		x.stop = true // the document is over; what follows is not read
	}
}

// endField stores the text of the field just closed in the entry.
func (x *xmlReader) endField() {
	f := x.field
	x.field = fieldNone
	if f == fieldLoc {
		if x.cur.Loc == "" && !x.locLong && x.locEntity == "" {
			x.locLong = x.textLong
			x.locEntity = x.textEntity
			x.cur.Loc = string(bytes.TrimSpace(x.text))
		}
		return
	}
	b := bytes.TrimSpace(x.text)
	if x.textEntity != "" || x.textLong {
		b = []byte{0} // fails every check below
	}
	line := x.r.line
	switch f {
	case fieldLastMod:
		if validLastMod(string(b)) {
			x.cur.LastMod = string(b)
		} else {
			x.r.find(line, BadLastMod, "lastmod "+quote(b)+" is no W3C Datetime: ignored", "")
		}
	case fieldPubDate:
		if t, ok := pubDate(string(b)); ok {
			x.cur.LastMod = t
		} else {
			x.r.find(line, BadLastMod, "pubDate "+quote(b)+" is no RFC 822 date: ignored", "")
		}
	case fieldFreq:
		if v, ok := changeFreq(b); ok {
			x.cur.ChangeFreq = v
		} else {
			x.r.find(line, BadFreq, "changefreq "+quote(b)+" is none of always, hourly, daily, weekly, monthly, yearly, never: ignored", "")
		}
	case fieldPriority:
		if validPriority(b) {
			x.cur.Priority = string(b)
		} else {
			x.r.find(line, BadPriority, "priority "+quote(b)+" is not from 0.0 to 1.0: ignored", "")
		}
	}
}

// quote returns s quoted for a message, shortened.
func quote(b []byte) string {
	s := string(b)
	if len(s) > 40 {
		s = s[:40] + "…"
	}
	return "\"" + strings.ToValidUTF8(s, "?") + "\""
}

// endEntry checks the entry just closed and yields it.
func (x *xmlReader) endEntry() {
	x.inEntry = false
	switch {
	case x.locLong:
		x.r.find(x.cur.Line, LongLoc, "a URL longer than "+itoa(maxText)+" bytes: dropped", "")
	case x.locEntity != "":
		x.r.find(x.cur.Line, Entity, "the URL has the entity "+x.locEntity+", which is neither XML's nor a character reference (a DTD's entities are never expanded): dropped", "")
	default:
		if !x.r.emit(x.cur, x.yield) {
			x.stop = true
		}
	}
}
