package verify

import (
	"context"
	"crypto/ed25519"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/robotstxt-go/robotstxt/crawlers"
	"github.com/robotstxt-go/robotstxt/internal/grammar"
)

const (
	googlebotUA = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
	chatgptUA   = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot"
	metaUA      = "meta-externalagent/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)"
	browserUA   = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36"
)

// env is a test's outside world: an HTTPS server for prefix files and the
// key directory, a DNS server, and a crawler table pointing at them.
type env struct {
	srv       *httptest.Server
	dns       *testDNS
	key       ed25519.PrivateKey
	feed      atomic.Pointer[[]byte] // the prefix file's body
	feedHits  atomic.Int64
	feed304   atomic.Int64
	dirMode   atomic.Pointer[string] // "ok", "redirect", "media", "500", "rotated"
	rotated   ed25519.PrivateKey     // the key served in "rotated" mode
	dirHits   atomic.Int64
	httpCalls atomic.Int64
	table     []crawlers.Crawler
}

const testFeed = `{"creationTime":"2026-12-01T00:00:00.000000","prefixes":[{"ipv4Prefix":"192.0.2.0/28"},{"ipv6Prefix":"2001:db8:100::/48"}]}`

func newEnv(t testing.TB) *env {
	t.Helper()
	e := &env{dns: newTestDNS(t)}
	_, e.key, _ = ed25519.GenerateKey(nil)
	body := []byte(testFeed)
	e.feed.Store(&body)
	ok := "ok"
	e.dirMode.Store(&ok)
	mux := http.NewServeMux()
	mux.HandleFunc("/google.json", func(w http.ResponseWriter, r *http.Request) {
		e.feedHits.Add(1)
		b := *e.feed.Load()
		etag := `"` + formatInt(int64(len(b))) + `"`
		if r.Header.Get("If-None-Match") == etag {
			e.feed304.Add(1)
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Header().Set("ETag", etag)
		w.Header().Set("Content-Type", "application/json")
		w.Write(b)
	})
	dir := DirectoryHandler(e.key)
	_, e.rotated, _ = ed25519.GenerateKey(nil)
	rotatedDir := DirectoryHandler(e.rotated)
	mux.HandleFunc(DirectoryPath, func(w http.ResponseWriter, r *http.Request) {
		e.dirHits.Add(1)
		switch *e.dirMode.Load() {
		case "redirect":
			http.Redirect(w, r, "/elsewhere", http.StatusFound)
		case "media":
			w.Header().Set("Content-Type", "application/json")
			rec := httptest.NewRecorder()
			dir.ServeHTTP(rec, r)
			w.Write(rec.Body.Bytes())
		case "500":
			http.Error(w, "down", http.StatusInternalServerError)
		case "rotated":
			rotatedDir.ServeHTTP(w, r)
		default:
			dir.ServeHTTP(w, r)
		}
	})
	mux.Handle("/elsewhere", dir)
	e.srv = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		e.httpCalls.Add(1)
		mux.ServeHTTP(w, r)
	}))
	t.Cleanup(e.srv.Close)
	e.table = []crawlers.Crawler{
		{Token: "Googlebot", Operator: "Google", Verify: crawlers.Verification{
			Ranges: []string{e.srv.URL + "/google.json"}, ReverseDNS: []string{"googlebot.com", "geo.googlebot.com"},
			Source: "https://developers.google.com/search/docs/crawling-indexing/verifying-googlebot"}},
		{Token: "ChatGPT-User", Operator: "OpenAI", Verify: crawlers.Verification{
			SignatureAgent: e.srv.URL, Source: "https://help.openai.com/en/articles/11845367-chatgpt-agent-allowlisting"}},
		{Token: "meta-externalagent", Operator: "Meta"},
	}
	d := e.dns
	d.setPTR("198.51.100.7", "crawl-198-51-100-7.googlebot.com.")
	d.setAddr("crawl-198-51-100-7.googlebot.com.", "198.51.100.7")
	d.setPTR("198.51.100.8", "geo-crawl-1.geo.googlebot.com.")
	d.setAddr("geo-crawl-1.geo.googlebot.com.", "198.51.100.8")
	d.setPTR("198.51.100.9", "crawl.evilgooglebot.com.")
	d.setAddr("crawl.evilgooglebot.com.", "198.51.100.9")
	d.setPTR("198.51.100.10", "crawl.googlebot.com.evil.example.")
	d.setAddr("crawl.googlebot.com.evil.example.", "198.51.100.10")
	d.setPTR("198.51.100.11", "crawl-other.googlebot.com.")
	d.setAddr("crawl-other.googlebot.com.", "198.51.100.99")
	d.setPTR("2001:db8:ff::7", "crawl-v6.googlebot.com.")
	d.setAddr("crawl-v6.googlebot.com.", "2001:db8:ff::7")
	d.setServfail(reverseName(netip.MustParseAddr("198.51.100.20")))
	d.setSilent(reverseName(netip.MustParseAddr("198.51.100.21")))
	d.setPTR("198.51.100.22", "crawl-22.googlebot.com.")
	d.setServfail("crawl-22.googlebot.com.")
	return e
}

// client returns an HTTP client that trusts the test server and counts
// nothing more than the server does.
func (e *env) verifier(mod func(*Config)) *Verifier {
	c := Config{Client: e.srv.Client(), Resolver: e.dns.resolver(), Crawlers: e.table,
		DNSTimeout: 300 * time.Millisecond, FetchTimeout: 2 * time.Second}
	if mod != nil {
		mod(&c)
	}
	return New(c)
}

