package audit

import (
	"context"
	"net/http"
	"net/netip"
	"sync"
	"time"

	"github.com/robotstxt-go/robotstxt/verify"
)

// VerifierIdentifier makes v an Identifier: each request's identity is
// what v.Verify says of it, so the log replay and a server verifying
// requests as they come (package verify, robotstxt verify) give one answer
// for one request. Verify is given the request's remote address, its
// User-Agent, the time the log wrote and the method GET; a log line holds
// no URL and no header but the User-Agent, so Web Bot Auth signatures are
// not checked, and a crawler verified only by its signature is unknown.
//
// The verdict follows verify's rules: forged only when every method the
// operator documents was checked and none matched. Offline (a Verifier
// with no Client and no Resolver, given prefix files by LoadSnapshot), a
// crawler whose operator also documents reverse DNS, as Google does for
// Googlebot, is unknown, never forged, when its address is outside the
// files; one whose operator documents only a prefix file (OpenAI's GPTBot)
// is forged. With a Resolver, each address's lookups wait at most the
// Verifier's DNS timeout and are cached by it.
//
// ctx bounds the network calls Verify makes; when it ends, the requests
// not yet answered are unknown.
func VerifierIdentifier(ctx context.Context, v *verify.Verifier) Identifier {
	return &verifierIdentifier{ctx: ctx, v: v}
}

type verifierIdentifier struct {
	ctx     context.Context
	v       *verify.Verifier
	headers sync.Pool // of http.Header holding one User-Agent
}

// Identify implements Identifier. Verify neither keeps nor changes the
// request's header, so one is reused from a pool: building a header for
// each line was half the cost of a line's identity (BenchmarkVerifierIdentifier).
func (id *verifierIdentifier) Identify(ip netip.Addr, userAgent string, t time.Time) string {
	h, _ := id.headers.Get().(http.Header)
	if h == nil {
		h = http.Header{"User-Agent": make([]string, 1)}
	}
	h["User-Agent"][0] = userAgent
	d := id.v.Verify(id.ctx, verify.Request{RemoteIP: ip, Method: http.MethodGet, Header: h, Now: t})
	h["User-Agent"][0] = ""
	id.headers.Put(h)
	return identityOf(d.Status)
}

// identityOf is the audit's name for a verify status.
func identityOf(s verify.Status) string {
	switch s {
	case verify.Verified:
		return IdentityVerified
	case verify.Forged:
		return IdentityForged
	case verify.Unverifiable:
		return IdentityUnverifiable
	case verify.Unclaimed:
		return IdentityUnclaimed
	}
	return IdentityUnknown
}
