package main

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"net/netip"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"time"
)

const serveHelp = `usage: robotstxt serve [-addr HOST:PORT] [-allow-private]

Serve runs a robots.txt tester on a local web page: paste a robots.txt or
fetch one by URL, pick an agent, list URLs, and see each URL's verdict with
the deciding line highlighted in the file and the lint findings next to
their lines. The page keeps its state in its URL (after the '#', which the
browser never sends to a server), so a result can be shared as a link.
Everything the page needs is in the binary: it works offline.

The page stands on a JSON API that tools can call (POST; JSON in and out):

	/api/check  {"robots": TEXT, "agent": A, "urls": [URL, ...]}
	            each URL's verdict and deciding line, and the file's errors
	/api/lint   {"robots": TEXT}
	            what "robotstxt lint -json -lines" prints, and the text lines
	/api/fetch  {"url": U, "agent": A, "user_agent": H, "urls": [URL, ...]}
	            what "robotstxt fetch -json" prints, the body read, and the
	            verdicts of the URLs under the rules fetched

For /api/check and /api/lint, a request body that is not JSON is the
robots.txt itself, bytes and all, with agent and url (repeated) in the
query: curl --data-binary @robots.txt
'http://127.0.0.1:8080/api/check?agent=Googlebot&url=/private/x'. For
/api/fetch, the query may carry url, agent, user_agent and check (the URLs
to answer for, repeated) instead. Errors are {"error": MESSAGE} with a 4xx
or 5xx status.

Serve is safe to leave running. It listens on 127.0.0.1 unless -addr says
otherwise; on a loopback address it answers only requests addressed to
127.0.0.1, localhost or [::1], so that no web page can reach it through DNS
rebinding, and it refuses the requests that another site's page makes.
Request bodies are limited to 500 KiB and 1000 URLs, and every request and
fetch has a timeout. It fetches only http and https URLs, and refuses
addresses that are loopback, private, link-local or otherwise not public,
checked on the address each connection goes to (redirects included),
unless -allow-private is given.

` + exitStatuses + `
Examples:

	robotstxt serve
	robotstxt serve -addr 127.0.0.1:9000 -allow-private
`

//go:embed page
var pageFiles embed.FS

// Limits of the tester.
const (
	maxRequestBody  = 500 << 10 // bytes of a request body, as a robots.txt is read
	maxURLs         = 1000      // URLs in one request
	maxFetches      = 4         // fetches running at once; more wait their turn
	serveFetchLimit = 20 * time.Second
)

func (c *cli) serve(args []string) int {
	fs := c.newFlags("serve")
	addr := fs.String("addr", "127.0.0.1:8080", "listen on `HOST:PORT` (port 0 picks a free one)")
	allowPrivate := fs.Bool("allow-private", false, "let fetches reach loopback, private and link-local addresses")
	pos, status, ok := c.parse(fs, serveHelp, args)
	if !ok {
		return status
	}
	if len(pos) > 0 {
		return c.fail("robotstxt serve: unexpected argument %q: serve takes only flags", pos[0])
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return c.fail("robotstxt serve: %v", err)
	}
	s := newServer(*allowPrivate)
	s.setHosts(ln.Addr())
	srv := &http.Server{
		Handler:           s.handler(),
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       15 * time.Second,
		WriteTimeout:      serveFetchLimit + 15*time.Second,
		IdleTimeout:       60 * time.Second,
		MaxHeaderBytes:    64 << 10,
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	fmt.Fprintf(c.stdout, "robotstxt serve: http://%s/ (Ctrl-C stops)\n", pageHost(ln.Addr()))
	select {
	case err = <-done:
		return c.fail("robotstxt serve: %v", err)
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil {
		srv.Close()
	}
	return exitOK
}

// pageHost is the host and port to open in a browser for a listener: the
// loopback address when it listens on every address.
func pageHost(a net.Addr) string {
	ap, err := netip.ParseAddrPort(a.String())
	if err != nil {
		return a.String()
	}
	if ap.Addr().IsUnspecified() {
		return netip.AddrPortFrom(netip.AddrFrom4([4]byte{127, 0, 0, 1}), ap.Port()).String()
	}
	return ap.String()
}

// server is the tester: the page and the API.
type server struct {
	fetcher robotsFetcher
	hosts   []string      // the Host headers accepted; nil accepts any
	fetches chan struct{} // a slot per running fetch
}

func newServer(allowPrivate bool) *server {
	return &server{
		fetcher: httpFetcher{base: guardedTransport(allowPrivate), timeout: serveFetchLimit},
		fetches: make(chan struct{}, maxFetches),
	}
}

// setHosts makes s answer only requests addressed to the loopback listener
// a by name or address, when a is a loopback address: a page elsewhere that
// points its own host name at 127.0.0.1 cannot reach it.
func (s *server) setHosts(a net.Addr) {
	ap, err := netip.ParseAddrPort(a.String())
	if err != nil || !ap.Addr().IsLoopback() {
		s.hosts = nil
		return
	}
	port := fmt.Sprint(ap.Port())
	s.hosts = []string{"127.0.0.1:" + port, "localhost:" + port, "[::1]:" + port}
}

func (s *server) handler() http.Handler {
	page, err := fs.Sub(pageFiles, "page")
	if err != nil {
		panic(err) // the embedded tree is fixed at build time
	}
	mux := http.NewServeMux()
	mux.Handle("GET /", http.FileServerFS(page))
	mux.HandleFunc("POST /api/check", s.apiCheck)
	mux.HandleFunc("POST /api/lint", s.apiLint)
	mux.HandleFunc("POST /api/fetch", s.apiFetch)
	return s.guard(mux)
}

// guard checks the Host and Origin of every request, limits its body and
// sets the headers that keep the page to its own files.
func (s *server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.hosts != nil && !slices.Contains(s.hosts, strings.ToLower(r.Host)) {
			writeError(w, http.StatusMisdirectedRequest, fmt.Sprintf(
				"this server answers requests for %s only, not for host %q", strings.Join(s.hosts, ", "), r.Host))
			return
		}
		if o := r.Header.Get("Origin"); o != "" && !strings.EqualFold(o, "http://"+r.Host) {
			writeError(w, http.StatusForbidden, fmt.Sprintf("requests from other sites (%s) are refused", o))
			return
		}
		h := w.Header()
		h.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "+
			"connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Cache-Control", "no-cache")
		r.Body = http.MaxBytesReader(w, r.Body, maxRequestBody)
		next.ServeHTTP(w, r)
	})
}

