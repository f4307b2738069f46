package verify

import (
	"context"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"sync"
	"time"

	"github.com/robotstxt-go/robotstxt"
	"github.com/robotstxt-go/robotstxt/crawlers"
	"github.com/robotstxt-go/robotstxt/internal/grammar"
)

// Status is the verdict on a request's claim to come from a crawler.
type Status uint8

// The verdicts, from no claim to a proven one.
const (
	// Unclaimed: the request names no crawler of the table.
	Unclaimed Status = iota
	// Unverifiable: the crawler's operator documents no way to verify it
	// (Meta's and ByteDance's crawlers, and tokens no request sends, such
	// as Google-Extended).
	Unverifiable
	// Unknown: no documented method matched, and at least one could not
	// be checked (a prefix file or key directory unavailable, a DNS
	// timeout or SERVFAIL). The claim may be true.
	Unknown
	// Forged: every documented method was checked and none matched.
	Forged
	// Verified: a method the operator documents matched.
	Verified
)

var statusNames = [...]string{"unclaimed", "unverifiable", "unknown", "forged", "verified"}

func (s Status) String() string {
	if int(s) < len(statusNames) {
		return statusNames[s]
	}
	return "invalid"
}

// MarshalText writes the status as its String, for JSON.
func (s Status) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Method is a way of verifying a crawler that its operator documents.
type Method uint8

// The methods, in the order Verify tries them.
const (
	// NoMethod: no method matched.
	NoMethod Method = iota
	// IPRanges: the address is in a prefix file the operator publishes.
	IPRanges
	// WebBotAuth: the request carries an HTTP Message Signature (RFC 9421)
	// by a key of the operator's key directory.
	WebBotAuth
	// ReverseDNS: the address's host name ends in a domain the operator
	// documents, and that name's addresses include it.
	ReverseDNS
)

var methodNames = [...]string{"", "ip-ranges", "web-bot-auth", "reverse-dns"}

func (m Method) String() string {
	if int(m) < len(methodNames) {
		return methodNames[m]
	}
	return "invalid"
}

// MarshalText writes the method as its String, for JSON.
func (m Method) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

// Request is what Verify reads of an incoming request.
type Request struct {
	// RemoteIP is the address the request came from: the peer of the
	// connection, or what a trusted proxy in front of the server says.
	// Without a valid one, IP ranges and reverse DNS are not checked.
	RemoteIP netip.Addr
	// Method is the request method, as "GET".
	Method string
	// URL is the target URI, absolute: scheme, host (the authority the
	// request was sent to), path and query. Only signatures read it; a
	// signed request without it has its signature unchecked (Unknown,
	// unless another method matches).
	URL *url.URL
	// Header holds the request's header fields: User-Agent names the
	// crawler; Signature-Input, Signature and Signature-Agent carry a
	// signature.
	Header http.Header
	// Now is the time of the request; zero means time.Now(). Caches and
	// signature lifetimes are judged against it.
	Now time.Time
}

// Verdict is the answer for one request.
type Verdict struct {
	// Crawler is the token of the crawler the request claims to be, as the
	// table writes it, or "" when it claims none.
	Crawler string `json:"crawler,omitempty"`
	// Operator runs Crawler.
	Operator string `json:"operator,omitempty"`
	Status   Status `json:"status"`
	// Method is the method that matched, when Status is Verified.
	Method Method `json:"method,omitempty"`
	// Evidence says what matched (the prefix file, the host name, the key
	// directory and key) or, for Unknown, what could not be checked.
	Evidence string `json:"evidence,omitempty"`
	// Prefix is the matching prefix when Method is IPRanges.
	Prefix netip.Prefix `json:"prefix,omitzero"`
	// Source is the operator's page that documents the methods.
	Source string `json:"source,omitempty"`
}

// Defaults of Config.
const (
	// DefaultFetchTimeout bounds one fetch of a prefix file or key
	// directory, body included.
	DefaultFetchTimeout = 10 * time.Second
	// DefaultDNSTimeout bounds the reverse and forward lookups of one
	// address together.
	DefaultDNSTimeout = 2 * time.Second
	// DefaultMaxFeedBytes bounds the body of a prefix file: 4 MiB holds
	// some 70,000 prefixes in the shape operators publish (TestMaxFeedBytesHolds).
	DefaultMaxFeedBytes = 4 << 20
)

// Config configures a Verifier. Its zero value verifies offline: only
// prefix files given to LoadRanges or LoadSnapshot count, and the methods
// that need the network are unavailable.
type Config struct {
	// Client fetches prefix files and key directories. Nil fetches
	// nothing. Its redirect policy is replaced for key directories, which
	// must be served without redirects.
	Client *http.Client
	// Resolver makes the DNS lookups of reverse DNS. Nil checks no
	// reverse DNS.
	Resolver *net.Resolver
	// FetchTimeout bounds one fetch; zero means DefaultFetchTimeout.
	FetchTimeout time.Duration
	// DNSTimeout bounds the lookups for one address; zero means
	// DefaultDNSTimeout.
	DNSTimeout time.Duration
	// MaxFeedBytes bounds a prefix file's body; zero means
	// DefaultMaxFeedBytes.
	MaxFeedBytes int64
	// Crawlers is the table to verify against; nil means crawlers.All().
	Crawlers []crawlers.Crawler
}

