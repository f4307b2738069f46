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
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/net/netutil"

	"github.com/robotstxt-go/robotstxt/internal/grammar"
)

const serveHelp = `usage: robotstxt serve [-addr HOST:PORT] [-allow-private]

Serve runs a robots.txt tester on a local web page: paste a robots.txt or
fetch one by URL, pick an agent, list URLs, and see each URL's verdict with
the deciding line highlighted in the file and the lint findings next to
their lines; its AI access tab shows, for a URL, which AI operator may use
the page for what, and the line that decided. The page keeps its state in
its URL (after the '#', which the browser never sends to a server), so a
result can be shared as a link.
Everything the page needs is in the binary: it works offline.

The page stands on a JSON API that tools can call (POST; JSON in and out):

	/api/check  {"robots": TEXT, "agent": A, "urls": [URL, ...]}
	            each URL's verdict and deciding line, the groups that
	            decide for A (named, or "*" it falls back to, or none), and
	            the file's errors
	/api/lint   {"robots": TEXT}
	            the counts of "robotstxt lint -json", the count of each
	            kind of finding, the findings, and the text lines
	/api/fetch  {"url": U, "agent": A, "user_agent": H, "urls": [URL, ...]}
	            what "robotstxt fetch -json" prints, the body read, and the
	            verdicts of the URLs under the rules fetched
	/api/ai     {"robots": TEXT, "url": URL, "content_usage": V,
	            "content_signal": V, "x_robots_tag": V}
	            the AI access matrix of "robotstxt ai -json" for URL:
	            each operator and use, its verdict and deciding signal;
	            the headers are the page's response's, as typed in (one
	            field a line, all optional)

The agent is required: "*" stands for any crawler that no group names.
Crawlers that document another behaviour are answered as they document it
(AdsBot-Google ignores the group for "*"), with a note saying so. A
robots.txt over 500 KiB is cut there, as Google's crawler cuts it, and the
answer's "cut" says how long it was. Of a kind of finding, the first 200 are
listed, then one that counts the rest ("more") up to its "last" line.

For /api/check, /api/lint and /api/ai, a request body that is not JSON is
the robots.txt itself, bytes and all, with the other fields in the query
(url repeated for /api/check): curl --data-binary @robots.txt
'http://127.0.0.1:8080/api/check?agent=Googlebot&url=/private/x' (not -d,
which drops line breaks). A body that starts with '{' is JSON even when
its Content-Type is curl's default for -d, a form; a multipart form (-F)
is refused with 415. For
/api/fetch, the query may carry url, agent, user_agent and check (the URLs
to answer for, repeated) instead. Errors are {"error": MESSAGE} with a 4xx
or 5xx status, a request with another method than POST (405) and a path
under /api/ that is none of these (404) included.

Serve is safe to leave running. It listens on 127.0.0.1 unless -addr says
otherwise, and answers only requests addressed to the host it listens on
(127.0.0.1, localhost or [::1] on loopback; with or without port 80), so
that no web page can reach it through DNS rebinding, and it refuses the
requests that another site's page makes. On 0.0.0.0 it warns, prints a URL
for each interface and answers requests addressed to them only. Request
bodies are limited to 4 MiB and 1000 URLs. Its memory stays bounded however
many clients send at once: a request waits, before its body is read, until
the bodies under way leave room for it (40 MiB, a body counted twice:
read, then decoded; the last 4 MiB for bodies of at most 64 KiB), and is
answered 503 with Retry-After after 2 s without; files are analysed a few
at a time, the smallest first. Every
request and fetch has a timeout: a header must arrive within 5 s and a
whole request within 15 s; at most 1024 connections are open at once. It
fetches only http and https URLs, and refuses
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
	// maxRequestBody bounds a request body: a 500 KiB robots.txt, which
	// JSON escaping can make six times longer ("\u0001"), and its URLs. A
	// robots.txt itself is cut at 500 KiB, as crawlers cut it.
	maxRequestBody  = 4 << 20
	maxURLs         = 1000 // URLs in one request
	maxFetches      = 4    // fetches running at once; more wait their turn
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
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryLimit)
	}
	s := newServer(*allowPrivate)
	s.setHosts(ln.Addr(), *addr)
	srv := newHTTPServer(s.handler())
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	done := make(chan error, 1)
	go func() { done <- srv.Serve(netutil.LimitListener(ln, maxConns)) }()
	urls := pageURLs(ln.Addr())
	fmt.Fprintf(c.stdout, "robotstxt serve: %s (Ctrl-C stops)\n", urls[0])
	for _, u := range urls[1:] {
		fmt.Fprintf(c.stdout, "robotstxt serve: also %s\n", u)
	}
	if ap, err := netip.ParseAddrPort(ln.Addr().String()); err == nil && !ap.Addr().Unmap().IsLoopback() {
		where := fmt.Sprintf("on %s, not on loopback", ln.Addr())
		if ap.Addr().IsUnspecified() {
			where = fmt.Sprintf("on every interface (-addr %s)", *addr)
		}
		fmt.Fprintf(c.stderr, "robotstxt serve: warning: listening %s: anyone who can reach this machine "+
			"can use the tester and have it fetch URLs (-allow-private lets them reach your private network); "+
			"requests addressed to other hosts than those printed are refused\n", where)
	}
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

// newHTTPServer returns the HTTP server of the tester: a client that
// sends its header slowly (slowloris) is cut off after
// ReadHeaderTimeout, one that sends its body slowly after ReadTimeout,
// which bounds how long it holds room in the body budget (see admit).
func newHTTPServer(h http.Handler) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       15 * time.Second,
		WriteTimeout:      serveFetchLimit + 15*time.Second,
		IdleTimeout:       60 * time.Second,
		MaxHeaderBytes:    64 << 10,
	}
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
	fetcher  robotsFetcher
	hosts    []string      // the hosts and ports accepted in the Host header, lower case
	fetches  chan struct{} // a slot per running fetch
	bodies   *capacity     // bytes of request bodies held: see admit
	analyses *capacity     // bytes held by the files being analysed: see work
}

func newServer(allowPrivate bool) *server {
	return &server{
		fetcher:  httpFetcher{base: guardedTransport(allowPrivate), timeout: serveFetchLimit},
		fetches:  make(chan struct{}, maxFetches),
		bodies:   newCapacity(bodyBudget, bodyReserve, 2*smallBody),
		analyses: newCapacity(analysisBudget, analysisReserve, smallAnalysis),
	}
}

// setHosts makes s answer only requests addressed to the listener a: by
// its address, by the name given in -addr (given, "" for none), and, on a
// loopback or unspecified address, by 127.0.0.1, localhost and [::1]; on
// an unspecified address (0.0.0.0, [::]) also by the addresses of the
// machine's interfaces and its host name. A page elsewhere that points its
// own host name at this machine (DNS rebinding) cannot reach it.
func (s *server) setHosts(a net.Addr, given string) {
	ap, err := netip.ParseAddrPort(a.String())
	if err != nil {
		return
	}
	port := strconv.Itoa(int(ap.Port()))
	add := func(host string) {
		if host == "" {
			return
		}
		if ip, err := netip.ParseAddr(host); err == nil {
			host = netip.AddrPortFrom(ip.WithZone(""), 0).String()
			host = host[:strings.LastIndexByte(host, ':')]
		}
		if h := grammar.LowerString(host) + ":" + port; !slices.Contains(s.hosts, h) {
			s.hosts = append(s.hosts, h)
		}
	}
	ip := ap.Addr().Unmap()
	if ip.IsLoopback() || ip.IsUnspecified() {
		add("127.0.0.1")
		add("localhost")
		add("::1")
	}
	if !ip.IsUnspecified() {
		add(ip.String())
	}
	if h, _, err := net.SplitHostPort(given); err == nil {
		add(h)
	}
	if ip.IsUnspecified() {
		for _, ifa := range interfaceAddrs() {
			if ifa.Is4() || ip.Is6() {
				add(ifa.String())
			}
		}
		if name, err := os.Hostname(); err == nil {
			add(name)
		}
	}
}

// interfaceAddrs returns the unicast addresses of the machine's interfaces.
func interfaceAddrs() []netip.Addr {
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return nil
	}
	var out []netip.Addr
	for _, a := range addrs {
		if p, err := netip.ParsePrefix(a.String()); err == nil && !p.Addr().IsLinkLocalUnicast() && !p.Addr().IsMulticast() {
			out = append(out, p.Addr().Unmap())
		}
	}
	return out
}

// hostAllowed reports whether the Host header host names this server: a
// host without a port stands for port 80, as browsers leave it out.
func (s *server) hostAllowed(host string) bool {
	host = grammar.LowerString(host)
	if _, _, err := net.SplitHostPort(host); err != nil {
		host = net.JoinHostPort(strings.Trim(host, "[]"), "80")
	}
	return slices.Contains(s.hosts, host)
}

// pageURLs returns the URLs to open the page at, the loopback one first,
// for a listener at a; on an unspecified address, every interface's. Port
// 80 is left out, as browsers leave it out.
func pageURLs(a net.Addr) []string {
	urls := []string{"http://" + strings.TrimSuffix(pageHost(a), ":80") + "/"}
	ap, err := netip.ParseAddrPort(a.String())
	if err != nil || !ap.Addr().IsUnspecified() {
		return urls
	}
	for _, ip := range interfaceAddrs() {
		if ip.IsLoopback() || ip.Is6() && ap.Addr().Is4() {
			continue
		}
		urls = append(urls, "http://"+strings.TrimSuffix(netip.AddrPortFrom(ip, ap.Port()).String(), ":80")+"/")
	}
	return urls
}

func (s *server) handler() http.Handler {
	page, err := fs.Sub(pageFiles, "page")
	if err != nil {
		panic(err) // the embedded tree is fixed at build time
	}
	mux := http.NewServeMux()
	mux.Handle("GET /", http.FileServerFS(page))
	mux.HandleFunc("POST /api/check", s.admit(s.apiCheck))
	mux.HandleFunc("POST /api/lint", s.admit(s.apiLint))
	mux.HandleFunc("POST /api/fetch", s.admit(s.apiFetch))
	mux.HandleFunc("POST /api/ai", s.admit(s.apiAI))
	return s.guard(apiErrors(mux))
}

// apiErrors answers the requests under /api/ that no API route takes with
// the documented JSON error rather than the page's plain 404: a 405 naming
// POST for a route asked with another method, such as GET /api/check, and
// a 404 for a path that is no route.
func apiErrors(mux *http.ServeMux) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, pattern := mux.Handler(r); !strings.HasPrefix(r.URL.Path, "/api/") || strings.HasPrefix(pattern, "POST /api/") {
			mux.ServeHTTP(w, r)
			return
		}
		post := r.Clone(r.Context())
		post.Method = http.MethodPost
		if _, pattern := mux.Handler(post); strings.HasPrefix(pattern, "POST /api/") {
			w.Header().Set("Allow", http.MethodPost)
			writeError(w, http.StatusMethodNotAllowed, r.Method+" "+r.URL.Path+": the API takes POST, with a JSON body or the robots.txt itself (see robotstxt serve -h)")
			return
		}
		writeError(w, http.StatusNotFound, r.URL.Path+": no such API; there are /api/check, /api/lint, /api/fetch and /api/ai")
	})
}

// guard checks the Host and Origin of every request, limits its body and
// sets the headers that keep the page to its own files.
func (s *server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "+
			"connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Cache-Control", "no-cache")
		if !s.hostAllowed(r.Host) {
			writeError(w, http.StatusMisdirectedRequest, fmt.Sprintf(
				"this server answers requests for %s only, not for host %q", strings.Join(s.hosts, ", "), r.Host))
			return
		}
		if o := r.Header.Get("Origin"); o != "" && !s.originAllowed(o, r.Host) {
			writeError(w, http.StatusForbidden, fmt.Sprintf("requests from other sites (%s) are refused", o))
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, maxRequestBody)
		next.ServeHTTP(w, r)
	})
}

// originAllowed reports whether a request from a page at origin o, sent to
// host, comes from the tester's own page: the same host, with port 80 left
// out or not.
func (s *server) originAllowed(o, host string) bool {
	u, ok := strings.CutPrefix(grammar.LowerString(o), "http://")
	if !ok || !s.hostAllowed(u) {
		return false
	}
	norm := func(h string) string {
		if _, _, err := net.SplitHostPort(h); err != nil {
			return net.JoinHostPort(strings.Trim(h, "[]"), "80")
		}
		return h
	}
	return norm(u) == norm(grammar.LowerString(host))
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
// that are not public (IANA special-purpose address registries). IPv6
// addresses outside 2000::/3 are refused before these are looked at.
var specialBlocks = []struct {
	prefix netip.Prefix
	what   string
}{
	{netip.MustParsePrefix("0.0.0.0/8"), `in "this network" (0.0.0.0/8)`},
	{netip.MustParsePrefix("100.64.0.0/10"), "a shared address (carrier-grade NAT, 100.64.0.0/10)"},
	{netip.MustParsePrefix("192.0.0.0/24"), "an IETF protocol address (192.0.0.0/24)"},
	{netip.MustParsePrefix("192.0.2.0/24"), "a documentation address"},
	{netip.MustParsePrefix("192.88.99.0/24"), "a 6to4 relay address (deprecated, 192.88.99.0/24)"},
	{netip.MustParsePrefix("198.18.0.0/15"), "a benchmarking address (198.18.0.0/15)"},
	{netip.MustParsePrefix("198.51.100.0/24"), "a documentation address"},
	{netip.MustParsePrefix("203.0.113.0/24"), "a documentation address"},
	{netip.MustParsePrefix("240.0.0.0/4"), "a reserved address (240.0.0.0/4)"},
	{netip.MustParsePrefix("2001::/23"), "an IETF protocol address (2001::/23: Teredo, benchmarking, ORCHID)"},
	{netip.MustParsePrefix("2001:db8::/32"), "a documentation address"},
	{netip.MustParsePrefix("3fff::/20"), "a documentation address"},
}

// Blocks of IPv6 addresses outside global unicast (2000::/3) that have
// names of their own, for the message; any other address outside 2000::/3
// is refused as "not a global unicast address".
var nonGlobal6 = []struct {
	prefix netip.Prefix
	what   string
}{
	{netip.MustParsePrefix("::/96"), "an IPv4-compatible address (deprecated, ::/96)"},
	{netip.MustParsePrefix("::ffff:0:0:0/96"), "an IPv4-translated address (::ffff:0:0:0/96)"},
	{netip.MustParsePrefix("64:ff9b:1::/48"), "a local-use NAT64 address (64:ff9b:1::/48)"},
	{netip.MustParsePrefix("100::/64"), "a discard-only address (100::/64)"},
	{netip.MustParsePrefix("fec0::/10"), "a site-local address (deprecated, fec0::/10)"},
}

var (
	globalUnicast6 = netip.MustParsePrefix("2000::/3")
	nat64          = netip.MustParsePrefix("64:ff9b::/96")
	sixToFour      = netip.MustParsePrefix("2002::/16")
)

// nonPublic says what kind of address a is when it is not a public unicast
// one, or "" when it is public. An IPv6 address is public only inside
// global unicast (2000::/3) or as the well-known NAT64 form of a public
// IPv4 address: the other forms that carry an IPv4 address (compatible,
// translated, local-use NAT64) are refused whatever they carry, and the
// mapped, NAT64 and 6to4 ones are judged by the IPv4 address they carry.
func nonPublic(a netip.Addr) string {
	a = a.Unmap()
	if a.Is6() {
		b := a.As16()
		switch {
		case nat64.Contains(a):
			return nonPublic(netip.AddrFrom4([4]byte(b[12:16])))
		case sixToFour.Contains(a):
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
	case a.Is6() && !globalUnicast6.Contains(a):
		for _, b := range nonGlobal6 {
			if b.prefix.Contains(a) {
				return b.what
			}
		}
		return "not a global unicast address (outside 2000::/3)"
	}
	for _, b := range specialBlocks {
		if b.prefix.Contains(a) {
			return b.what
		}
	}
	return ""
}
