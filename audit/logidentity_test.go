package audit

import (
	"context"
	"encoding/binary"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/dns/dnsmessage"

	"github.com/robotstxt-go/robotstxt/verify"
)

// siteSnapshot holds the prefix files, in the snapshot shape that
// verify.LoadSnapshot and robotsaudit logs -ranges read, that cover the
// generated site's crawlers whose operators publish one: the compliant
// Googlebots, bingbot, CCBot, ClaudeBot and GPTBot. Not the operators'
// data: prefixes around the addresses the site uses, filed under the
// addresses of the operators' real prefix files (package crawlers' table).
const siteSnapshot = `{
  "fetched": "2026-03-01T00:00:00Z",
  "files": {
    "https://developers.google.com/static/crawling/ipranges/common-crawlers.json": {"prefixes": [{"ipv4Prefix": "66.249.66.0/27"}, {"ipv6Prefix": "2001:4860:4801:10::/64"}]},
    "https://www.bing.com/toolbox/bingbot.json": {"prefixes": [{"ipv4Prefix": "40.77.167.0/24"}]},
    "https://index.commoncrawl.org/ccbot.json": {"prefixes": [{"ipv4Prefix": "18.97.9.0/24"}]},
    "https://claude.com/crawling/bots.json": {"prefixes": [{"ipv4Prefix": "3.1.2.0/24"}]},
    "https://openai.com/gptbot.json": {"prefixes": [{"ipv4Prefix": "20.171.207.0/24"}]}
  }
}`

// siteZone is the DNS the generated site's crawlers resolve in: YandexBot,
// whose operator documents only reverse DNS, has a forward-confirmed name
// under yandex.com; every other name is NXDOMAIN, so the forged Googlebot's
// address has no host name and is checked by every method Google
// documents.
var siteZone = map[string][]string{
	"1.253.255.5.in-addr.arpa.":      {"spider-5-255-253-1.yandex.com."},
	"spider-5-255-253-1.yandex.com.": {"5.255.253.1"},
}

// zoneResolver is a resolver that asks no server: its lookups are answered
// from zone (PTR for reverse names, A for others) in memory, NXDOMAIN for
// names the zone lacks.
func zoneResolver(zone map[string][]string) *net.Resolver {
	return &net.Resolver{PreferGo: true, Dial: func(context.Context, string, string) (net.Conn, error) {
		client, server := net.Pipe()
		go serveZone(server, zone)
		return client, nil
	}}
}

// serveZone answers DNS queries over TCP framing (a net.Pipe is no
// PacketConn, so the resolver uses it as a stream) until c is closed.
func serveZone(c net.Conn, zone map[string][]string) {
	defer c.Close()
	for {
		var l [2]byte
		if _, err := io.ReadFull(c, l[:]); err != nil {
			return
		}
		q := make([]byte, binary.BigEndian.Uint16(l[:]))
		if _, err := io.ReadFull(c, q); err != nil {
			return
		}
		var p dnsmessage.Parser
		h, err := p.Start(q)
		if err != nil {
			return
		}
		qs, err := p.AllQuestions()
		if err != nil || len(qs) != 1 {
			return
		}
		qn := qs[0]
		b := dnsmessage.NewBuilder(nil, dnsmessage.Header{ID: h.ID, Response: true, Authoritative: true, RecursionDesired: h.RecursionDesired, RecursionAvailable: true})
		b.EnableCompression()
		values, ok := zone[qn.Name.String()]
		if !ok {
			b.StartQuestions()
			b.Question(qn)
			out, _ := b.Finish()
			out[3] |= byte(dnsmessage.RCodeNameError) // NXDOMAIN
			c.Write(append(binary.BigEndian.AppendUint16(nil, uint16(len(out))), out...))
			continue
		}
		b.StartQuestions()
		b.Question(qn)
		b.StartAnswers()
		rh := dnsmessage.ResourceHeader{Name: qn.Name, Class: dnsmessage.ClassINET, TTL: 300}
		for _, v := range values {
			switch qn.Type {
			case dnsmessage.TypePTR:
				b.PTRResource(rh, dnsmessage.PTRResource{PTR: dnsmessage.MustNewName(v)})
			case dnsmessage.TypeA:
				if a, err := netip.ParseAddr(v); err == nil && a.Is4() {
					b.AResource(rh, dnsmessage.AResource{A: a.As4()})
				}
			}
		}
		out, _ := b.Finish()
		c.Write(append(binary.BigEndian.AppendUint16(nil, uint16(len(out))), out...))
	}
}

// siteVerifier is a Verifier with siteSnapshot loaded and, when live,
// siteZone as its DNS.
func siteVerifier(t testing.TB, live bool) *verify.Verifier {
	t.Helper()
	cfg := verify.Config{}
	if live {
		cfg.Resolver = zoneResolver(siteZone)
	}
	v := verify.New(cfg)
	if err := v.LoadSnapshot(strings.NewReader(siteSnapshot)); err != nil {
		t.Fatal(err)
	}
	return v
}

// verifyDirectly is what verify says of a log line, asked directly.
func verifyDirectly(v *verify.Verifier, ip netip.Addr, ua string, t time.Time) string {
	return v.Verify(context.Background(), verify.Request{RemoteIP: ip, Method: http.MethodGet,
		Header: http.Header{"User-Agent": {ua}}, Now: t}).Status.String()
}

