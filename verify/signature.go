package verify

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/robotstxt-go/robotstxt"
	"github.com/robotstxt-go/robotstxt/internal/grammar"
)

// This file verifies HTTP Message Signatures (RFC 9421) as Web Bot Auth
// uses them (draft-meunier-webbotauth-httpsig-protocol-00, 26 June 2026,
// and draft-meunier-webbotauth-httpsig-directory-00 for the key
// directory): an Ed25519 signature tagged "web-bot-auth" whose keyid is
// the JWK thumbprint (RFC 7638) of a key in the directory at the
// Signature-Agent origin.

// Protocol constants.
const (
	// Tag is the tag parameter of a Web Bot Auth signature.
	Tag = "web-bot-auth"
	// DirectoryTag is the tag of the signature of a key directory
	// response.
	DirectoryTag = "http-message-signatures-directory"
	// DirectoryPath is where an origin serves its key directory.
	DirectoryPath = "/.well-known/http-message-signatures-directory"
	// DirectoryMediaType is the media type of a key directory.
	DirectoryMediaType = "application/http-message-signatures-directory+json"
	// ClockSkew is how far in the future a signature's created time may
	// be, for clocks that disagree a little.
	ClockSkew = 5 * time.Second
	// MaxSignatures is how many signatures tagged "web-bot-auth" of one
	// request are checked; the rest are ignored. A crawler sends one.
	MaxSignatures = 4
	// MaxSignatureFieldBytes bounds the Signature-Input and Signature
	// fields read: longer ones (a crawler's are a few hundred bytes) hold
	// no valid signature here, and are not parsed.
	MaxSignatureFieldBytes = 16 << 10
	// MaxDirectoryBytes bounds a key directory's body.
	MaxDirectoryBytes = 64 << 10
	// DirectoryRefresh is how long a fetched key directory is used.
	// DirectoryRetry is how long a failed fetch is remembered, and how
	// often at most a keyid missing from the directory makes it be read
	// again (an operator's new key is believed within that time).
	DirectoryRefresh = time.Hour
	DirectoryRetry   = time.Minute
)

// message is what a signature base reads of a request: its derived
// components (RFC 9421 §2.2) and its header fields.
type message struct {
	method string
	url    *url.URL // absolute
	header http.Header
}

// authority is the target's host, lower-cased, with a default port
// removed (RFC 9421 §2.2.3).
func (m message) authority() string {
	host := strings.ToLower(m.url.Host)
	scheme := strings.ToLower(m.url.Scheme)
	if h, port, ok := strings.Cut(host, ":"); ok && !strings.Contains(port, ":") && !strings.HasPrefix(host, "[") {
		if scheme == "https" && port == "443" || scheme == "http" && port == "80" {
			return h
		}
	} else if strings.HasPrefix(host, "[") {
		if i := strings.LastIndex(host, "]:"); i >= 0 {
			port := host[i+2:]
			if scheme == "https" && port == "443" || scheme == "http" && port == "80" {
				return host[:i+1]
			}
		}
	}
	return host
}

// componentValue returns the value of a covered component, by name (RFC
// 9421 §2.1, §2.2). Components with parameters are not supported.
func (m message) componentValue(name string) (string, error) {
	switch name {
	case "@method":
		return m.method, nil
	case "@target-uri":
		return m.url.String(), nil
	case "@authority":
		return m.authority(), nil
	case "@scheme":
		return strings.ToLower(m.url.Scheme), nil
	case "@request-target":
		return m.url.RequestURI(), nil
	case "@path":
		if p := m.url.EscapedPath(); p != "" {
			return p, nil
		}
		return "/", nil
	case "@query":
		return "?" + m.url.RawQuery, nil
	}
	if strings.HasPrefix(name, "@") {
		return "", fmt.Errorf("derived component %q not supported", name)
	}
	vals := m.header.Values(name)
	if len(vals) == 0 {
		return "", fmt.Errorf("component %q not in the message", name)
	}
	// RFC 9421 §2.1: each field line's value trimmed, the lines joined
	// with ", "; an obsolete line folding becomes a space.
	var b strings.Builder
	for i, v := range vals {
		if i > 0 {
			b.WriteString(", ")
		}
		v = strings.Trim(v, " \t")
		v = strings.ReplaceAll(strings.ReplaceAll(v, "\r\n", " "), "\n", " ")
		b.WriteString(v)
	}
	return b.String(), nil
}