// errNotPublic is the cause of a refused connection: the address is not a
// public one and -allow-private was not given.
var errNotPublic = errors.New("not a public address")

// notPublicError tells which address was refused and why.
type notPublicError struct {
	addr netip.Addr
	what string
}

func (e *notPublicError) Error() string {
	return fmt.Sprintf("%s is %s, and robotstxt serve fetches only from public addresses unless started with -allow-private", e.addr, e.what)
}

func (e *notPublicError) Unwrap() error { return errNotPublic }

// guardedTransport returns a transport that connects directly (no proxy,
// so that the address checked is the one reached) and, unless
// allowPrivate, only to public addresses: the check is made on the
// address each connection dials, after name resolution, so a public name
// that resolves to 127.0.0.1 is refused too.
func guardedTransport(allowPrivate bool) *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.Proxy = nil
	d := &net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}
	if !allowPrivate {
		d.ControlContext = func(_ context.Context, _, address string, _ syscall.RawConn) error {
			ap, err := netip.ParseAddrPort(address)
			if err != nil {
				return fmt.Errorf("cannot check address %q: %w", address, errNotPublic)
			}
			if what := nonPublic(ap.Addr()); what != "" {
				return &notPublicError{addr: ap.Addr().Unmap(), what: what}
			}
			return nil
		}
	}
	t.DialContext = d.DialContext
	t.ResponseHeaderTimeout = serveFetchLimit
	return t
}

// specialBlocks are the IPv4 and IPv6 blocks, beyond those netip names,
// that are not public (IANA special-purpose address registries).
var specialBlocks = []struct {
	prefix netip.Prefix
	what   string
}{
	{netip.MustParsePrefix("0.0.0.0/8"), `in "this network" (0.0.0.0/8)`},
	{netip.MustParsePrefix("100.64.0.0/10"), "a shared address (carrier-grade NAT, 100.64.0.0/10)"},
	{netip.MustParsePrefix("192.0.0.0/24"), "an IETF protocol address (192.0.0.0/24)"},
	{netip.MustParsePrefix("192.0.2.0/24"), "a documentation address"},
	{netip.MustParsePrefix("198.18.0.0/15"), "a benchmarking address (198.18.0.0/15)"},
	{netip.MustParsePrefix("198.51.100.0/24"), "a documentation address"},
	{netip.MustParsePrefix("203.0.113.0/24"), "a documentation address"},
	{netip.MustParsePrefix("240.0.0.0/4"), "a reserved address (240.0.0.0/4)"},
	{netip.MustParsePrefix("2001:db8::/32"), "a documentation address"},
	{netip.MustParsePrefix("100::/64"), "a discard-only address (100::/64)"},
}

// nonPublic says what kind of address a is when it is not a public unicast
// one, or "" when it is public. IPv4 addresses embedded in IPv6 ones
// (mapped, NAT64, 6to4) are judged as themselves.
func nonPublic(a netip.Addr) string {
	a = a.Unmap()
	if a.Is6() {
		b := a.As16()
		switch {
		case netip.MustParsePrefix("64:ff9b::/96").Contains(a):
			return nonPublic(netip.AddrFrom4([4]byte(b[12:16])))
		case netip.MustParsePrefix("2002::/16").Contains(a):
			return nonPublic(netip.AddrFrom4([4]byte(b[2:6])))
		}
	}
	switch {
	case !a.IsValid():
		return "no address"
	case a.IsLoopback():
		return "a loopback address"
	case a.IsPrivate():
		return "a private address"
	case a.IsLinkLocalUnicast():
		return "a link-local address"
	case a.IsUnspecified():
		return "the unspecified address"
	case a.IsMulticast():
		return "a multicast address"
	case a == netip.AddrFrom4([4]byte{255, 255, 255, 255}):
		return "the broadcast address"
	}
	for _, b := range specialBlocks {
		if b.prefix.Contains(a) {
			return b.what
		}
	}
	return ""
}