func hdr(kv ...string) http.Header {
	h := http.Header{}
	for i := 0; i+1 < len(kv); i += 2 {
		h.Add(kv[i], kv[i+1])
	}
	return h
}

// TestVerdicts holds every verdict for the IP-range and reverse-DNS paths,
// over a real DNS server and HTTPS server.
func TestVerdicts(t *testing.T) {
	e := newEnv(t)
	tests := []struct {
		name, ip, ua string
		feed         string // "" keeps the test file
		want         Status
		method       Method
		evidence     string
		reason       string
	}{
		{"browser", "192.0.2.1", browserUA, "", Unclaimed, NoMethod, "", "no crawler of the table named"},
		{"no UA", "192.0.2.1", "", "", Unclaimed, NoMethod, "", "no User-Agent names no crawler"},
		{"meta", "192.0.2.1", metaUA, "", Unverifiable, NoMethod, "", "Meta documents no method"},
		{"range v4", "192.0.2.5", googlebotUA, "", Verified, IPRanges, e.srv.URL + "/google.json", "in the operator's prefix file"},
		{"range v6", "2001:db8:100::1", googlebotUA, "", Verified, IPRanges, e.srv.URL + "/google.json", "IPv6 prefix of the file"},
		{"range v4-mapped", "::ffff:192.0.2.5", googlebotUA, "", Verified, IPRanges, e.srv.URL + "/google.json", "an IPv4-mapped peer is its IPv4 address"},
		{"rdns", "198.51.100.7", googlebotUA, "", Verified, ReverseDNS, "crawl-198-51-100-7.googlebot.com", "googlebot.com name whose A record holds the address"},
		{"rdns geo", "198.51.100.8", googlebotUA, "", Verified, ReverseDNS, "geo-crawl-1.geo.googlebot.com", "geo.googlebot.com, Google's verifying page"},
		{"rdns v6", "2001:db8:ff::7", googlebotUA, "", Verified, ReverseDNS, "crawl-v6.googlebot.com", "AAAA record holds the address"},
		{"nxdomain", "203.0.113.9", googlebotUA, "", Forged, NoMethod, "", "not in the file, no PTR name: both checked"},
		{"evil prefix label", "198.51.100.9", googlebotUA, "", Forged, NoMethod, "", "evilgooglebot.com is not under googlebot.com"},
		{"evil suffix", "198.51.100.10", googlebotUA, "", Forged, NoMethod, "", "googlebot.com.evil.example is not under googlebot.com"},
		{"forward mismatch", "198.51.100.11", googlebotUA, "", Forged, NoMethod, "", "the name's A record does not hold the address"},
		{"servfail", "198.51.100.20", googlebotUA, "", Unknown, NoMethod, "reverse DNS unavailable", "SERVFAIL is not an answer"},
		{"timeout", "198.51.100.21", googlebotUA, "", Unknown, NoMethod, "reverse DNS unavailable", "no answer within DNSTimeout"},
		{"forward servfail", "198.51.100.22", googlebotUA, "", Unknown, NoMethod, "reverse DNS unavailable", "the forward lookup fails"},
		{"empty feed", "203.0.113.9", googlebotUA, `{"creationTime":"2026-04-01T00:00:00","prefixes":[]}`, Unknown, NoMethod, "prefix file unavailable: " + e.srv.URL + "/google.json", "a file without prefixes is unavailable (Google's old addresses since 2026-03-31)"},
		{"empty feed, rdns", "198.51.100.7", googlebotUA, `{"prefixes":[]}`, Verified, ReverseDNS, "crawl-198-51-100-7.googlebot.com", "another method still matches"},
		{"bad json", "203.0.113.9", googlebotUA, `<html>moved</html>`, Unknown, NoMethod, "prefix file unavailable: " + e.srv.URL + "/google.json", "a file that does not parse is unavailable"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body := []byte(testFeed)
			if tt.feed != "" {
				body = []byte(tt.feed)
			}
			e.feed.Store(&body)
			v := e.verifier(nil)
			d := v.Verify(context.Background(), Request{RemoteIP: netip.MustParseAddr(tt.ip), Header: hdr("User-Agent", tt.ua)})
			if d.Status != tt.want || d.Method != tt.method || d.Evidence != tt.evidence {
				t.Errorf("Verify(%s, %q) = %v %v %q, want %v %v %q (%s)", tt.ip, tt.ua, d.Status, d.Method, d.Evidence, tt.want, tt.method, tt.evidence, tt.reason)
			}
		})
	}
}

// TestFeedCache: a fetched file is used for FeedRefresh without asking
// again, then asked for with If-None-Match; a 304 keeps the copy.
func TestFeedCache(t *testing.T) {
	e := newEnv(t)
	v := e.verifier(nil)
	now := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	ask := func(at time.Time) Verdict {
		return v.Verify(context.Background(), Request{RemoteIP: netip.MustParseAddr("192.0.2.5"), Header: hdr("User-Agent", googlebotUA), Now: at})
	}
	ask(now)
	ask(now.Add(30 * time.Minute))
	if n := e.feedHits.Load(); n != 1 {
		t.Fatalf("%d fetches within FeedRefresh, want 1", n)
	}
	if d := ask(now.Add(FeedRefresh + time.Minute)); d.Status != Verified {
		t.Fatalf("stale copy answers %v while it is asked for again", d.Status)
	}
	deadline := time.Now().Add(5 * time.Second)
	for e.feed304.Load() == 0 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if e.feed304.Load() != 1 || e.feedHits.Load() != 2 {
		t.Fatalf("after FeedRefresh: %d fetches, %d answered 304; want 2 and 1 (a conditional request)", e.feedHits.Load(), e.feed304.Load())
	}
}

