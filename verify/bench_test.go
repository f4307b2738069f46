package verify

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"testing"
	"time"

	"github.com/robotstxt-go/robotstxt/crawlers"
)

// manyPrefixes returns n distinct prefixes, IPv4 and IPv6 in turn, as many
// as the operators' real files hold together (several thousand), in a
// prefix file.
func manyPrefixes(n int) []byte {
	type entry struct {
		IPv4Prefix string `json:"ipv4Prefix,omitempty"`
		IPv6Prefix string `json:"ipv6Prefix,omitempty"`
	}
	var f struct {
		Prefixes []entry `json:"prefixes"`
	}
	for i := 0; i < n; i++ {
		if i%2 == 0 {
			f.Prefixes = append(f.Prefixes, entry{IPv4Prefix: fmt.Sprintf("%d.%d.%d.0/24", 10+i/65536%200, i/256%256, i%256)})
		} else {
			f.Prefixes = append(f.Prefixes, entry{IPv6Prefix: fmt.Sprintf("2001:db8:%x:%x::/64", i/65536, i%65536)})
		}
	}
	b, _ := json.Marshal(f)
	return b
}

const benchPrefixes = 8000

// offlineVerifier returns a Verifier whose Googlebot row's prefix file,
// loaded offline, holds benchPrefixes prefixes.
func offlineVerifier(tb testing.TB) *Verifier {
	tb.Helper()
	const u = "https://ranges.example/common-crawlers.json"
	v := New(Config{Crawlers: []crawlers.Crawler{
		{Token: "bingbot", Verify: crawlers.Verification{Ranges: []string{"https://ranges.example/bingbot.json"}}},
		{Token: "Googlebot", Verify: crawlers.Verification{Ranges: []string{u}, ReverseDNS: []string{"googlebot.com"}}},
	}})
	if err := v.LoadRanges(u, manyPrefixes(benchPrefixes), time.Now()); err != nil {
		tb.Fatal(err)
	}
	return v
}

// rangeRequest is a Googlebot request from an address of the file: its
// last IPv4 prefix, so that the search goes deep.
var rangeRequest = Request{
	RemoteIP: netip.MustParseAddr("10.31.62.5"),
	Header:   http.Header{"User-Agent": {googlebotUA}},
	Now:      time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC),
}

var verdictSink Verdict

// BenchmarkVerifyRanges is a verdict on the IP-range path with the file
// cached: the budget is 2µs and no allocation.
func BenchmarkVerifyRanges(b *testing.B) {
	v := offlineVerifier(b)
	ctx := context.Background()
	if d := v.Verify(ctx, rangeRequest); d.Status != Verified {
		b.Fatalf("%+v", d)
	}
	b.ReportAllocs()
	for b.Loop() {
		verdictSink = v.Verify(ctx, rangeRequest)
	}
}

// TestVerifyRangesNoAllocs holds the IP-range path to zero allocations
// (without the race detector; .ci/verify runs it so).
func TestVerifyRangesNoAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are held without the race detector")
	}
	v := offlineVerifier(t)
	ctx := context.Background()
	for _, ip := range []string{"10.31.62.5", "10.0.0.1", "2001:db8:0:1::1", "::ffff:10.31.62.5"} {
		r := rangeRequest
		r.RemoteIP = netip.MustParseAddr(ip)
		if d := v.Verify(ctx, r); d.Status != Verified {
			t.Fatalf("%s: %+v", ip, d)
		}
		if n := testing.AllocsPerRun(1000, func() { verdictSink = v.Verify(ctx, r) }); n != 0 {
			t.Errorf("Verify(%s) on the IP-range path: %v allocations, want 0", ip, n)
		}
	}
}

// BenchmarkVerifySignature is a verdict on the Web Bot Auth path with the
// key directory cached: parsing the fields, building the base and one
// Ed25519 verification. The budget is 100µs.
func BenchmarkVerifySignature(b *testing.B) {
	e := newEnv(b)
	v := e.verifier(nil)
	var req *http.Request
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { req = r }))
	defer site.Close()
	c := &http.Client{Transport: NewSigner(nil, e.key, e.srv.URL)}
	r0, _ := http.NewRequest("GET", site.URL+"/page", nil)
	r0.Header.Set("User-Agent", chatgptUA)
	resp, err := c.Do(r0)
	if err != nil {
		b.Fatal(err)
	}
	resp.Body.Close()
	u, _ := url.Parse("http://" + req.Host + req.URL.RequestURI())
	r := Request{RemoteIP: netip.MustParseAddr("203.0.113.1"), Method: "GET", URL: u, Header: req.Header}
	ctx := context.Background()
	if d := v.Verify(ctx, r); d.Status != Verified {
		b.Fatalf("%+v", d)
	}
	b.ReportAllocs()
	for b.Loop() {
		verdictSink = v.Verify(ctx, r)
	}
}

// BenchmarkEd25519Verify is one ed25519.Verify alone, the floor under
// BenchmarkVerifySignature on the same machine.
func BenchmarkEd25519Verify(b *testing.B) {
	pub, priv, _ := ed25519.GenerateKey(nil)
	msg := []byte(`"@authority": site.example` + "\n" + `"@signature-params": ("@authority")`)
	sig := ed25519.Sign(priv, msg)
	for b.Loop() {
		if !ed25519.Verify(pub, msg, sig) {
			b.Fatal("does not verify")
		}
	}
}

// TestMaxFeedBytesHolds: DefaultMaxFeedBytes holds the 70,000 prefixes
// its comment says it does, in the shape RangesHandler writes them.
func TestMaxFeedBytesHolds(t *testing.T) {
	var ps []netip.Prefix
	for i := 0; i < 70000; i++ {
		if i%2 == 0 {
			ps = append(ps, netip.PrefixFrom(netip.AddrFrom4([4]byte{byte(10 + i>>16), byte(i >> 8), byte(i), 0}), 24))
		} else {
			ps = append(ps, netip.MustParsePrefix(fmt.Sprintf("2001:db8:%x:%x::/64", i>>16, i&0xffff)))
		}
	}
	rec := httptest.NewRecorder()
	RangesHandler(ps, time.Now()).ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
	if n := rec.Body.Len(); n > DefaultMaxFeedBytes {
		t.Errorf("70,000 prefixes take %d bytes, over DefaultMaxFeedBytes (%d)", n, DefaultMaxFeedBytes)
	}
}
