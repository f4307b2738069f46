package verify

import (
	"crypto/ed25519"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/robotstxt-go/robotstxt/internal/grammar"
)

// TestDirectoryHandler: the key directory is served with its media type,
// lists each key with kid its thumbprint, and is signed by each key, tagged
// "http-message-signatures-directory", covering "@authority";req
// (draft-meunier-webbotauth-httpsig-directory-00).
func TestDirectoryHandler(t *testing.T) {
	_, k1, _ := ed25519.GenerateKey(nil)
	_, k2, _ := ed25519.GenerateKey(nil)
	srv := httptest.NewServer(DirectoryHandler(k1, k2))
	defer srv.Close()
	resp, err := http.Get(srv.URL + DirectoryPath)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != DirectoryMediaType {
		t.Errorf("Content-Type %q, want %q", ct, DirectoryMediaType)
	}
	var d struct {
		Keys []struct{ Kty, Crv, X, Kid string }
	}
	if err := json.Unmarshal(body, &d); err != nil || len(d.Keys) != 2 {
		t.Fatalf("directory %s: %v", body, err)
	}
	pubs := map[string]ed25519.PublicKey{}
	for i, k := range []ed25519.PrivateKey{k1, k2} {
		pub := k.Public().(ed25519.PublicKey)
		if d.Keys[i].Kid != KeyID(pub) || d.Keys[i].Kty != "OKP" || d.Keys[i].Crv != "Ed25519" {
			t.Errorf("key %d: %+v, want kid %s", i, d.Keys[i], KeyID(pub))
		}
		pubs[KeyID(pub)] = pub
	}
	sigs, err := parseSignatures(resp.Header.Get("Signature-Input"), resp.Header.Get("Signature"))
	if err != nil || len(sigs) != 2 {
		t.Fatalf("response signatures: %d, %v", len(sigs), err)
	}
	host := strings.TrimPrefix(srv.URL, "http://")
	for _, s := range sigs {
		tag, _ := grammar.Param(s.input.Params, "tag")
		keyid, _ := grammar.Param(s.input.Params, "keyid")
		if tag.Str != DirectoryTag {
			t.Errorf("%s: tag %q", s.label, tag.Str)
		}
		base := grammar.AppendSFMemberValue([]byte(`"@authority";req: `+host+"\n"+`"@signature-params": `), s.input)
		if !ed25519.Verify(pubs[keyid.Str], base, s.value) {
			t.Errorf("%s: the response signature does not verify over %q", s.label, base)
		}
	}
}

// TestRangesHandler: the crawler's own prefix file reads back with
// ParseRanges, and a conditional request is answered 304.
func TestRangesHandler(t *testing.T) {
	ps := []netip.Prefix{netip.MustParsePrefix("192.0.2.0/24"), netip.MustParsePrefix("2001:db8::/32")}
	created := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	srv := httptest.NewServer(RangesHandler(ps, created))
	defer srv.Close()
	resp, err := http.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	got, err := ParseRanges(body)
	if err != nil || !slices.Equal(got, ps) {
		t.Fatalf("ParseRanges(served) = %v, %v; want %v", got, err, ps)
	}
	if !strings.Contains(string(body), `"creationTime": "2026-12-01T00:00:00.000000"`) {
		t.Errorf("no creationTime in %s", body)
	}
	req, _ := http.NewRequest("GET", srv.URL, nil)
	req.Header.Set("If-None-Match", resp.Header.Get("ETag"))
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotModified {
		t.Errorf("conditional request: %d, want 304", resp.StatusCode)
	}
}