// TestFeedFlipsEmpty: a file that turns empty after a good copy keeps the
// good copy answering until FeedMaxStale, then is unavailable: Unknown,
// never Forged.
func TestFeedFlipsEmpty(t *testing.T) {
	e := newEnv(t)
	e.table[0].Verify.ReverseDNS = nil
	v := e.verifier(nil)
	now := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	ask := func(ip string, at time.Time) Status {
		return v.Verify(context.Background(), Request{RemoteIP: netip.MustParseAddr(ip), Header: hdr("User-Agent", googlebotUA), Now: at}).Status
	}
	if s := ask("203.0.113.9", now); s != Forged {
		t.Fatalf("with a good file: %v, want forged", s)
	}
	empty := []byte(`{"creationTime":"2026-12-01T01:00:00","prefixes":[]}`)
	e.feed.Store(&empty)
	// Ask past the refresh; wait for the background fetch to store its
	// failure.
	ask("192.0.2.5", now.Add(FeedRefresh+time.Second))
	deadline := time.Now().Add(5 * time.Second)
	for e.feedHits.Load() < 2 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	time.Sleep(50 * time.Millisecond)
	if s := ask("192.0.2.5", now.Add(2*FeedRefresh)); s != Verified {
		t.Errorf("good copy within FeedMaxStale: %v, want verified", s)
	}
	if s := ask("203.0.113.9", now.Add(FeedMaxStale+time.Hour)); s != Unknown {
		t.Errorf("empty file past FeedMaxStale: %v, want unknown", s)
	}
}

// TestFeedHangsOrGrows: a file that never answers, or streams 100 MB,
// costs at most FetchTimeout and MaxFeedBytes, and the claim is Unknown.
func TestFeedHangsOrGrows(t *testing.T) {
	hang := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/hang.json":
			select {
			case <-hang:
			case <-r.Context().Done():
			}
		case "/huge.json":
			w.Write([]byte(`{"prefixes":[`))
			chunk := make([]byte, 1<<20)
			for i := range chunk {
				chunk[i] = ' '
			}
			for i := 0; i < 100; i++ {
				if _, err := w.Write(chunk); err != nil {
					return
				}
			}
		}
	}))
	defer srv.Close()
	defer close(hang)
	for _, path := range []string{"/hang.json", "/huge.json"} {
		table := []crawlers.Crawler{{Token: "Googlebot", Verify: crawlers.Verification{Ranges: []string{srv.URL + path}}}}
		v := New(Config{Client: srv.Client(), Crawlers: table, FetchTimeout: 300 * time.Millisecond, MaxFeedBytes: 1 << 20})
		start := time.Now()
		d := v.Verify(context.Background(), Request{RemoteIP: netip.MustParseAddr("203.0.113.1"), Header: hdr("User-Agent", googlebotUA)})
		if took := time.Since(start); took > 3*time.Second {
			t.Errorf("%s: took %v, want about FetchTimeout", path, took)
		}
		if d.Status != Unknown {
			t.Errorf("%s: %v, want unknown", path, d.Status)
		}
	}
}

// TestDNSSlowOrHuge: a DNS server slower than DNSTimeout gives Unknown in
// bounded time; an address with 1,000 PTR names (sent over TCP after a
// truncated UDP answer) costs at most MaxPTRNames forward lookups.
func TestDNSSlowOrHuge(t *testing.T) {
	e := newEnv(t)
	e.table[0].Verify.Ranges = nil
	var names []string
	for i := 0; i < 1000; i++ {
		names = append(names, "crawl-"+formatInt(int64(i))+".googlebot.com.")
	}
	e.dns.setPTR("198.51.100.50", names...)
	v := e.verifier(nil)
	before := e.dns.queries.Load()
	start := time.Now()
	d := v.Verify(context.Background(), Request{RemoteIP: netip.MustParseAddr("198.51.100.50"), Header: hdr("User-Agent", googlebotUA)})
	if d.Status != Forged {
		t.Errorf("1,000 PTR names, none confirmed: %v, want forged", d.Status)
	}
	// Each forward lookup asks A and AAAA; the PTR lookup is one UDP and
	// one TCP query. Allow a retry per query.
	if q := e.dns.queries.Load() - before; q > 2*(2+2*MaxPTRNames) {
		t.Errorf("%d queries for 1,000 PTR names, want at most %d", q, 2*(2+2*MaxPTRNames))
	}
	if took := time.Since(start); took > 3*time.Second {
		t.Errorf("took %v", took)
	}

	e.dns.mu.Lock()
	e.dns.delay = time.Second
	e.dns.mu.Unlock()
	v = e.verifier(nil)
	start = time.Now()
	d = v.Verify(context.Background(), Request{RemoteIP: netip.MustParseAddr("198.51.100.7"), Header: hdr("User-Agent", googlebotUA)})
	if d.Status != Unknown {
		t.Errorf("slow DNS: %v, want unknown", d.Status)
	}
	if took := time.Since(start); took > time.Second {
		t.Errorf("slow DNS took %v, want about DNSTimeout (300ms)", took)
	}
}

// TestLoadSnapshot: the dated test fixture loads offline, and its files
// answer with no client.
func TestLoadSnapshot(t *testing.T) {
	f, err := os.Open("testdata/ranges-snapshot.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	v := New(Config{})
	if err := v.LoadSnapshot(f); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		ip, ua string
		want   Status
	}{
		{"192.0.2.5", googlebotUA, Verified},
		{"2001:db8:100::5", googlebotUA, Verified},
		{"192.0.2.70", "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)", Verified},
		{"192.0.2.5", "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)", Unknown},                                          // reverse DNS not checked offline
		{"192.0.2.5", "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; OAI-SearchBot/1.0; +https://openai.com/searchbot", Unknown}, // no file loaded
	} {
		if d := v.Verify(context.Background(), Request{RemoteIP: netip.MustParseAddr(tt.ip), Header: hdr("User-Agent", tt.ua)}); d.Status != tt.want {
			t.Errorf("%s %q: %v, want %v", tt.ip, tt.ua, d.Status, tt.want)
		}
	}
}