// signatureBase builds the signature base of RFC 9421 §2.5 for the
// signature whose Signature-Input member is in: a line per covered
// component, then the @signature-params line, lines ended by LF except the
// last.
func signatureBase(m message, in grammar.SFMember) ([]byte, error) {
	if !in.Inner {
		return nil, errors.New("the signature's input is not an Inner List")
	}
	var b []byte
	seen := map[string]bool{}
	for _, c := range in.Items {
		if c.Kind != grammar.SFString || c.Str == "" || c.Str != strings.ToLower(c.Str) {
			return nil, errors.New("a covered component is not a lower-case String")
		}
		if len(c.Params) > 0 {
			return nil, fmt.Errorf("component %q: parameters not supported", c.Str)
		}
		if seen[c.Str] {
			return nil, fmt.Errorf("component %q covered twice", c.Str) // §2.5 step 2.1
		}
		seen[c.Str] = true
		v, err := m.componentValue(c.Str)
		if err != nil {
			return nil, err
		}
		b = grammar.AppendSFItem(b, grammar.SFItem{Kind: grammar.SFString, Str: c.Str})
		b = append(b, ": "...)
		b = append(b, v...)
		b = append(b, '\n')
	}
	b = append(b, `"@signature-params": `...)
	return grammar.AppendSFMemberValue(b, in), nil
}

// signatureAgents returns the origins that a request's Signature-Agent
// names: every String member of the Dictionary, or the legacy bare String.
func signatureAgents(h http.Header) []string {
	raw := strings.Join(h.Values("Signature-Agent"), ", ")
	var out []string
	if ms, ok := grammar.ParseSFDictionaryMembers([]byte(raw)); ok {
		for _, m := range ms {
			if !m.Inner && m.Items[0].Kind == grammar.SFString {
				if o, ok := normalizeOrigin(m.Items[0].Str); ok {
					out = append(out, o)
				}
			}
		}
		return out
	}
	if it, ok := grammar.ParseSFItem([]byte(raw)); ok && it.Kind == grammar.SFString {
		if o, ok := normalizeOrigin(it.Str); ok {
			out = append(out, o)
		}
	}
	return out
}

// ParseSignatureAgent returns the origin that a Signature-Agent field
// value names for the signature labelled label. The newest text of the
// protocol (draft-meunier-webbotauth-httpsig-protocol-00, with the
// Dictionary form that came with draft-meunier-http-message-signatures-directory-04)
// makes the field a Dictionary whose member keyed by the signature's label
// names the agent; earlier drafts only recommended that key. Here the member keyed
// by the label is required: a Dictionary without one names no agent for
// that signature. The legacy form, a bare String such as
// "https://chatgpt.com" (which no Dictionary parses as), names the agent
// of every signature. The origin is an https URI with no path, query or
// fragment (a path of "/" is allowed), returned as scheme://host[:port]
// in the spelling of robotstxt.Origin ("https://Bot.example:443/" names
// "https://bot.example").
func ParseSignatureAgent(value, label string) (origin string, ok bool) {
	if ms, ok := grammar.ParseSFDictionaryMembers([]byte(value)); ok {
		for _, m := range ms {
			if m.Key == label && !m.Inner && m.Items[0].Kind == grammar.SFString {
				return normalizeOrigin(m.Items[0].Str)
			}
		}
		return "", false
	}
	if it, ok := grammar.ParseSFItem([]byte(value)); ok && it.Kind == grammar.SFString {
		return normalizeOrigin(it.Str)
	}
	return "", false
}

