package verify

import (
	"crypto/ed25519"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"net/url"
	"testing"

	"github.com/robotstxt-go/robotstxt/internal/grammar"
)

// The test key of RFC 9421 Appendix B.1.4 (test-key-ed25519) and the
// request, signature input, signature base and signature of Appendix
// B.2.6, "Signing a Request Using ed25519".
const (
	rfcEd25519Private = `-----BEGIN PRIVATE KEY-----
MC4CAQAwBQYDK2VwBCIEIJ+DYvh6SEqVTm50DFtMDoQikTmiCqirVv9mWG9qfSnF
-----END PRIVATE KEY-----`
	rfcEd25519Public = `-----BEGIN PUBLIC KEY-----
MCowBQYDK2VwAyEAJrQLj5P/89iXES9+vFgrIy29clF9CC/oPPsw3c5D0bs=
-----END PUBLIC KEY-----`
	rfcB26Input = `sig-b26=("date" "@method" "@path" "@authority" "content-type" "content-length");created=1618884473;keyid="test-key-ed25519"`
	rfcB26Base  = `"date": Tue, 20 Apr 2021 02:07:55 GMT
"@method": POST
"@path": /foo
"@authority": example.com
"content-type": application/json
"content-length": 18
"@signature-params": ("date" "@method" "@path" "@authority" "content-type" "content-length");created=1618884473;keyid="test-key-ed25519"`
	rfcB26Signature = `wqcAqbmYJ2ji2glfAMaRy4gruYYnx2nEFN2HN6jrnDnQCK1u02Gb04v9EDgwUPiu4A0w6vuQv5lIp5WPpBKRCw==`
)

// TestRFC9421B26 rebuilds the signature base of RFC 9421 Appendix B.2.6
// byte for byte, and its signature: Ed25519 is deterministic (RFC 8032
// §5.1.6), so the same key and base give the same bytes.
func TestRFC9421B26(t *testing.T) {
	block, _ := pem.Decode([]byte(rfcEd25519Private))
	k, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	priv := k.(ed25519.PrivateKey)
	block, _ = pem.Decode([]byte(rfcEd25519Public))
	pk, err := x509.ParsePKIXPublicKey(block.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	pub := pk.(ed25519.PublicKey)
	if !pub.Equal(priv.Public()) {
		t.Fatal("the RFC's public key is not its private key's")
	}
	u, _ := url.Parse("https://example.com/foo?param=Value&Pet=dog")
	m := message{method: "POST", url: u, header: hdr(
		"Host", "example.com",
		"Date", "Tue, 20 Apr 2021 02:07:55 GMT",
		"Content-Type", "application/json",
		"Content-Digest", "sha-512=:WZDPaVn/7XgHaAy8pmojAkGWoRx2UFChF41A2svX+TaPm+AbwAgBWnrIiYllu7BNNyealdVLvRwEmTHWXvJwew==:",
		"Content-Length", "18")}
	ms, ok := grammar.ParseSFDictionaryMembers([]byte(rfcB26Input))
	if !ok || len(ms) != 1 {
		t.Fatalf("Signature-Input of B.2.6 does not parse")
	}
	base, err := signatureBase(m, ms[0])
	if err != nil {
		t.Fatal(err)
	}
	if string(base) != rfcB26Base {
		t.Fatalf("signature base:\n%s\nwant (RFC 9421 B.2.6):\n%s", base, rfcB26Base)
	}
	if got := base64.StdEncoding.EncodeToString(ed25519.Sign(priv, base)); got != rfcB26Signature {
		t.Errorf("signature %s, want %s (RFC 9421 B.2.6)", got, rfcB26Signature)
	}
	sig, _ := base64.StdEncoding.DecodeString(rfcB26Signature)
	if !ed25519.Verify(pub, base, sig) {
		t.Error("the RFC's signature does not verify with its public key")
	}
}