// sigSpec describes a signature for a test to make by hand.
type sigSpec struct {
	label            string
	comps            []string
	created, expires int64
	keyid, tag       string
	key              ed25519.PrivateKey
	target           string // the URL signed
}

// sign adds the signature s describes to h, over the request GET s.target.
func (s sigSpec) sign(t testing.TB, h http.Header) {
	t.Helper()
	in := grammar.SFMember{Key: s.label, Inner: true}
	for _, c := range s.comps {
		in.Items = append(in.Items, grammar.SFItem{Kind: grammar.SFString, Str: c})
	}
	in.Params = []grammar.SFParam{
		{Key: "created", Value: grammar.SFItem{Kind: grammar.SFInteger, Int: s.created}},
		{Key: "expires", Value: grammar.SFItem{Kind: grammar.SFInteger, Int: s.expires}},
		{Key: "keyid", Value: grammar.SFItem{Kind: grammar.SFString, Str: s.keyid}},
		{Key: "tag", Value: grammar.SFItem{Kind: grammar.SFString, Str: s.tag}},
	}
	u, _ := url.Parse(s.target)
	base, err := signatureBase(message{method: "GET", url: u, header: h}, in)
	if err != nil {
		t.Fatal(err)
	}
	h.Add("Signature-Input", string(grammar.AppendSFMemberValue([]byte(s.label+"="), in)))
	h.Add("Signature", string(grammar.AppendSFItem([]byte(s.label+"="), grammar.SFItem{Kind: grammar.SFBytes, Bytes: ed25519.Sign(s.key, base)})))
}

// TestSignatures holds a valid Web Bot Auth signature and every way of
// breaking one (draft-meunier-webbotauth-httpsig-protocol-00, RFC 9421).
func TestSignatures(t *testing.T) {
	e := newEnv(t)
	_, other, _ := ed25519.GenerateKey(nil)
	now := time.Now().Truncate(time.Second)
	kid := KeyID(e.key.Public().(ed25519.PublicKey))
	target := "https://site.example/page?q=1"
	good := func() sigSpec {
		return sigSpec{label: "sig1", comps: []string{"@authority", "signature-agent"}, created: now.Unix() - 1,
			expires: now.Unix() + 60, keyid: kid, tag: Tag, key: e.key, target: target}
	}
	agentDict := `sig1="` + e.srv.URL + `"`
	tests := []struct {
		name    string
		agent   string // Signature-Agent value
		specs   []sigSpec
		mod     func(*sigSpec)
		dirMode string
		reqURL  string // the URL verified; "" is target
		table   func([]crawlers.Crawler)
		ua      string
		want    Status
		reason  string
	}{
		{name: "valid", agent: agentDict, want: Verified, reason: "draft §4: tag, keyid thumbprint, @authority and signature-agent covered"},
		{name: "legacy string agent", agent: `"` + e.srv.URL + `"`, want: Verified, reason: "earlier drafts: Signature-Agent a bare String"},
		{name: "dictionary without label", agent: `other="` + e.srv.URL + `"`, want: Forged, reason: "newest draft: the member keyed by the signature's label names the agent"},
		{name: "expired", agent: agentDict, mod: func(s *sigSpec) { s.created, s.expires = now.Unix()-120, now.Unix()-60 }, want: Forged, reason: "expires in the past"},
		{name: "future", agent: agentDict, mod: func(s *sigSpec) { s.created = now.Unix() + 3600 }, want: Forged, reason: "created beyond ClockSkew"},
		{name: "other tag", agent: agentDict, mod: func(s *sigSpec) { s.tag = "other" }, want: Forged, reason: `tag must be "web-bot-auth"`},
		{name: "no @authority", agent: agentDict, mod: func(s *sigSpec) { s.comps = []string{"signature-agent"} }, want: Forged, reason: "@authority (or @target-uri) must be covered"},
		{name: "@target-uri", agent: agentDict, mod: func(s *sigSpec) { s.comps = []string{"@target-uri", "signature-agent"} }, want: Verified, reason: "@target-uri instead of @authority"},
		{name: "no signature-agent", agent: agentDict, mod: func(s *sigSpec) { s.comps = []string{"@authority"} }, want: Forged, reason: "signature-agent sent must be covered"},
		{name: "unknown keyid", agent: agentDict, mod: func(s *sigSpec) { s.keyid = "AAAA" }, want: Forged, reason: "keyid not in the directory"},
		{name: "other key", agent: agentDict, mod: func(s *sigSpec) { s.key = other }, want: Forged, reason: "signature by another key under the keyid"},
		{name: "other path", agent: agentDict, mod: func(s *sigSpec) { s.comps = []string{"@authority", "@path", "signature-agent"} }, reqURL: "https://site.example/other", want: Forged, reason: "a signature over @path replayed on another path"},
		{name: "other authority", agent: agentDict, reqURL: "https://other.example/page?q=1", want: Forged, reason: "a signature replayed on another site"},
		{name: "other agent", agent: `sig1="https://agent.example"`, want: Forged, reason: "a signature agent other than the operator's is no match"},
		{name: "agent with path", agent: `sig1="` + e.srv.URL + `/keys"`, want: Forged, reason: "Signature-Agent names an origin"},
		{name: "redirected directory", agent: agentDict, dirMode: "redirect", want: Unknown, reason: "no redirects are followed for the directory"},
		{name: "wrong media type", agent: agentDict, dirMode: "media", want: Unknown, reason: "the directory's media type is application/http-message-signatures-directory+json"},
		{name: "directory 500", agent: agentDict, dirMode: "500", want: Unknown, reason: "directory unavailable"},
		{name: "unreachable directory", agent: `sig1="https://127.0.0.1:1"`, table: func(c []crawlers.Crawler) { c[1].Verify.SignatureAgent = "https://127.0.0.1:1" }, want: Unknown, reason: "directory unreachable"},
		{name: "two signatures, one valid", agent: `sig0="` + e.srv.URL + `", sig1="` + e.srv.URL + `"`,
			specs: []sigSpec{{label: "sig0", comps: []string{"@authority", "signature-agent"}, created: now.Unix(), expires: now.Unix() + 60, keyid: kid, tag: "other", key: e.key, target: target}, good()},
			want:  Verified, reason: "RFC 9421 §4: several signatures; one valid is enough"},
		{name: "no signature", want: Forged, reason: "ChatGPT-User's only method here is a signature"},
		{name: "claimed by agent", agent: agentDict, ua: browserUA, want: Verified, reason: "ChatGPT agent sends a browser's User-Agent and signs as its origin"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mode := "ok"
			if tt.dirMode != "" {
				mode = tt.dirMode
			}
			e.dirMode.Store(&mode)
			table := append([]crawlers.Crawler(nil), e.table...)
			if tt.table != nil {
				table[1].Verify = crawlers.Verification{SignatureAgent: table[1].Verify.SignatureAgent}
				tt.table(table)
			}
			v := e.verifier(func(c *Config) { c.Crawlers = table })
			ua := chatgptUA
			if tt.ua != "" {
				ua = tt.ua
			}
			h := hdr("User-Agent", ua)
			if tt.agent != "" {
				h.Set("Signature-Agent", tt.agent)
			}
			specs := tt.specs
			if specs == nil && tt.name != "no signature" {
				s := good()
				if tt.mod != nil {
					tt.mod(&s)
				}
				specs = []sigSpec{s}
			}
			for _, s := range specs {
				s.sign(t, h)
			}
			u := target
			if tt.reqURL != "" {
				u = tt.reqURL
			}
			pu, _ := url.Parse(u)
			d := v.Verify(context.Background(), Request{RemoteIP: netip.MustParseAddr("203.0.113.1"), Method: "GET", URL: pu, Header: h, Now: now})
			if d.Status != tt.want {
				t.Errorf("%v (%q), want %v (%s)", d.Status, d.Evidence, tt.want, tt.reason)
			}
			if d.Status == Verified && (d.Method != WebBotAuth || d.Crawler != "ChatGPT-User") {
				t.Errorf("verified %q by %v, want ChatGPT-User by web-bot-auth", d.Crawler, d.Method)
			}
		})
	}
}

