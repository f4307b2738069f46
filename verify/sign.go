package verify

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/netip"
	"time"

	"github.com/robotstxt-go/robotstxt/internal/grammar"
)

// This file is the crawler's side: signing its requests, and serving its
// key directory and its prefix file.

// Signing parameters.
const (
	// SignatureLifetime is how long a signature the Signer makes is valid:
	// its expires is its created plus this.
	SignatureLifetime = 60 * time.Second
	// SignatureLabel is the label of the Signer's signature.
	SignatureLabel = "sig1"
)

// Signer is an http.RoundTripper that signs each request with an Ed25519
// key as Web Bot Auth describes (draft-meunier-webbotauth-httpsig-protocol-00):
// it sets Signature-Agent to a Dictionary naming the crawler's origin
// under the signature's label, and Signature-Input and Signature for a
// signature tagged "web-bot-auth" covering "@authority" and
// "signature-agent", with created, expires (created plus
// SignatureLifetime), a random nonce, alg "ed25519" and keyid the key's
// thumbprint ([KeyID]). Signature fields already on the request are
// replaced. The request given is not changed: a clone is sent.
//
// To sign what package fetch sends, make the Signer the base of its
// Transport and of its cache's client, so that the robots.txt fetches are
// signed too (ExampleNewSigner_fetch):
//
//	signer := verify.NewSigner(nil, key, "https://crawler.example")
//	cache := fetch.NewCache(&fetch.Options{Client: &http.Client{Transport: signer}, UserAgent: "Foobot/1.0 (+https://crawler.example/bot)"})
//	client := &http.Client{Transport: fetch.NewTransport(signer, cache)}
type Signer struct {
	base   http.RoundTripper
	key    ed25519.PrivateKey
	keyID  string
	agent  string
	header string // the Signature-Agent value
	// Now returns the current time; nil means time.Now.
	Now func() time.Time
}

// NewSigner returns a Signer that signs with key as agentOrigin (an https
// origin such as "https://crawler.example", whose
// /.well-known/http-message-signatures-directory serves the key; see
// [DirectoryHandler]) and sends through base (nil means
// http.DefaultTransport). It panics if agentOrigin is not an https origin
// or key is not an Ed25519 private key,
// as that is a mistake of the program, not of its input.
func NewSigner(base http.RoundTripper, key ed25519.PrivateKey, agentOrigin string) *Signer {
	if len(key) != ed25519.PrivateKeySize {
		panic("verify.NewSigner: not an Ed25519 private key")
	}
	origin, ok := normalizeOrigin(agentOrigin)
	if !ok {
		panic("verify.NewSigner: " + agentOrigin + " is not an https origin")
	}
	if base == nil {
		base = http.DefaultTransport
	}
	h := SignatureLabel + "="
	h = string(grammar.AppendSFItem([]byte(h), grammar.SFItem{Kind: grammar.SFString, Str: origin}))
	return &Signer{base: base, key: key, keyID: KeyID(key.Public().(ed25519.PublicKey)), agent: origin, header: h}
}

// RoundTrip signs a clone of req and sends it through the base.
func (s *Signer) RoundTrip(req *http.Request) (*http.Response, error) {
	r := req.Clone(req.Context())
	if r.Header == nil {
		r.Header = http.Header{}
	}
	if err := s.sign(r); err != nil {
		// A RoundTripper closes the body, even on error.
		if req.Body != nil {
			req.Body.Close()
		}
		return nil, err
	}
	return s.base.RoundTrip(r)
}

// sign sets the signature fields of r.
func (s *Signer) sign(r *http.Request) error {
	now := time.Now()
	if s.Now != nil {
		now = s.Now()
	}
	var nonce [32]byte
	if _, err := rand.Read(nonce[:]); err != nil {
		return err
	}
	r.Header.Set("Signature-Agent", s.header)
	in := grammar.SFMember{Key: SignatureLabel, Inner: true,
		Items: []grammar.SFItem{
			{Kind: grammar.SFString, Str: "@authority"},
			{Kind: grammar.SFString, Str: "signature-agent"},
		},
		Params: []grammar.SFParam{
			{Key: "created", Value: grammar.SFItem{Kind: grammar.SFInteger, Int: now.Unix()}},
			{Key: "expires", Value: grammar.SFItem{Kind: grammar.SFInteger, Int: now.Add(SignatureLifetime).Unix()}},
			{Key: "nonce", Value: grammar.SFItem{Kind: grammar.SFString, Str: base64.StdEncoding.EncodeToString(nonce[:])}},
			{Key: "alg", Value: grammar.SFItem{Kind: grammar.SFString, Str: "ed25519"}},
			{Key: "keyid", Value: grammar.SFItem{Kind: grammar.SFString, Str: s.keyID}},
			{Key: "tag", Value: grammar.SFItem{Kind: grammar.SFString, Str: Tag}},
		}}
	u := *r.URL
	if r.Host != "" {
		u.Host = r.Host // the authority sent is Host when it is set
	}
	base, err := signatureBase(message{method: r.Method, url: &u, header: r.Header}, in)
	if err != nil {
		return err
	}
	sig := ed25519.Sign(s.key, base)
	r.Header.Set("Signature-Input", string(grammar.AppendSFMemberValue([]byte(SignatureLabel+"="), in)))
	r.Header.Set("Signature", string(grammar.AppendSFItem([]byte(SignatureLabel+"="), grammar.SFItem{Kind: grammar.SFBytes, Bytes: sig})))
	return nil
}

