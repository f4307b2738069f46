package verify

import (
	"context"
	"net"
	"net/http"
	"net/netip"
	"net/url"
)

type ctxKey struct{}

// FromContext returns the verdict Middleware attached to a request's
// context.
func FromContext(ctx context.Context) (Verdict, bool) {
	d, ok := ctx.Value(ctxKey{}).(Verdict)
	return d, ok
}

// MiddlewareOptions configures Middleware.
type MiddlewareOptions struct {
	// RefuseForged answers requests whose claim is Forged with 403
	// Forbidden instead of passing them on. Unknown claims always pass.
	RefuseForged bool
	// RemoteIP returns the address a request came from. Nil uses the
	// connection's peer (Request.RemoteAddr); behind a proxy, return the
	// address the proxy reports, from a header only it can set.
	RemoteIP func(*http.Request) netip.Addr
}

// Middleware returns a handler that verifies each request with v,
// attaches the verdict to its context (read it with FromContext), and
// calls next. The target URI a signature may cover is rebuilt from the
// request: https when the connection is TLS, http otherwise, the Host
// header, and the request target. With its caches warm, it makes no
// network call on the request's path.
func Middleware(v *Verifier, next http.Handler, opt MiddlewareOptions) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var ip netip.Addr
		if opt.RemoteIP != nil {
			ip = opt.RemoteIP(r)
		} else if host, _, err := net.SplitHostPort(r.RemoteAddr); err == nil {
			ip, _ = netip.ParseAddr(host)
		}
		u := &url.URL{Scheme: "http", Host: r.Host, Path: r.URL.Path, RawPath: r.URL.RawPath, RawQuery: r.URL.RawQuery}
		if r.TLS != nil {
			u.Scheme = "https"
		}
		d := v.Verify(r.Context(), Request{RemoteIP: ip, Method: r.Method, URL: u, Header: r.Header})
		if opt.RefuseForged && d.Status == Forged {
			http.Error(w, "Forbidden: the request is not from the crawler it names", http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), ctxKey{}, d)))
	})
}