// TestSignerVerifies: a request our Signer sends verifies with our
// Verifier at the server, through the Middleware.
func TestSignerVerifies(t *testing.T) {
	e := newEnv(t)
	v := e.verifier(nil)
	var got Verdict
	site := httptest.NewServer(Middleware(v, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got, _ = FromContext(r.Context())
	}), MiddlewareOptions{}))
	defer site.Close()
	c := &http.Client{Transport: NewSigner(nil, e.key, e.srv.URL)}
	req, _ := http.NewRequest("GET", site.URL+"/some/page?x=1", nil)
	req.Header.Set("User-Agent", chatgptUA)
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if got.Status != Verified || got.Method != WebBotAuth {
		t.Fatalf("signed request: %+v, want verified by web-bot-auth", got)
	}
	if req.Header.Get("Signature") != "" {
		t.Error("the Signer changed the caller's request")
	}
}

// TestMiddlewareWarmCache: with the caches warm, the middleware makes no
// DNS query and no HTTP request; with RefuseForged, a forged claim is
// answered 403.
func TestMiddlewareWarmCache(t *testing.T) {
	e := newEnv(t)
	v := e.verifier(nil)
	h := Middleware(v, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		d, _ := FromContext(r.Context())
		w.Write([]byte(d.Status.String()))
	}), MiddlewareOptions{RefuseForged: true})
	serve := func(ip, ua string) *httptest.ResponseRecorder {
		r := httptest.NewRequest("GET", "http://site.example/", nil)
		r.RemoteAddr = ip + ":1234"
		r.Header.Set("User-Agent", ua)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w
	}
	for _, ip := range []string{"192.0.2.5", "198.51.100.7", "203.0.113.9"} {
		serve(ip, googlebotUA)
	}
	q, calls := e.dns.queries.Load(), e.httpCalls.Load()
	for i := 0; i < 20; i++ {
		if w := serve("192.0.2.5", googlebotUA); w.Body.String() != "verified" {
			t.Fatalf("range: %q", w.Body.String())
		}
		if w := serve("198.51.100.7", googlebotUA); w.Body.String() != "verified" {
			t.Fatalf("rdns: %q", w.Body.String())
		}
		if w := serve("203.0.113.9", googlebotUA); w.Code != http.StatusForbidden {
			t.Fatalf("forged: %d, want 403", w.Code)
		}
	}
	if dq, dc := e.dns.queries.Load()-q, e.httpCalls.Load()-calls; dq != 0 || dc != 0 {
		t.Errorf("warm cache: %d DNS queries, %d HTTP requests; want none", dq, dc)
	}
}