// A Verifier answers whether requests come from the crawlers they name.
// It caches what it fetches and looks up; it is safe for concurrent use.
type Verifier struct {
	cfg      Config
	profiles []profile
	feeds    map[string]*feed
	dirs     dirCache
	dns      dnsCache
	dirOnce  sync.Once
	dirHTTP  *http.Client
}

// profile is one crawler of the table with the verifier's state for its
// methods.
type profile struct {
	token, operator, source string
	feeds                   []*feed
	suffixes                []string
	agent                   string // the Signature-Agent origin, normalized
	documented              bool
}

// New returns a Verifier configured by c.
func New(c Config) *Verifier {
	if c.FetchTimeout <= 0 {
		c.FetchTimeout = DefaultFetchTimeout
	}
	if c.DNSTimeout <= 0 {
		c.DNSTimeout = DefaultDNSTimeout
	}
	if c.MaxFeedBytes <= 0 {
		c.MaxFeedBytes = DefaultMaxFeedBytes
	}
	table := c.Crawlers
	if table == nil {
		table = crawlers.All()
	}
	v := &Verifier{cfg: c, feeds: map[string]*feed{}}
	for _, cr := range table {
		p := profile{token: cr.Token, operator: cr.Operator, source: cr.Verify.Source,
			suffixes: cr.Verify.ReverseDNS, documented: cr.Verify.Documented()}
		if cr.Verify.SignatureAgent != "" {
			p.agent, _ = normalizeOrigin(cr.Verify.SignatureAgent)
		}
		for _, u := range cr.Verify.Ranges {
			f := v.feeds[u]
			if f == nil {
				f = &feed{url: u}
				v.feeds[u] = f
			}
			p.feeds = append(p.feeds, f)
		}
		v.profiles = append(v.profiles, p)
	}
	return v
}

// claim returns the profile of the crawler the request names: the
// product token of its User-Agent (robotstxt.ProductToken), or, when that
// names no crawler of the table, the crawler whose documented
// Signature-Agent origin the request's Signature-Agent names (ChatGPT
// agent sends a browser's User-Agent and signs as https://chatgpt.com).
func (v *Verifier) claim(h http.Header) *profile {
	if tok := robotstxt.ProductToken(h.Get("User-Agent")); tok != "" {
		for i := range v.profiles {
			if grammar.EqualFold(v.profiles[i].token, tok) {
				return &v.profiles[i]
			}
		}
	}
	if len(h["Signature-Agent"]) == 0 {
		return nil
	}
	for _, origin := range signatureAgents(h) {
		for i := range v.profiles {
			if p := &v.profiles[i]; p.agent != "" && p.agent == origin {
				return p
			}
		}
	}
	return nil
}

// outcome is what one method found.
type outcome uint8

const (
	noMatch     outcome = iota // checked: the method does not vouch for the request
	matched                    // the method vouches for the request
	unavailable                // could not be checked
)

// Verify returns the verdict for r. It tries the methods the claimed
// crawler's operator documents, cheapest first: the prefix files, then a
// signature, then reverse DNS; the first that matches decides. A verdict
// whose evidence is cached makes no network call; one that is not waits at
// most the configured timeouts (and ctx).
func (v *Verifier) Verify(ctx context.Context, r Request) Verdict {
	p := v.claim(r.Header)
	if p == nil {
		return Verdict{Status: Unclaimed}
	}
	d := Verdict{Crawler: p.token, Operator: p.operator, Source: p.source}
	if !p.documented {
		d.Status = Unverifiable
		return d
	}
	now := r.Now
	if now.IsZero() {
		now = time.Now()
	}
	ip := r.RemoteIP.Unmap()
	var missing string // what could not be checked, first one
	note := func(what string) {
		if missing == "" {
			missing = what
		}
	}
	if !ip.IsValid() && (len(p.feeds) > 0 || len(p.suffixes) > 0) {
		note("no remote address: IP ranges and reverse DNS not checked")
	}
	for _, f := range p.feeds {
		if !ip.IsValid() {
			break
		}
		set := f.get(ctx, v, now)
		if set == nil {
			note("prefix file unavailable: " + f.url)
			continue
		}
		if pfx, ok := set.lookup(ip); ok {
			d.Status, d.Method, d.Evidence, d.Prefix = Verified, IPRanges, f.url, pfx
			return d
		}
	}
	if p.agent != "" {
		switch o, ev := v.checkSignature(ctx, r, p, now); o {
		case matched:
			d.Status, d.Method, d.Evidence = Verified, WebBotAuth, ev
			return d
		case unavailable:
			note(ev)
		}
	}
	if len(p.suffixes) > 0 && ip.IsValid() {
		switch o, ev := v.checkDNS(ctx, ip, p, now); o {
		case matched:
			d.Status, d.Method, d.Evidence = Verified, ReverseDNS, ev
			return d
		case unavailable:
			note(ev)
		}
	}
	if missing != "" {
		d.Status, d.Evidence = Unknown, missing
		return d
	}
	d.Status = Forged
	return d
}