// DirectoryHandler returns a handler that serves a key directory holding
// the public halves of keys, as JSON Web Keys (RFC 8037) with kid their
// thumbprint, with the media type DirectoryMediaType
// (draft-meunier-webbotauth-httpsig-directory-00). Each response is signed
// with every key, as the directory drafts describe: one signature per key, labelled
// sig1, sig2, …, tagged "http-message-signatures-directory", covering
// "@authority";req, valid for SignatureLifetime. Mount it at
// DirectoryPath on the crawler's origin.
func DirectoryHandler(keys ...ed25519.PrivateKey) http.Handler {
	type jwk struct {
		Kty string `json:"kty"`
		Crv string `json:"crv"`
		X   string `json:"x"`
		Kid string `json:"kid"`
	}
	var d struct {
		Keys []jwk `json:"keys"`
	}
	d.Keys = []jwk{}
	for _, k := range keys {
		pub := k.Public().(ed25519.PublicKey)
		d.Keys = append(d.Keys, jwk{"OKP", "Ed25519", base64.RawURLEncoding.EncodeToString(pub), KeyID(pub)})
	}
	body, _ := json.Marshal(d)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		now := time.Now()
		u := *r.URL
		u.Host, u.Scheme = r.Host, "https"
		authority := message{url: &u}.authority()
		var ins, sigs []byte
		for i, k := range keys {
			label := "sig" + formatInt(int64(i+1))
			in := grammar.SFMember{Key: label, Inner: true,
				Items: []grammar.SFItem{{Kind: grammar.SFString, Str: "@authority",
					Params: []grammar.SFParam{{Key: "req", Value: grammar.SFItem{Kind: grammar.SFBoolean, Bool: true}}}}},
				Params: []grammar.SFParam{
					{Key: "created", Value: grammar.SFItem{Kind: grammar.SFInteger, Int: now.Unix()}},
					{Key: "expires", Value: grammar.SFItem{Kind: grammar.SFInteger, Int: now.Add(SignatureLifetime).Unix()}},
					{Key: "alg", Value: grammar.SFItem{Kind: grammar.SFString, Str: "ed25519"}},
					{Key: "keyid", Value: grammar.SFItem{Kind: grammar.SFString, Str: KeyID(k.Public().(ed25519.PublicKey))}},
					{Key: "tag", Value: grammar.SFItem{Kind: grammar.SFString, Str: DirectoryTag}},
				}}
			// RFC 9421 §2.4: "@authority";req is the request's authority.
			base := append([]byte(`"@authority";req: `), authority...)
			base = append(base, "\n\"@signature-params\": "...)
			base = grammar.AppendSFMemberValue(base, in)
			if i > 0 {
				ins, sigs = append(ins, ", "...), append(sigs, ", "...)
			}
			ins = grammar.AppendSFMemberValue(append(ins, label+"="...), in)
			sigs = grammar.AppendSFItem(append(sigs, label+"="...), grammar.SFItem{Kind: grammar.SFBytes, Bytes: ed25519.Sign(k, base)})
		}
		w.Header().Set("Content-Type", DirectoryMediaType)
		w.Header().Set("Cache-Control", "max-age=3600")
		if len(keys) > 0 {
			w.Header().Set("Signature-Input", string(ins))
			w.Header().Set("Signature", string(sigs))
		}
		if r.Method != http.MethodHead {
			w.Write(body)
		}
	})
}

// RangesHandler returns a handler that serves prefixes as a prefix file in
// the shape operators publish (see [ParseRanges]), with created as its
// creationTime, Last-Modified and an ETag, answering conditional requests
// with 304 Not Modified. It panics when prefixes is empty, as a file
// without prefixes is read as unavailable.
func RangesHandler(prefixes []netip.Prefix, created time.Time) http.Handler {
	if len(prefixes) == 0 {
		panic("verify.RangesHandler: no prefixes")
	}
	type entry struct {
		IPv4Prefix string `json:"ipv4Prefix,omitempty"`
		IPv6Prefix string `json:"ipv6Prefix,omitempty"`
	}
	f := struct {
		CreationTime string  `json:"creationTime"`
		Prefixes     []entry `json:"prefixes"`
	}{CreationTime: created.UTC().Format("2006-01-02T15:04:05.000000")}
	for _, p := range prefixes {
		p = p.Masked()
		if p.Addr().Is4() {
			f.Prefixes = append(f.Prefixes, entry{IPv4Prefix: p.String()})
		} else {
			f.Prefixes = append(f.Prefixes, entry{IPv6Prefix: p.String()})
		}
	}
	body, _ := json.MarshalIndent(f, "", "  ")
	sum := sha256.Sum256(body)
	etag := `"` + hex.EncodeToString(sum[:8]) + `"`
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("ETag", etag)
		http.ServeContent(w, r, "", created, bytes.NewReader(body))
	})
}