// TestSignatureWithoutTarget: a signed request given without its target
// URI cannot be checked, so it is Unknown, not Forged (a caller that
// leaves Request.URL nil must not turn signed crawlers into forgeries).
func TestSignatureWithoutTarget(t *testing.T) {
	e := newEnv(t)
	v := e.verifier(nil)
	now := time.Now().Truncate(time.Second)
	h := hdr("User-Agent", chatgptUA, "Signature-Agent", `sig1="`+e.srv.URL+`"`)
	sigSpec{label: "sig1", comps: []string{"@authority", "signature-agent"}, created: now.Unix(), expires: now.Unix() + 60,
		keyid: KeyID(e.key.Public().(ed25519.PublicKey)), tag: Tag, key: e.key, target: "https://site.example/"}.sign(t, h)
	for _, u := range []*url.URL{nil, {Path: "/relative"}} {
		d := v.Verify(context.Background(), Request{RemoteIP: netip.MustParseAddr("203.0.113.1"), Method: "GET", URL: u, Header: h, Now: now})
		if d.Status != Unknown {
			t.Errorf("URL %v: %v (%q), want unknown", u, d.Status, d.Evidence)
		}
	}
}

// TestMiddlewareWarmSignature: once the key directory is cached, signed
// requests are verified with no HTTP request to it.
func TestMiddlewareWarmSignature(t *testing.T) {
	e := newEnv(t)
	v := e.verifier(nil)
	var got []Status
	site := httptest.NewServer(Middleware(v, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		d, _ := FromContext(r.Context())
		got = append(got, d.Status)
	}), MiddlewareOptions{}))
	defer site.Close()
	c := &http.Client{Transport: NewSigner(nil, e.key, e.srv.URL)}
	get := func() {
		req, _ := http.NewRequest("GET", site.URL+"/p", nil)
		req.Header.Set("User-Agent", chatgptUA)
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	get()
	calls := e.httpCalls.Load()
	for i := 0; i < 10; i++ {
		get()
	}
	if n := e.httpCalls.Load() - calls; n != 0 {
		t.Errorf("%d requests to the key directory with it cached, want 0", n)
	}
	for i, s := range got {
		if s != Verified {
			t.Errorf("request %d: %v", i, s)
		}
	}
}

// TestCanceledRequestLeavesNoTrace: a request whose context has ended
// while a prefix file, a DNS answer or a key directory was being fetched
// is Unknown, and the next request is answered as if it had never been:
// an impatient client does not make the verifier forget a crawler.
func TestCanceledRequestLeavesNoTrace(t *testing.T) {
	e := newEnv(t)
	now := time.Now().Truncate(time.Second)
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	kid := KeyID(e.key.Public().(ed25519.PublicKey))
	signed := hdr("User-Agent", chatgptUA, "Signature-Agent", `sig1="`+e.srv.URL+`"`)
	sigSpec{label: "sig1", comps: []string{"@authority", "signature-agent"}, created: now.Unix(), expires: now.Unix() + 60,
		keyid: kid, tag: Tag, key: e.key, target: "https://site.example/"}.sign(t, signed)
	target, _ := url.Parse("https://site.example/")
	for _, tt := range []struct {
		name, ip string
		header   http.Header
		noRanges bool
	}{
		{"prefix file", "192.0.2.5", hdr("User-Agent", googlebotUA), false},
		{"reverse DNS", "198.51.100.7", hdr("User-Agent", googlebotUA), true},
		{"key directory", "203.0.113.1", signed, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			v := e.verifier(func(c *Config) {
				c.Crawlers = append([]crawlers.Crawler(nil), e.table...)
				if tt.noRanges {
					c.Crawlers[0].Verify.Ranges = nil
				}
			})
			r := Request{RemoteIP: netip.MustParseAddr(tt.ip), Method: "GET", URL: target, Header: tt.header, Now: now}
			if d := v.Verify(canceled, r); d.Status != Unknown && d.Status != Verified {
				t.Errorf("canceled: %v, want unknown (or verified)", d.Status)
			}
			if d := v.Verify(context.Background(), r); d.Status != Verified {
				t.Errorf("after a canceled request: %v (%q), want verified", d.Status, d.Evidence)
			}
		})
	}
}

// TestManySignaturesBounded: a request with 20,000 signatures (a
// Signature-Input of 1.2 MB, about what a server lets through) costs
// bounded time: fields over MaxSignatureFieldBytes are not parsed. Below
// that, fields are paired by label in one pass (TestManySignaturesParse),
// and at most MaxSignatures signatures tagged web-bot-auth are checked
// (TestMaxSignatures).
func TestManySignaturesBounded(t *testing.T) {
	e := newEnv(t)
	v := e.verifier(nil)
	now := time.Now().Truncate(time.Second)
	var in, sig strings.Builder
	for i := 0; i < 20000; i++ {
		if i > 0 {
			in.WriteString(", ")
			sig.WriteString(", ")
		}
		label := "s" + formatInt(int64(i))
		in.WriteString(label + `=("@authority" "signature-agent");created=` + formatInt(now.Unix()) + `;expires=` + formatInt(now.Unix()+60) + `;keyid="` + KeyID(e.key.Public().(ed25519.PublicKey)) + `";tag="web-bot-auth"`)
		sig.WriteString(label + `=:` + strings.Repeat("A", 86) + `==:`)
	}
	h := hdr("User-Agent", chatgptUA, "Signature-Agent", `"`+e.srv.URL+`"`, "Signature-Input", in.String(), "Signature", sig.String())
	target, _ := url.Parse("https://site.example/")
	start := time.Now()
	d := v.Verify(context.Background(), Request{RemoteIP: netip.MustParseAddr("203.0.113.1"), Method: "GET", URL: target, Header: h, Now: now})
	if took := time.Since(start); took > time.Second {
		t.Errorf("20,000 signatures took %v", took)
	}
	if d.Status != Forged {
		t.Errorf("%v, want forged", d.Status)
	}
}

