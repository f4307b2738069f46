package robotstxt

import (
	"fmt"
	"net/url"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// This file holds slow reference versions of the parser and the matcher,
// written from SPEC.md for readability above speed, in the spirit of
// parseIPSlow in net/netip. They share no code with lexer.go, parse.go,
// agent.go, group.go or match.go, so that the property and fuzz tests can
// hold the fast code against them.

// slowMatch reports whether pattern matches a prefix of path (SPEC §5):
// '*' matches any run of bytes, a '$' that is the last byte of the pattern
// anchors the end of the path, and every other byte, '$' included, matches
// itself. It is the textbook dynamic programme over (pattern position, path
// position), keeping one row of the table at a time: row[j] says whether the
// pattern so far can match path[:j] exactly.
func slowMatch(pattern, path string) bool {
	anchored := strings.HasSuffix(pattern, "$")
	if anchored {
		pattern = pattern[:len(pattern)-1]
	}
	row := make([]bool, len(path)+1)
	next := make([]bool, len(path)+1)
	row[0] = true // the empty pattern matches the empty path
	for i := 0; i < len(pattern); i++ {
		for j := 0; j <= len(path); j++ {
			if pattern[i] == '*' {
				// The star matches nothing, or path[j-1] and maybe more.
				next[j] = row[j] || (j > 0 && next[j-1])
			} else {
				next[j] = j > 0 && row[j-1] && pattern[i] == path[j-1]
			}
		}
		row, next = next, row
	}
	if anchored {
		return row[len(path)]
	}
	for j := 0; j <= len(path); j++ {
		if row[j] {
			return true // pattern matches path[:j], a prefix
		}
	}
	return false
}

// slowPathOf returns the path, params and query of a URL, step by step as
// SPEC §5 words it.
func slowPathOf(url string) string {
	// Skip a leading "//".
	s := strings.TrimPrefix(url, "//")
	// "://" ends a scheme only if it comes before the first '/', '?' or ';'.
	firstSep := len(s)
	for i := 0; i < len(s); i++ {
		if s[i] == '/' || s[i] == '?' || s[i] == ';' {
			firstSep = i
			break
		}
	}
	afterScheme := 0
	if i := strings.Index(s, "://"); i >= 0 && i < firstSep {
		afterScheme = i + 3
	}
	// The path starts at the next '/', '?' or ';' ...
	start := -1
	for i := afterScheme; i < len(s); i++ {
		if s[i] == '/' || s[i] == '?' || s[i] == ';' {
			start = i
			break
		}
	}
	if start < 0 {
		return "/" // ... and is "/" when there is none ...
	}
	hash := strings.IndexByte(s, '#')
	if hash >= 0 && hash < start {
		return "/" // ... or when a '#' comes first.
	}
	// It ends at the first '#'.
	end := len(s)
	if hash >= 0 {
		end = hash
	}
	path := s[start:end]
	// Google's parser matches the path as a C string: it ends at a NUL.
	if nul := strings.IndexByte(path, 0); nul >= 0 {
		path = path[:nul]
	}
	// A leading '?' or ';' gets '/' in front.
	if path[0] != '/' {
		path = "/" + path
	}
	return path
}

// slowRule is an Allow or Disallow line as the slow parser sees it.
type slowRule struct {
	line    int
	allow   bool
	pattern string // normalised (SPEC §3)
	text    string // the value as written
}

// slowOther is a line of a group with any other key.
type slowOther struct {
	line       int
	key, value string
}

// slowGroup is one group of the file: the agents its User-agent lines name
// and what follows them.
type slowGroup struct {
	global bool     // some User-agent line is "*"
	tokens []string // the other User-agent lines, reduced to their token
	rules  []slowRule
	others []slowOther
}

// slowFile is a robots.txt file as the slow parser sees it.
type slowFile struct {
	lines    int // number of lines
	groups   []*slowGroup
	sitemaps []string    // every non-empty Sitemap value, in file order
	preamble []slowOther // other lines before the first group
}

// slowSplitLines splits a body into lines (SPEC §1): a prefix of the UTF-8
// BOM is dropped, each CR, LF and CR LF ends a line, and what follows the
// last break is a final line, so there is always at least one line.
func slowSplitLines(body []byte) []string {
	bom := "\xef\xbb\xbf"
	for i := 0; i < len(bom) && len(body) > 0 && body[0] == bom[i]; i++ {
		body = body[1:]
	}
	var lines []string
	start := 0 // of the current line
	for i := 0; i < len(body); i++ {
		switch body[i] {
		case '\r':
			lines = append(lines, string(body[start:i]))
			if i+1 < len(body) && body[i+1] == '\n' {
				i++ // CR LF is one break
			}
			start = i + 1
		case '\n':
			lines = append(lines, string(body[start:i]))
			start = i + 1
		}
	}
	return append(lines, string(body[start:]))
}

// slowIsSpace reports whether c is ASCII whitespace: space, tab, CR, LF, VT
// or FF.
func slowIsSpace(c byte) bool {
	return strings.IndexByte(" \t\r\n\v\f", c) >= 0
}

func slowTrim(s string) string {
	return strings.TrimFunc(s, func(r rune) bool { return r < 0x80 && slowIsSpace(byte(r)) })
}

// slowKeyValue finds a line's key and value (SPEC §1). ok is false when the
// line has none.
func slowKeyValue(line string) (key, value string, ok bool) {
	// The line is cut at 16,663 bytes, at a NUL and at '#', whichever
	// comes first.
	cut := min(len(line), 16663)
	if i := strings.IndexByte(line, 0); i >= 0 && i < cut {
		cut = i
	}
	if i := strings.IndexByte(line, '#'); i >= 0 && i < cut {
		cut = i
	}
	line = slowTrim(line[:cut])
	if k, v, found := strings.Cut(line, ":"); found {
		key, value = k, v
	} else {
		// Without a colon, the line must be exactly two tokens separated by
		// spaces and tabs.
		fields := strings.FieldsFunc(line, func(r rune) bool { return r == ' ' || r == '\t' })
		if len(fields) != 2 {
			return "", "", false
		}
		i := strings.IndexAny(line, " \t")
		key, value = line[:i], line[i:]
	}
	key, value = slowTrim(key), slowTrim(value)
	return key, value, key != ""
}

// slowKeyKind recognises a key by case-insensitive prefix (SPEC §2). It
// returns "user-agent", "allow", "disallow", "sitemap" or "".
func slowKeyKind(key string) string {
	spellings := []struct{ prefix, kind string }{
		{"user-agent", "user-agent"}, {"useragent", "user-agent"}, {"user agent", "user-agent"},
		{"allow", "allow"},
		{"disallow", "disallow"}, {"dissallow", "disallow"}, {"dissalow", "disallow"},
		{"disalow", "disallow"}, {"diasllow", "disallow"}, {"disallaw", "disallow"},
		{"sitemap", "sitemap"}, {"site-map", "sitemap"},
	}
	for _, s := range spellings {
		if len(key) >= len(s.prefix) && strings.EqualFold(key[:len(s.prefix)], s.prefix) {
			return s.kind
		}
	}
	return ""
}

// slowNormalise upper-cases the hex digits of %-escapes and %-encodes bytes
// from 0x80 up (SPEC §3).
func slowNormalise(value string) string {
	isHex := func(c byte) bool { return strings.IndexByte("0123456789abcdefABCDEF", c) >= 0 }
	var b strings.Builder
	for i := 0; i < len(value); i++ {
		switch c := value[i]; {
		case c == '%' && i+2 < len(value) && isHex(value[i+1]) && isHex(value[i+2]):
			b.WriteString("%" + strings.ToUpper(value[i+1:i+3]))
			i += 2
		case c >= 0x80:
			fmt.Fprintf(&b, "%%%02X", c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// slowToken reduces a User-agent value to its longest prefix of
// [A-Za-z_-] (SPEC §4).
func slowToken(value string) string {
	for i := 0; i < len(value); i++ {
		c := value[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' || c == '-') {
			return value[:i]
		}
	}
	return value
}

// slowParse parses a body the slow way (SPEC §1–§4, §6).
func slowParse(body []byte) *slowFile {
	f := &slowFile{}
	lines := slowSplitLines(body)
	f.lines = len(lines)
	var cur *slowGroup // nil before the first User-agent line
	for i, raw := range lines {
		num := i + 1
		key, value, ok := slowKeyValue(raw)
		if !ok {
			continue
		}
		switch slowKeyKind(key) {
		case "user-agent":
			// A User-agent line starts a new group only once the current
			// one has rules.
			if cur == nil || len(cur.rules) > 0 {
				cur = &slowGroup{}
				f.groups = append(f.groups, cur)
			}
			if value == "*" || len(value) > 1 && value[0] == '*' && slowIsSpace(value[1]) {
				cur.global = true
			} else {
				cur.tokens = append(cur.tokens, slowToken(value))
			}
		case "allow", "disallow":
			if cur != nil {
				cur.rules = append(cur.rules, slowRule{
					line:    num,
					allow:   slowKeyKind(key) == "allow",
					pattern: slowNormalise(value),
					text:    value,
				})
			}
		case "sitemap":
			if value != "" && !slices.Contains(f.sitemaps, value) {
				f.sitemaps = append(f.sitemaps, value)
			}
		default:
			if cur != nil {
				cur.others = append(cur.others, slowOther{num, key, value})
			} else if key != "" && strings.Trim(key, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_") == "" {
				// Before the first group, only keys that are tokens.
				f.preamble = append(f.preamble, slowOther{num, key, value})
			}
		}
	}
	return f
}

// selected returns the groups that decide for agent (SPEC §4): those with a
// token equal to agent, ignoring ASCII case, if there are any, else those
// that name "*".
func (f *slowFile) selected(agent string) []*slowGroup {
	var named, global []*slowGroup
	for _, g := range f.groups {
		for _, tok := range g.tokens {
			if asciiEqualFold(tok, agent) {
				named = append(named, g)
				break
			}
		}
		if g.global {
			global = append(global, g)
		}
	}
	if named != nil {
		return named
	}
	return global
}

// selectedAny returns the groups that decide for a crawler answering to
// all of agents, as Google's parser takes a list of them: those with a
// token equal to any of them, if there are any, else those that name "*".
func (f *slowFile) selectedAny(agents []string) []*slowGroup {
	var named, global []*slowGroup
	for _, g := range f.groups {
		if slices.ContainsFunc(g.tokens, func(tok string) bool {
			return slices.ContainsFunc(agents, func(a string) bool { return asciiEqualFold(tok, a) })
		}) {
			named = append(named, g)
		}
		if g.global {
			global = append(global, g)
		}
	}
	if named != nil {
		return named
	}
	return global
}

// asciiEqualFold is strings.EqualFold for ASCII letters only, so that no
// Unicode folding (such as 'K' and the Kelvin sign) sneaks in.
func asciiEqualFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

// rules returns the rules that decide for agent, in file order, without
// those whose pattern starts with neither '/' nor '*': they can never match,
// and Parse does not keep them.
func (f *slowFile) rules(agent string) []slowRule {
	return f.rulesOf(f.selected(agent))
}

// rulesOf returns the rules of groups, as rules does.
func (f *slowFile) rulesOf(groups []*slowGroup) []slowRule {
	var out []slowRule
	for _, g := range groups {
		for _, r := range g.rules {
			if r.pattern == "" || r.pattern[0] == '/' || r.pattern[0] == '*' {
				out = append(out, r)
			}
		}
	}
	return out
}

// slowPriority returns the priority with which rule matches path, or -1
// when it does not match (SPEC §5).
func slowPriority(r slowRule, path string) int {
	if slowMatch(r.pattern, path) {
		return len(r.pattern)
	}
	// An Allow whose last segment starts with "/index.htm" is tried again
	// as everything up to and including that '/', anchored.
	if slash := strings.LastIndexByte(r.pattern, '/'); r.allow && slash >= 0 &&
		strings.HasPrefix(r.pattern[slash:], "/index.htm") {
		dir := r.pattern[:slash+1] + "$"
		if slowMatch(dir, path) {
			return len(dir)
		}
	}
	return -1
}

// decide answers Decide for agent and url from the slow parse: the
// matching rule with the highest priority wins, Allow on a tie, then the
// first line; a priority-0 match never disallows (SPEC §5).
func (f *slowFile) decide(agent, url string) Decision {
	return f.decideRules(f.rules(agent), url)
}

// decideRules answers Decide for url from the given rules.
func (f *slowFile) decideRules(rules []slowRule, url string) Decision {
	path := slowPathOf(url)
	best, bestPrio := slowRule{}, -1
	for _, r := range rules {
		p := slowPriority(r, path)
		switch {
		case p < 0:
		case p > bestPrio,
			p == bestPrio && r.allow && !best.allow,
			p == bestPrio && r.allow == best.allow && r.line < best.line:
			best, bestPrio = r, p
		}
	}
	if bestPrio < 0 {
		return Decision{Allowed: true}
	}
	return Decision{
		Allowed: best.allow || bestPrio == 0,
		Line:    best.line,
		Allow:   best.allow,
		Rule:    best.text,
	}
}

// TestSlowMatch checks the reference matcher itself on the cases SPEC §5
// spells out, so that the fuzz tests hold the fast matcher against something
// known to be right.
func TestSlowMatch(t *testing.T) {
	tests := []struct {
		pattern, path string
		want          bool
		reason        string
	}{
		{"", "/", true, "the empty pattern matches every path"},
		{"/", "/", true, "a pattern matches itself"},
		{"/a", "/abc", true, "a pattern matches a prefix of the path"},
		{"/abc", "/a", false, "the path must be at least as long as the pattern"},
		{"/A", "/a", false, "matching is case-sensitive"},
		{"/a$", "/a", true, "a final '$' matches the end of the path"},
		{"/a$", "/ab", false, "a final '$' requires the path to end there"},
		{"/a$b", "/a$b", true, "'$' before the end is a literal"},
		{"/a$b", "/ab", false, "'$' before the end is not an anchor"},
		{"/$$", "/$", true, "only the last '$' anchors; the one before it is a literal"},
		{"$", "/", false, "a lone '$' matches only the empty path"},
		{"$", "", true, "a lone '$' matches the empty path"},
		{"*", "/x", true, "'*' matches any run"},
		{"/*", "/", true, "'*' matches the empty run"},
		{"/*.pdf$", "/a/b.pdf", true, "'*' spans slashes"},
		{"/*.pdf$", "/a/b.pdf?x", false, "anchored pattern needs the end"},
		{"/*a*b", "/xaxxb", true, "several stars"},
		{"/*a*b", "/xbxxa", false, "pieces must come in order"},
		{"/a*a*a$", "/aaa", true, "stars may match nothing between pieces"},
		{"/a*a*a$", "/aa", false, "each piece needs its own bytes"},
		{"/*ab$", "/aab", true, "the last piece must end the path even after a false start"},
		{"a", "a", true, "the matcher itself does not require a leading '/'"},
		{"/**$", "/x", true, "runs of stars act as one"},
		{"/%AA", "/%aa", false, "no case folding of escapes in the path"},
	}
	for _, tt := range tests {
		if got := slowMatch(tt.pattern, tt.path); got != tt.want {
			t.Errorf("slowMatch(%q, %q) = %v, want %v (%s)", tt.pattern, tt.path, got, tt.want, tt.reason)
		}
	}
}

// TestSlowPathOf checks the reference URL reduction on the examples of
// SPEC §5.
func TestSlowPathOf(t *testing.T) {
	tests := []struct {
		url, want string
		reason    string
	}{
		{"", "/", "no path at all"},
		{"http://u:p@h:8080/x", "/x", "userinfo and port belong to the authority"},
		{"example.com?a", "/?a", "a leading '?' gets a '/' in front"},
		{"example.com;a", "/;a", "so does a leading ';'"},
		{"http:/host/x", "/host/x", "a single slash after the scheme is the path"},
		{"a/b", "/b", "without a scheme the first part is a host"},
		{"//h/x", "/x", "a leading \"//\" is skipped"},
		{"/x://y/z", "/x://y/z", "\"://\" after the first '/' is not a scheme"},
		{"http://h#f/x", "/", "a '#' before the path leaves no path"},
		{"http://h/x#f", "/x", "the path ends at '#'"},
		{"http://h/x?q#f?r", "/x?q", "the query ends at '#'"},
		{"https://h", "/", "a host with no path"},
		{"https://h?", "/?", "an empty query keeps its '?'"},
		{"/a%aa/..//b", "/a%aa/..//b", "nothing is normalised"},
	}
	for _, tt := range tests {
		if got := slowPathOf(tt.url); got != tt.want {
			t.Errorf("slowPathOf(%q) = %q, want %q (%s)", tt.url, got, tt.want, tt.reason)
		}
	}
}

// TestSlowConformance asks the slow parser and matcher the reference's
// questions, to show that the slow code is a sound reference. The corpus
// sweep uses only the smaller files, as the slow matcher is quadratic.
func TestSlowConformance(t *testing.T) {
	for _, name := range []string{"edge.tsv", "corpus.tsv"} {
		t.Run(name, func(t *testing.T) {
			path := needShared(t, filepath.Join("conformance", name))
			if name == "corpus.tsv" && !longTests() {
				t.Skip("the whole corpus through the slow reference; set ROBOTSTXT_LONG=1 to run it")
			}
			parsed := map[string]*slowFile{}
			var n int
			for _, c := range readConformance(t, path) {
				if len(c.robots) > 64<<10 || len(c.url) > 2048 {
					continue // the slow matcher is quadratic
				}
				f, ok := parsed[c.parseKey()]
				if !ok {
					f = slowParse(c.robots)
					parsed[c.parseKey()] = f
				}
				n++
				if d := f.decide(c.agent, c.url); d.Allowed != c.allowed || d.Line != c.line {
					t.Errorf("%s:%d %s agent=%q url=%q: slow got allowed=%v line=%d, want allowed=%v line=%d %s",
						name, c.lineNo, c.file, c.agent, c.url, d.Allowed, d.Line, c.allowed, c.line, c.note)
				}
			}
			t.Logf("%s: %d questions", name, n)
		})
	}
}

// The slow reference for usage preferences (usage.go), written from
// draft-ietf-aipref-attach-05 §3, draft-ietf-aipref-vocab-08 §5-§6 and RFC
// 9651 §3.2 and §4.2. The Dictionary grammar is a regular expression here,
// not a parser, so that the two share no code.
var (
	sfKeyRe     = `[a-z*][a-z0-9_\-.*]*`
	sfBareRe    = `(?:-?[0-9]{1,12}\.[0-9]{1,3}|-?[0-9]{1,15}|"(?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\["\\])*"|[A-Za-z*][!#$%&'*+\-.^_` + "`" + `|~0-9A-Za-z:/]*|:[A-Za-z0-9+/=]*:|\?[01]|@-?[0-9]{1,15}|%"(?:[\x20\x21\x23\x24\x26-\x7e]|%[0-9a-f]{2})*")`
	sfParamsRe  = `(?:;[ ]*` + sfKeyRe + `(?:=` + sfBareRe + `)?)*`
	sfItemRe    = sfBareRe + sfParamsRe
	sfInnerRe   = `\([ ]*(?:` + sfItemRe + `(?:[ ]+` + sfItemRe + `)*[ ]*)?\)` + sfParamsRe
	sfMemberRe  = `(` + sfKeyRe + `)(?:=(` + sfInnerRe + `|` + sfItemRe + `)|` + sfParamsRe + `)`
	slowDictRe  = regexp.MustCompile(`^[ ]*(?:` + sfMemberRe + `(?:[ \t]*,[ \t]*` + sfMemberRe + `)*)?[ \t]*$`)
	slowMember  = regexp.MustCompile(`^[ \t,]*` + sfMemberRe)
	slowTokenRe = regexp.MustCompile(`^([A-Za-z*][!#$%&'*+\-.^_` + "`" + `|~0-9A-Za-z:/]*)` + sfParamsRe + `$`)
	slowQuoted  = regexp.MustCompile(`"(?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\["\\])*"|%"((?:[\x20\x21\x23\x24\x26-\x7e]|%[0-9a-f]{2})*)"`)
)

// slowDictionary parses an RFC 9651 Dictionary the slow way: it returns
// each key's last value as written, or ok false when s does not parse
// (including a Display String whose bytes are not UTF-8, §4.2.10).
func slowDictionary(s string) (members map[string]string, ok bool) {
	if !slowDictRe.MatchString(s) {
		return nil, false
	}
	for _, m := range slowQuoted.FindAllStringSubmatch(s, -1) {
		if strings.HasPrefix(m[0], "%") {
			decoded, err := url.PathUnescape(m[1])
			if err != nil || !utf8.ValidString(decoded) {
				return nil, false
			}
		}
	}
	members = map[string]string{}
	rest := strings.TrimLeft(s, " ")
	for rest != "" {
		m := slowMember.FindStringSubmatch(rest)
		if m == nil {
			break
		}
		members[m[1]] = m[2]
		rest = strings.TrimLeft(rest[len(m[0]):], " \t")
	}
	return members, true
}

// slowUsagePrefs returns the preferences a Content-Usage preference states,
// by Category (vocab-08 §6.5).
func slowUsagePrefs(pref string) []Pref {
	out := make([]Pref, NumCategories)
	members, ok := slowDictionary(pref)
	if !ok {
		return out
	}
	for c := range NumCategories {
		v, found := members[c.String()]
		if !found {
			continue
		}
		m := slowTokenRe.FindStringSubmatch(v)
		switch {
		case m != nil && m[1] == "y":
			out[c] = PrefYes
		case m != nil && m[1] == "n":
			out[c] = PrefNo
		}
	}
	return out
}

// slowSignals returns the preferences a Content-Signal value states, by
// Signal: comma-separated key=value entries, compared ignoring case, the
// last one for a signal counting.
func slowSignals(value string) []Pref {
	out := make([]Pref, NumSignals)
	for _, entry := range strings.Split(value, ",") {
		k, v, ok := strings.Cut(entry, "=")
		if !ok {
			continue
		}
		k, v = strings.Trim(k, " \t"), strings.Trim(v, " \t")
		for s := range NumSignals {
			if !asciiEqualFold(k, s.String()) {
				continue
			}
			switch {
			case asciiEqualFold(v, "yes"):
				out[s] = PrefYes
			case asciiEqualFold(v, "no"):
				out[s] = PrefNo
			default:
				out[s] = PrefUnknown
			}
		}
	}
	return out
}

// slowUsageLine is a Content-Usage or Content-Signal line, as the slow
// parser reads it.
type slowUsageLine struct {
	line    int
	pattern string // normalised; "/" when the line has no path
	prefs   []Pref
	use     Use // a Content-Signal line's use key
}

// slowSignalUse returns the content-use level of a Content-Signal value:
// the last use=value entry counts, key and value compared ignoring case.
func slowSignalUse(value string) Use {
	use := UseUnstated
	for _, entry := range strings.Split(value, ",") {
		k, v, ok := strings.Cut(entry, "=")
		if !ok || !asciiEqualFold(strings.Trim(k, " \t"), "use") {
			continue
		}
		use = UseUnstated
		for _, u := range []Use{UseImmediate, UseReference, UseFull} {
			if asciiEqualFold(strings.Trim(v, " \t"), u.String()) {
				use = u
			}
		}
	}
	return use
}

// slowUseStatement is slowUsageStatement for the content-use level: among
// the matching lines with the longest pattern, the least reuse stated, and
// the first line that states it.
func slowUseStatement(lines []slowUsageLine, path string) (use Use, line int) {
	longest := -1
	for _, l := range lines {
		if slowMatch(l.pattern, path) && len(l.pattern) > longest {
			longest = len(l.pattern)
		}
	}
	for _, l := range lines {
		if !slowMatch(l.pattern, path) || len(l.pattern) != longest || l.use == UseUnstated {
			continue
		}
		if use == UseUnstated || l.use < use || l.use == use && l.line < line {
			use, line = l.use, l.line
		}
	}
	return use, line
}

// slowUsageLines returns the lines with key among others, read as
// attach-05 §3.2 says: a value that starts with '/' has a path up to the
// first SP or HTAB, then the preference; any other value is all
// preference.
func slowUsageLines(others []slowOther, key string) []slowUsageLine {
	var out []slowUsageLine
	for _, o := range others {
		if !asciiEqualFold(o.key, key) {
			continue
		}
		path, pref := "/", o.value
		if strings.HasPrefix(o.value, "/") {
			path, pref = o.value, ""
			if i := strings.IndexAny(o.value, " \t"); i >= 0 {
				path, pref = o.value[:i], strings.TrimLeft(o.value[i:], " \t")
			}
		}
		l := slowUsageLine{line: o.line, pattern: slowNormalise(path)}
		if key == "content-usage" {
			l.prefs = slowUsagePrefs(pref)
		} else {
			l.prefs = slowSignals(pref)
			l.use = slowSignalUse(pref)
		}
		out = append(out, l)
	}
	return out
}

// slowUsageStatement picks, among lines, those that match path with the
// longest pattern, and combines them category by category (vocab-08 §5.1:
// n wins, then y), each preference with the first line that states it.
func slowUsageStatement(lines []slowUsageLine, path string, n int) (out []Stated, line int, found bool) {
	// The lines that match with the longest pattern.
	var best []slowUsageLine
	for _, l := range lines {
		if !slowMatch(l.pattern, path) {
			continue
		}
		if len(best) > 0 && len(l.pattern) > len(best[0].pattern) {
			best = best[:0]
		}
		if len(best) == 0 || len(l.pattern) == len(best[0].pattern) {
			best = append(best, l)
		}
	}
	out = make([]Stated, n)
	if len(best) == 0 {
		return out, 0, false
	}
	for c := range n {
		for _, want := range []Pref{PrefNo, PrefYes} {
			for _, l := range best {
				if l.prefs[c] == want && (out[c].Pref != want || l.line < out[c].Line) {
					out[c] = Stated{want, l.line}
				}
			}
			if out[c].Pref != PrefUnknown {
				break
			}
		}
	}
	for _, l := range best {
		if line == 0 || l.line < line {
			line = l.line
		}
	}
	return out, line, true
}

// usage answers Usage for a crawler answering to agents, the slow way.
func (f *slowFile) usage(agents []string, url string) Usage {
	groups := f.selectedAny(agents)
	u := Usage{Decision: f.decideRules(f.rulesOf(groups), url)}
	if !u.Decision.Allowed {
		for c := range u.ContentUsage {
			u.ContentUsage[c].Pref = PrefNotCrawlable
		}
		for s := range u.ContentSignal {
			u.ContentSignal[s].Pref = PrefNotCrawlable
		}
		return u
	}
	path := slowPathOf(url)
	var others []slowOther
	for _, g := range groups {
		others = append(others, g.others...)
	}
	cu, line, _ := slowUsageStatement(slowUsageLines(others, "content-usage"), path, int(NumCategories))
	copy(u.ContentUsage[:], cu)
	u.UsageLine = line
	signals := slowUsageLines(others, "content-signal")
	cs, line, found := slowUsageStatement(signals, path, int(NumSignals))
	if !found {
		// Before the first group: for every crawler without its own.
		signals = slowUsageLines(f.preamble, "content-signal")
		cs, line, _ = slowUsageStatement(signals, path, int(NumSignals))
	}
	u.ContentUse, u.UseLine = slowUseStatement(signals, path)
	copy(u.ContentSignal[:], cs)
	u.SignalLine = line
	return u
}