// TestVerifierIdentifier: the replay's identity is verify's verdict. The
// rows show where the replay's former offline checker (which called every
// address outside an operator's ranges forged) disagreed with verify: Google
// documents reverse DNS beside its prefix files
// (https://developers.google.com/search/docs/crawling-indexing/verifying-googlebot),
// so offline a Googlebot outside them is unknown, as robotstxt verify
// -offline says; with reverse DNS checked and no name found, it is forged.
func TestVerifierIdentifier(t *testing.T) {
	googlebot := "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
	gptbot := "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.1; +https://openai.com/gptbot"
	yandex := "Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)"
	tests := []struct {
		ip, ua        string
		offline, live string
		why           string
	}{
		{"66.249.66.1", googlebot, IdentityVerified, IdentityVerified, "in Google's prefix file"},
		{"::ffff:66.249.66.1", googlebot, IdentityVerified, IdentityVerified, "an IPv4-mapped address is the IPv4 one"},
		{"2001:4860:4801:10::1", "Googlebot-Image/1.0", IdentityVerified, IdentityVerified, "Googlebot-Image shares Googlebot's file"},
		{"203.0.113.9", googlebot, IdentityUnknown, IdentityForged, "outside Google's file: offline reverse DNS is unchecked (the former checker said forged); live it has no name"},
		{"20.171.207.7", gptbot, IdentityVerified, IdentityVerified, "in OpenAI's file"},
		{"20.171.206.7", gptbot, IdentityForged, IdentityForged, "OpenAI documents only its file for GPTBot: outside it, forged even offline"},
		{"5.255.253.1", yandex, IdentityUnknown, IdentityVerified, "Yandex documents only reverse DNS: unchecked offline, a confirmed name live"},
		{"5.255.253.2", yandex, IdentityUnknown, IdentityForged, "no name under Yandex's domains"},
		{"110.249.201.1", "Mozilla/5.0 (compatible; Bytespider; spider-feedback@bytedance.com)", IdentityUnverifiable, IdentityUnverifiable, "ByteDance documents no method"},
		{"192.0.2.1", "curl/8.5.0", IdentityUnclaimed, IdentityUnclaimed, "no crawler of the table"},
		{"", googlebot, IdentityUnknown, IdentityUnknown, "no address: nothing checked"},
	}
	for _, live := range []bool{false, true} {
		v := siteVerifier(t, live)
		id := VerifierIdentifier(context.Background(), v)
		for _, tt := range tests {
			ip, _ := netip.ParseAddr(tt.ip)
			want := tt.offline
			if live {
				want = tt.live
			}
			got := id.Identify(ip, tt.ua, siteStart)
			if got != want {
				t.Errorf("live=%v %s %q: %s, want %s (%s)", live, tt.ip, tt.ua, got, want, tt.why)
			}
			if direct := verifyDirectly(v, ip, tt.ua, siteStart); got != direct {
				t.Errorf("live=%v %s %q: the replay says %s, verify says %s", live, tt.ip, tt.ua, got, direct)
			}
		}
	}
	// In a replay, "" from an Identifier counts as unknown.
	_, res := runLogs(t, LogConfig{Identifier: IdentifierFunc(func(netip.Addr, string, time.Time) string { return "" })},
		[]byte(`66.249.66.1 - - [02/Mar/2026:10:00:00 +0000] "GET /x HTTP/1.1" 200 5 "-" "Googlebot/2.1"`+"\n"))
	if len(res.Crawlers) != 1 || res.Crawlers[0].Unknown != 1 {
		t.Errorf("an Identifier that cannot tell: %+v", res.Crawlers)
	}
}

// TestLogsIdentityIsVerify: over the generated site, offline and with
// reverse DNS, every judged request's identity is what verify.Verify says
// of its line, asked directly.
func TestLogsIdentityIsVerify(t *testing.T) {
	reqs := generateSite(1)
	for _, live := range []bool{false, true} {
		v := siteVerifier(t, live)
		rows, _ := runLogs(t, LogConfig{All: true, Workers: 2, Identifier: VerifierIdentifier(context.Background(), v)}, writeCLF(reqs, time.UTC))
		if len(rows) == 0 {
			t.Fatal("no rows")
		}
		seen := map[string]int{}
		for _, r := range rows {
			tm, err := time.Parse(time.RFC3339, r.Time)
			if err != nil {
				t.Fatal(err)
			}
			want := verifyDirectly(v, netip.MustParseAddr(r.IP), r.UserAgent, tm)
			if r.Identity != want {
				t.Errorf("live=%v line %d (%s %q): identity %s, verify says %s", live, r.Line, r.IP, r.UserAgent, r.Identity, want)
			}
			seen[r.Identity]++
		}
		// The site exercises each verdict the table can give it.
		for _, s := range []string{IdentityVerified, IdentityUnverifiable, IdentityUnknown} {
			if live && s == IdentityUnknown {
				s = IdentityForged
			}
			if seen[s] == 0 {
				t.Errorf("live=%v: no row is %s: %v", live, s, seen)
			}
		}
	}
}

// BenchmarkVerifierIdentifier is the cost of one request's identity:
// offline (a prefix-file lookup), and with reverse DNS whose answer the
// Verifier has cached (the same address asked again).
func BenchmarkVerifierIdentifier(b *testing.B) {
	googlebot := "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
	for _, tt := range []struct {
		name string
		live bool
		ip   string
	}{
		{"offline/in-file", false, "66.249.66.1"},
		{"offline/outside", false, "203.0.113.9"},
		{"dns-cached/outside", true, "203.0.113.9"},
	} {
		b.Run(tt.name, func(b *testing.B) {
			id := VerifierIdentifier(context.Background(), siteVerifier(b, tt.live))
			ip := netip.MustParseAddr(tt.ip)
			id.Identify(ip, googlebot, siteStart) // fills the caches
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				id.Identify(ip, googlebot, siteStart)
			}
		})
	}
}