// TestMaxSignatures: only the first MaxSignatures signatures tagged
// web-bot-auth are checked; a valid one after them is not reached.
func TestMaxSignatures(t *testing.T) {
	e := newEnv(t)
	now := time.Now().Truncate(time.Second)
	kid := KeyID(e.key.Public().(ed25519.PublicKey))
	target, _ := url.Parse("https://site.example/")
	for _, bad := range []int{MaxSignatures - 1, MaxSignatures} {
		v := e.verifier(nil)
		h := hdr("User-Agent", chatgptUA, "Signature-Agent", `"`+e.srv.URL+`"`)
		for i := 0; i <= bad; i++ {
			s := sigSpec{label: "s" + formatInt(int64(i)), comps: []string{"@authority", "signature-agent"}, created: now.Unix(), expires: now.Unix() + 60,
				keyid: kid, tag: Tag, key: e.key, target: "https://other.example/"}
			if i == bad {
				s.target = target.String()
			}
			s.sign(t, h)
		}
		want := Verified
		if bad >= MaxSignatures {
			want = Forged
		}
		if d := v.Verify(context.Background(), Request{RemoteIP: netip.MustParseAddr("203.0.113.1"), Method: "GET", URL: target, Header: h, Now: now}); d.Status != want {
			t.Errorf("valid signature after %d invalid ones: %v, want %v", bad, d.Status, want)
		}
	}
}

// TestColdBurst: 50 requests at once, with nothing cached, make one fetch
// of the prefix file, one of the key directory, and the DNS queries of one
// address: those waiting share the answer of the one under way.
func TestColdBurst(t *testing.T) {
	e := newEnv(t)
	v := e.verifier(nil)
	now := time.Now().Truncate(time.Second)
	kid := KeyID(e.key.Public().(ed25519.PublicKey))
	target, _ := url.Parse("https://site.example/")
	signed := hdr("User-Agent", chatgptUA, "Signature-Agent", `"`+e.srv.URL+`"`)
	sigSpec{label: "sig1", comps: []string{"@authority", "signature-agent"}, created: now.Unix(), expires: now.Unix() + 60,
		keyid: kid, tag: Tag, key: e.key, target: target.String()}.sign(t, signed)
	reqs := []Request{
		{RemoteIP: netip.MustParseAddr("192.0.2.5"), Header: hdr("User-Agent", googlebotUA), Now: now},
		{RemoteIP: netip.MustParseAddr("198.51.100.7"), Header: hdr("User-Agent", googlebotUA), Now: now},
		{RemoteIP: netip.MustParseAddr("203.0.113.1"), Method: "GET", URL: target, Header: signed, Now: now},
	}
	q := e.dns.queries.Load()
	var wg sync.WaitGroup
	errs := make(chan string, 150)
	for i := 0; i < 50; i++ {
		for _, r := range reqs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if d := v.Verify(context.Background(), r); d.Status != Verified {
					errs <- fmt.Sprintf("%v: %v %q", r.RemoteIP, d.Status, d.Evidence)
				}
			}()
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n := e.feedHits.Load(); n != 1 {
		t.Errorf("%d fetches of the prefix file, want 1", n)
	}
	if n := e.dirHits.Load(); n != 1 {
		t.Errorf("%d fetches of the key directory, want 1", n)
	}
	// 198.51.100.7: a PTR query, then A and AAAA of its name; allow a
	// retry of each.
	if n := e.dns.queries.Load() - q; n > 6 {
		t.Errorf("%d DNS queries for one address, want at most 6", n)
	}
}

// TestManySignaturesParse: 20,000 members parse in linear time: repeated
// keys are found through a map, and the two fields are paired through one.
func TestManySignaturesParse(t *testing.T) {
	var in, sig strings.Builder
	for i := 0; i < 20000; i++ {
		if i > 0 {
			in.WriteString(", ")
			sig.WriteString(", ")
		}
		label := "s" + formatInt(int64(i))
		in.WriteString(label + `=("@authority");created=1;keyid="k";tag="web-bot-auth"`)
		sig.WriteString(label + `=:AAAA:`)
	}
	start := time.Now()
	sigs, err := parseSignatures(in.String(), sig.String())
	if err != nil || len(sigs) != 20000 {
		t.Fatalf("%d signatures, %v", len(sigs), err)
	}
	limit := time.Second
	if raceEnabled {
		limit *= 10
	}
	if took := time.Since(start); took > limit {
		t.Errorf("20,000 signatures parsed in %v, want under %v", took, limit)
	}
}

// TestFeedIfModifiedSince: a file served with Last-Modified and no ETag
// is asked for again with If-Modified-Since, and a 304 keeps the copy.
func TestFeedIfModifiedSince(t *testing.T) {
	modified := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	var hits, conditional atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if r.Header.Get("If-Modified-Since") == modified.Format(http.TimeFormat) {
			conditional.Add(1)
		}
		http.ServeContent(w, r, "", modified, strings.NewReader(testFeed))
	}))
	defer srv.Close()
	v := New(Config{Client: srv.Client(), Crawlers: []crawlers.Crawler{{Token: "Googlebot", Verify: crawlers.Verification{Ranges: []string{srv.URL + "/f.json"}}}}})
	now := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	r := Request{RemoteIP: netip.MustParseAddr("192.0.2.5"), Header: hdr("User-Agent", googlebotUA), Now: now}
	v.Verify(context.Background(), r)
	r.Now = now.Add(FeedRefresh)
	v.Verify(context.Background(), r)
	deadline := time.Now().Add(5 * time.Second)
	for hits.Load() < 2 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	time.Sleep(20 * time.Millisecond)
	r.Now = now.Add(FeedRefresh + time.Minute)
	if d := v.Verify(context.Background(), r); d.Status != Verified {
		t.Errorf("after a 304: %v, want verified from the kept copy", d.Status)
	}
	if hits.Load() != 2 || conditional.Load() != 1 {
		t.Errorf("%d fetches, %d with If-Modified-Since; want 2 and 1", hits.Load(), conditional.Load())
	}
}