// normalizeOrigin returns the origin s names, as robotstxt.Origin spells
// it (lower case, a Unicode host in Punycode, the default port dropped),
// or false when s is not an https origin: an https URL with no userinfo,
// path (but "/"), query or fragment.
func normalizeOrigin(s string) (string, bool) {
	u, err := url.Parse(s)
	if err != nil || !strings.EqualFold(u.Scheme, "https") || u.Host == "" || u.User != nil ||
		u.Path != "" && u.Path != "/" || u.RawQuery != "" || u.Fragment != "" || u.Opaque != "" {
		return "", false
	}
	origin, err := robotstxt.Origin(s)
	if err != nil {
		return "", false
	}
	return origin, true
}

// KeyID returns the keyid of an Ed25519 public key in Web Bot Auth: the
// base64url (unpadded) SHA-256 JWK thumbprint of RFC 7638 §3, whose JSON
// has the members crv, kty and x in that order, with no spaces.
func KeyID(pub ed25519.PublicKey) string {
	sum := sha256.Sum256([]byte(`{"crv":"Ed25519","kty":"OKP","x":"` + base64.RawURLEncoding.EncodeToString(pub) + `"}`))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

// signature is one signature of a request, parsed.
type signature struct {
	label string
	input grammar.SFMember
	value []byte
}

// parseSignatures pairs the members of Signature-Input and Signature by
// label (RFC 9421 §4). A label in one field and not the other is dropped.
func parseSignatures(input, sig string) ([]signature, error) {
	ins, ok := grammar.ParseSFDictionaryMembers([]byte(input))
	if !ok {
		return nil, errors.New("Signature-Input is not a Dictionary")
	}
	sigs, ok := grammar.ParseSFDictionaryMembers([]byte(sig))
	if !ok {
		return nil, errors.New("Signature is not a Dictionary")
	}
	values := make(map[string][]byte, len(sigs))
	for _, s := range sigs {
		if !s.Inner && s.Items[0].Kind == grammar.SFBytes {
			values[s.Key] = s.Items[0].Bytes
		}
	}
	var out []signature
	for _, in := range ins {
		if v, ok := values[in.Key]; ok && in.Inner {
			out = append(out, signature{label: in.Key, input: in, value: v})
		}
	}
	return out, nil
}

// errUnavailable marks a failure to check, as opposed to a check that
// fails.
var errUnavailable = errors.New("unavailable")

// checkOne checks one signature against the agent origin the crawler's
// operator documents. It returns nil when the signature is valid, an
// error wrapping errUnavailable when its key directory could not be read,
// and another error when it is not valid.
func (v *Verifier) checkOne(ctx context.Context, m message, s signature, agent string, now time.Time) error {
	ps := s.input.Params
	if t, ok := grammar.Param(ps, "tag"); !ok || t.Kind != grammar.SFString || t.Str != Tag {
		return errors.New(`tag is not "web-bot-auth"`)
	}
	if a, ok := grammar.Param(ps, "alg"); ok && (a.Kind != grammar.SFString || a.Str != "ed25519") {
		return errors.New("alg is not ed25519")
	}
	created, ok := grammar.Param(ps, "created")
	if !ok || created.Kind != grammar.SFInteger {
		return errors.New("no created time")
	}
	if time.Unix(created.Int, 0).After(now.Add(ClockSkew)) {
		return errors.New("created in the future")
	}
	expires, ok := grammar.Param(ps, "expires")
	if !ok || expires.Kind != grammar.SFInteger {
		return errors.New("no expires time")
	}
	if !time.Unix(expires.Int, 0).After(now) {
		return errors.New("expired")
	}
	keyid, ok := grammar.Param(ps, "keyid")
	if !ok || keyid.Kind != grammar.SFString {
		return errors.New("no keyid")
	}
	covers := func(name string) bool {
		for _, c := range s.input.Items {
			if c.Kind == grammar.SFString && c.Str == name {
				return true
			}
		}
		return false
	}
	if !covers("@authority") && !covers("@target-uri") {
		return errors.New("covers neither @authority nor @target-uri")
	}
	if len(m.header.Values("Signature-Agent")) > 0 && !covers("signature-agent") {
		return errors.New("does not cover signature-agent")
	}
	origin, ok := ParseSignatureAgent(strings.Join(m.header.Values("Signature-Agent"), ", "), s.label)
	if !ok {
		return errors.New("no Signature-Agent for the signature")
	}
	if origin != agent {
		return fmt.Errorf("signed by %s, not by the operator's agent", origin)
	}
	base, err := signatureBase(m, s.input)
	if err != nil {
		return err
	}
	keys, err := v.directory(ctx, agent, now, false)
	if err != nil {
		return err
	}
	pub, ok := keys[keyid.Str]
	if !ok {
		// The operator may have added a key since the directory was read:
		// read it again, at most once per DirectoryRetry.
		if keys, err = v.directory(ctx, agent, now, true); err != nil {
			return err
		}
		if pub, ok = keys[keyid.Str]; !ok {
			return errors.New("keyid not in the key directory")
		}
	}
	if !ed25519.Verify(pub, base, s.value) {
		return errors.New("the signature does not verify")
	}
	return nil
}

// checkSignature checks the request's Web Bot Auth signatures: the
// request matches when one of them is valid.
func (v *Verifier) checkSignature(ctx context.Context, r Request, p *profile, now time.Time) (outcome, string) {
	in := strings.Join(r.Header.Values("Signature-Input"), ", ")
	sig := strings.Join(r.Header.Values("Signature"), ", ")
	if in == "" || len(in) > MaxSignatureFieldBytes || len(sig) > MaxSignatureFieldBytes {
		return noMatch, ""
	}
	if r.URL == nil || !r.URL.IsAbs() || r.URL.Host == "" {
		// The covered @authority cannot be rebuilt: not checked.
		return unavailable, "signature not checked: no absolute target URI in the request"
	}
	sigs, err := parseSignatures(in, sig)
	if err != nil {
		return noMatch, ""
	}
	m := message{method: r.Method, url: r.URL, header: r.Header}
	out, ev, tagged := noMatch, "", 0
	for _, s := range sigs {
		if t, _ := grammar.Param(s.input.Params, "tag"); t.Kind == grammar.SFString && t.Str == Tag {
			if tagged++; tagged > MaxSignatures {
				break
			}
		}
		err := v.checkOne(ctx, m, s, p.agent, now)
		if err == nil {
			keyid, _ := grammar.Param(s.input.Params, "keyid")
			return matched, p.agent + DirectoryPath + " keyid=" + keyid.Str
		}
		if errors.Is(err, errUnavailable) {
			out, ev = unavailable, "key directory unavailable: "+p.agent+DirectoryPath
		}
	}
	return out, ev
}

// dirCache holds the key directories read, by origin.
type dirCache struct {
	mu sync.Mutex
	m  map[string]*dirEntry
}

type dirEntry struct {
	mu      sync.Mutex // held by the one fetch under way
	keys    map[string]ed25519.PublicKey
	err     error
	until   time.Time
	fetched time.Time // when the directory was last asked for
	// againErr is the failure of the last fetch asked for a missing
	// keyid, until the next.
	againErr error
}

// directory returns the keys of origin's directory by keyid, fetching it
// when not cached, or when again is set and it was last asked for at least
// DirectoryRetry ago. Only the operators' documented origins are ever
// fetched, so the cache is bounded by the table.
func (v *Verifier) directory(ctx context.Context, origin string, now time.Time, again bool) (map[string]ed25519.PublicKey, error) {
	if v.cfg.Client == nil {
		return nil, fmt.Errorf("%w: no HTTP client", errUnavailable)
	}
	v.dirs.mu.Lock()
	if v.dirs.m == nil {
		v.dirs.m = map[string]*dirEntry{}
	}
	e := v.dirs.m[origin]
	if e == nil {
		e = &dirEntry{}
		v.dirs.m[origin] = e
	}
	v.dirs.mu.Unlock()
	e.mu.Lock()
	defer e.mu.Unlock()
	if now.Before(e.until) && !(again && now.Sub(e.fetched) >= DirectoryRetry) {
		if again && e.againErr != nil {
			return nil, e.againErr
		}
		return e.keys, e.err
	}
	keys, err := v.fetchDirectory(ctx, origin, now)
	if err != nil && again && e.err == nil {
		// Asked again for a keyid and failed: the keyid could not be
		// checked. Keep the keys read for the others, and ask no sooner
		// than DirectoryRetry (unless the request gave up).
		err = fmt.Errorf("%w: %v", errUnavailable, err)
		if ctx.Err() == nil {
			e.fetched, e.againErr = now, err
		}
		return nil, err
	}
	e.keys, e.err, e.fetched, e.againErr = keys, err, now, nil
	if e.err != nil {
		e.err = fmt.Errorf("%w: %v", errUnavailable, e.err)
		e.until = now.Add(DirectoryRetry)
		if ctx.Err() != nil {
			// The request gave up, not the directory: nothing to
			// remember.
			e.until = time.Time{}
		}
	} else {
		e.until = now.Add(DirectoryRefresh)
	}
	return e.keys, e.err
}

// noRedirects is the client for key directories: the caller's, with
// redirects refused, as a directory must be served at its origin.
func (v *Verifier) noRedirects() *http.Client {
	v.dirOnce.Do(func() {
		c := *v.cfg.Client
		c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
		v.dirHTTP = &c
	})
	return v.dirHTTP
}

// jwks is the JSON of a key directory (RFC 7517 §5).
type jwks struct {
	Keys []struct {
		Kty string `json:"kty"`
		Crv string `json:"crv"`
		X   string `json:"x"`
		Nbf int64  `json:"nbf,omitempty"`
		Exp int64  `json:"exp,omitempty"`
	} `json:"keys"`
}

func (v *Verifier) fetchDirectory(ctx context.Context, origin string, now time.Time) (map[string]ed25519.PublicKey, error) {
	ctx, cancel := context.WithTimeout(ctx, v.cfg.FetchTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, origin+DirectoryPath, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", DirectoryMediaType)
	resp, err := v.noRedirects().Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("HTTP %d", resp.StatusCode)
	}
	if mt, _, err := mime.ParseMediaType(resp.Header.Get("Content-Type")); err != nil || mt != DirectoryMediaType {
		return nil, fmt.Errorf("media type %q, want %s", resp.Header.Get("Content-Type"), DirectoryMediaType)
	}
	data, err := readLimited(resp.Body, MaxDirectoryBytes)
	if err != nil {
		return nil, err
	}
	var d jwks
	if err := json.NewDecoder(bytes.NewReader(data)).Decode(&d); err != nil {
		return nil, err
	}
	keys := map[string]ed25519.PublicKey{}
	for _, k := range d.Keys {
		if k.Kty != "OKP" || k.Crv != "Ed25519" {
			continue
		}
		x, err := base64.RawURLEncoding.DecodeString(k.X)
		if err != nil || len(x) != ed25519.PublicKeySize {
			continue
		}
		if k.Nbf != 0 && now.Before(time.Unix(k.Nbf, 0)) || k.Exp != 0 && !now.Before(time.Unix(k.Exp, 0)) {
			continue
		}
		keys[KeyID(x)] = ed25519.PublicKey(x)
	}
	if len(keys) == 0 {
		return nil, errors.New("no usable Ed25519 key")
	}
	return keys, nil
}

// formatInt is strconv.FormatInt for the signer's parameters.
func formatInt(n int64) string { return strconv.FormatInt(n, 10) }
