package verify

import (
	"net/netip"
	"net/url"
	"strings"
	"testing"
)

// FuzzSignatureFields: any Signature-Input and Signature parse without
// panic, and every signature they pair builds a base or an error, never a
// panic; a base ends with the @signature-params line.
func FuzzSignatureFields(f *testing.F) {
	f.Add(rfcB26Input, `sig-b26=:`+rfcB26Signature+`:`)
	f.Add(`sig1=("@authority" "signature-agent");created=1;expires=2;keyid="k";tag="web-bot-auth"`, `sig1=:AAAA:`)
	f.Add(`sig1=("@authority" "@authority");created=1`, `sig1=:AAAA:`)
	f.Add(`sig1=("x";bs)`, `sig1=:AAAA:, sig2=?1`)
	u, _ := url.Parse("https://example.com:443/foo?a=b")
	m := message{method: "GET", url: u, header: hdr("X", "1", "Signature-Agent", `"https://a.example"`)}
	f.Fuzz(func(t *testing.T, input, sig string) {
		sigs, err := parseSignatures(input, sig)
		if err != nil {
			return
		}
		for _, s := range sigs {
			base, err := signatureBase(m, s.input)
			if err == nil && !strings.Contains(string(base), `"@signature-params": (`) {
				t.Fatalf("base without its @signature-params line: %q", base)
			}
		}
	})
}

// FuzzSignatureAgent: any Signature-Agent value gives an origin or none;
// an origin is https, normalized, and names itself.
func FuzzSignatureAgent(f *testing.F) {
	f.Add(`sig1="https://chatgpt.com"`, "sig1")
	f.Add(`"https://chatgpt.com"`, "sig1")
	f.Add(`sig2="https://a.example", sig1="https://B.example:8443/"`, "sig1")
	f.Add(`sig1=("https://a.example")`, "sig1")
	f.Fuzz(func(t *testing.T, value, label string) {
		o, ok := ParseSignatureAgent(value, label)
		if !ok {
			return
		}
		if !strings.HasPrefix(o, "https://") {
			t.Fatalf("origin %q is not https", o)
		}
		if again, ok := normalizeOrigin(o); !ok || again != o {
			t.Fatalf("origin %q normalizes to %q, %v", o, again, ok)
		}
	})
}

// FuzzParseRanges: any prefix file parses or is unavailable; the binary
// search agrees with a plain scan of the prefixes for any address.
func FuzzParseRanges(f *testing.F) {
	f.Add([]byte(testFeed), []byte{192, 0, 2, 5})
	f.Add([]byte(`{"prefixes":[{"ipv4Prefix":"10.0.0.0/8"},{"ipv4Prefix":"10.1.0.0/16"},{"ipv6Prefix":"::/0"}]}`), []byte{10, 1, 2, 3})
	f.Add([]byte(`{"prefixes":[{"ipv4Prefix":"2001:db8::/32"},{"ipv6Prefix":"1.2.3.0/24"}]}`), make([]byte, 16))
	f.Add([]byte(`{"creationTime":1,"prefixes":{}}`), []byte{1})
	f.Fuzz(func(t *testing.T, data, addr []byte) {
		ps, err := ParseRanges(data)
		if err != nil {
			if ps != nil {
				t.Fatal("prefixes with an error")
			}
			return
		}
		if len(ps) == 0 {
			t.Fatal("no error and no prefix")
		}
		ip, ok := netip.AddrFromSlice(addr)
		if !ok {
			return
		}
		ip = ip.Unmap()
		want := false
		for _, p := range ps {
			if p != p.Masked() {
				t.Fatalf("prefix %v not masked", p)
			}
			want = want || p.Contains(ip)
		}
		if _, got := newPrefixSet(ps).lookup(ip); got != want {
			t.Fatalf("lookup(%v) = %v, scan says %v, prefixes %v", ip, got, want, ps)
		}
	})
}