// TestNoRemoteAddress: a request given without a valid remote address
// (a RemoteAddr the middleware cannot read) has its IP ranges and reverse
// DNS unchecked: Unknown, not Forged. Googlebot here has only its prefix
// file, as GPTBot has.
func TestNoRemoteAddress(t *testing.T) {
	e := newEnv(t)
	e.table[0].Verify.ReverseDNS = nil
	v := e.verifier(nil)
	if d := v.Verify(context.Background(), Request{Header: hdr("User-Agent", googlebotUA)}); d.Status != Unknown {
		t.Errorf("no address: %v (%q), want unknown", d.Status, d.Evidence)
	}
	h := Middleware(v, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		d, _ := FromContext(r.Context())
		w.Write([]byte(d.Status.String()))
	}), MiddlewareOptions{RefuseForged: true})
	r := httptest.NewRequest("GET", "http://site.example/", nil)
	r.RemoteAddr = "@unix"
	r.Header.Set("User-Agent", googlebotUA)
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	if w.Code != http.StatusOK || w.Body.String() != "unknown" {
		t.Errorf("unreadable RemoteAddr: %d %q, want 200 unknown", w.Code, w.Body.String())
	}
}

// TestKeyRotation: a keyid missing from the cached key directory makes
// the directory be read again, at most once per DirectoryRetry: an
// operator's new key is believed within a minute, and made-up keyids cost
// at most one fetch a minute.
func TestKeyRotation(t *testing.T) {
	e := newEnv(t)
	v := e.verifier(nil)
	now := time.Now().Truncate(time.Second)
	target, _ := url.Parse("https://site.example/")
	ask := func(key ed25519.PrivateKey, at time.Time) Status {
		h := hdr("User-Agent", chatgptUA, "Signature-Agent", `"`+e.srv.URL+`"`)
		sigSpec{label: "sig1", comps: []string{"@authority", "signature-agent"}, created: at.Unix(), expires: at.Unix() + 60,
			keyid: KeyID(key.Public().(ed25519.PublicKey)), tag: Tag, key: key, target: target.String()}.sign(t, h)
		return v.Verify(context.Background(), Request{RemoteIP: netip.MustParseAddr("203.0.113.1"), Method: "GET", URL: target, Header: h, Now: at}).Status
	}
	if s := ask(e.key, now); s != Verified {
		t.Fatalf("old key: %v", s)
	}
	mode := "rotated"
	e.dirMode.Store(&mode)
	if s := ask(e.rotated, now.Add(DirectoryRetry/2)); s != Forged {
		t.Errorf("new key within DirectoryRetry of the fetch: %v, want forged (not asked again yet)", s)
	}
	if s := ask(e.rotated, now.Add(DirectoryRetry+time.Second)); s != Verified {
		t.Errorf("new key after DirectoryRetry: %v, want verified", s)
	}
	for i := 0; i < 5; i++ {
		ask(e.key, now.Add(DirectoryRetry+2*time.Second)) // the old key, now unknown
	}
	if n := e.dirHits.Load(); n != 2 {
		t.Errorf("%d fetches of the directory, want 2", n)
	}
}

// TestKeyRotationDirectoryDown: when the directory asked again for a
// missing keyid cannot be read, the keyid is unchecked (Unknown) until the
// next try, and the keys read before still verify.
func TestKeyRotationDirectoryDown(t *testing.T) {
	e := newEnv(t)
	v := e.verifier(nil)
	now := time.Now().Truncate(time.Second)
	target, _ := url.Parse("https://site.example/")
	ask := func(key ed25519.PrivateKey, at time.Time) Status {
		h := hdr("User-Agent", chatgptUA, "Signature-Agent", `"`+e.srv.URL+`"`)
		sigSpec{label: "sig1", comps: []string{"@authority", "signature-agent"}, created: at.Unix(), expires: at.Unix() + 60,
			keyid: KeyID(key.Public().(ed25519.PublicKey)), tag: Tag, key: key, target: target.String()}.sign(t, h)
		return v.Verify(context.Background(), Request{RemoteIP: netip.MustParseAddr("203.0.113.1"), Method: "GET", URL: target, Header: h, Now: at}).Status
	}
	if s := ask(e.key, now); s != Verified {
		t.Fatalf("old key: %v", s)
	}
	mode := "500"
	e.dirMode.Store(&mode)
	later := now.Add(DirectoryRetry + time.Second)
	if s := ask(e.rotated, later); s != Unknown {
		t.Errorf("new key, directory down: %v, want unknown", s)
	}
	if s := ask(e.rotated, later.Add(time.Second)); s != Unknown {
		t.Errorf("new key, directory down, within DirectoryRetry: %v, want unknown", s)
	}
	if s := ask(e.key, later.Add(time.Second)); s != Verified {
		t.Errorf("old key, directory down: %v, want verified from the keys read", s)
	}
	if n := e.dirHits.Load(); n != 2 {
		t.Errorf("%d fetches of the directory, want 2", n)
	}
}
