package fetch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/robotstxt-go/robotstxt"
)

// clock is a fake clock for Options.Now.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// site is a robots.txt server whose answer a test can change. It counts
// robots.txt requests.
type site struct {
	mu           sync.Mutex
	status       int
	body         string
	cacheControl string
	fetches      atomic.Int32
}

func (s *site) set(status int, body, cacheControl string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.status, s.body, s.cacheControl = status, body, cacheControl
}

func (s *site) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/robots.txt" {
		io.WriteString(w, "page")
		return
	}
	s.fetches.Add(1)
	s.mu.Lock()
	status, body, cc := s.status, s.body, s.cacheControl
	s.mu.Unlock()
	if cc != "" {
		w.Header().Set("Cache-Control", cc)
	}
	w.WriteHeader(status)
	io.WriteString(w, body)
}

// newSite starts a site answering 200 with body.
func newSite(t *testing.T, body string) (*site, *httptest.Server) {
	s := &site{status: 200, body: body}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	return s, srv
}

const disallowX = "User-agent: *\nDisallow: /x\n"

const day = 24 * time.Hour

// step is one question to a cache after moving the clock.
type step struct {
	advance time.Duration
	set     func(*site) // changes the server's answer first, when not nil
	path    string
	allowed bool
	source  Source
	fetches int32 // robots.txt requests the server has seen after the step
	reason  string
}

func runSteps(t *testing.T, o *Options, steps []step) {
	t.Helper()
	s, srv := newSite(t, disallowX)
	clk := newClock()
	o.Client, o.Now = srv.Client(), clk.Now
	c := NewCache(o)
	for i, st := range steps {
		clk.Advance(st.advance)
		if st.set != nil {
			st.set(s)
		}
		d, err := c.For("Foobot").Decide(context.Background(), srv.URL+st.path)
		if err := stepErr(st, err); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		if d.Allowed != st.allowed || d.Source != st.source || s.fetches.Load() != st.fetches {
			t.Errorf("step %d (+%v, %s): allowed %v, source %v, fetches %d; want %v, %v, %d (%s)",
				i, st.advance, st.path, d.Allowed, d.Source, s.fetches.Load(), st.allowed, st.source, st.fetches, st.reason)
		}
	}
}

// stepErr checks the error of a step's answer: a *RetryError when the
// robots.txt is unreachable with no good copy (the Decision is filled in
// all the same), nil otherwise. It returns what is wrong, or nil.
func stepErr(st step, err error) error {
	if st.source == Unreachable {
		var re *RetryError
		if !errors.As(err, &re) {
			return fmt.Errorf("%v, want a RetryError for an unreachable robots.txt (%s)", err, st.reason)
		}
		return nil
	}
	return err
}

func answer(status int, body, cc string) func(*site) {
	return func(s *site) { s.set(status, body, cc) }
}

var expirySteps = []step{
	{0, nil, "/x", false, Fresh, 1, "first question fetches"},
	{0, nil, "/y", true, Fresh, 1, "same origin, another path: no fetch"},
	{23 * time.Hour, nil, "/x", false, Fresh, 1, "SPEC §8: still within 24 hours"},
	{time.Hour, answer(200, "", ""), "/x", true, Fresh, 2, "SPEC §8: at 24 hours the file is fetched again, and the new file used"},
	{time.Hour, nil, "/x", true, Fresh, 2, "and kept for another 24 hours"},
}

func TestCacheExpiry(t *testing.T) { runSteps(t, &Options{}, expirySteps) }

var maxAgeSteps = []step{
	{0, answer(200, disallowX, "max-age=3600"), "/x", false, Fresh, 1, "first fetch"},
	{59 * time.Minute, nil, "/x", false, Fresh, 1, "SPEC §8: max-age=3600 keeps it for an hour"},
	{time.Minute, answer(200, disallowX, "max-age=0"), "/x", false, Fresh, 2, "after an hour it is fetched again"},
	{59 * time.Second, nil, "/x", false, Fresh, 2, "max-age=0 still keeps it for minTTL"},
	{time.Second, answer(200, disallowX, "no-store"), "/x", false, Fresh, 3, "minTTL later it is fetched again"},
	{time.Minute, answer(200, disallowX, "max-age=31536000"), "/x", false, Fresh, 4, "no-store also means minTTL"},
	{47 * time.Hour, nil, "/x", false, Fresh, 4, "a year's max-age is bounded by MaxTTL=48h"},
	{time.Hour, nil, "/x", false, Fresh, 5, "after MaxTTL it is fetched again"},
}

func TestCacheMaxAge(t *testing.T) { runSteps(t, &Options{MaxTTL: 48 * time.Hour}, maxAgeSteps) }

var staleSteps = []step{
	{0, nil, "/x", false, Fresh, 1, "a good copy"},
	{24 * time.Hour, answer(503, "", ""), "/x", false, Stale, 2, "SPEC §8: refresh fails, the stale copy still disallows /x"},
	{0, nil, "/y", true, Stale, 2, "and still allows /y: not a full disallow"},
	{9 * time.Minute, nil, "/x", false, Stale, 2, "the failure is kept for RetryTTL"},
	{time.Minute, answer(429, "", ""), "/y", true, Stale, 3, "then retried; 429 fails too"},
	{40 * 24 * time.Hour, answer(500, "", ""), "/y", true, Stale, 4, "RFC 9309 §2.3.1.4: the last good copy is used even past 30 days"},
	{time.Hour, answer(200, "User-agent: *\nDisallow: /y\n", ""), "/y", false, Fresh, 5, "the origin recovers: its new file is used"},
}

func TestCacheStaleOnError(t *testing.T) {
	runSteps(t, &Options{RetryTTL: 10 * time.Minute}, staleSteps)
}

var thirtyDaySteps = []step{
	{0, answer(503, "", ""), "/y", false, Unreachable, 1, "RFC 9309 §2.3.1.4: unreachable with no copy is full disallow"},
	{4 * time.Minute, nil, "/y", false, Unreachable, 1, "kept for the 5-minute retry interval"},
	{time.Minute, nil, "/y", false, Unreachable, 2, "then retried"},
	{15 * day, answer(500, "", ""), "/y", false, Unreachable, 3, "15 days later still disallowed"},
	{15*day - 5*time.Minute, nil, "/y", false, Unreachable, 4, "exactly 30 days of failure is not more than 30 days"},
	{5 * time.Minute, nil, "/y", true, GaveUp, 5, "SPEC §8: more than 30 days unreachable with no copy: allow everything"},
	{time.Minute, nil, "/x", true, GaveUp, 5, "every path, and still retried every 5 minutes"},
	{time.Hour, answer(404, "", ""), "/x", true, Fresh, 6, "a 404 is an answer: the failure run ends"},
	{25 * time.Hour, answer(503, "", ""), "/x", true, Stale, 7, "the 404 is now the good copy kept through failures"},
}

func TestCacheThirtyDays(t *testing.T) { runSteps(t, &Options{}, thirtyDaySteps) }

var restartSteps = []step{
	{0, answer(503, "", ""), "/x", false, Unreachable, 1, "failure run starts"},
	{20 * day, nil, "/x", false, Unreachable, 2, "20 days in"},
	{20 * day, answer(200, disallowX, ""), "/x", false, Fresh, 3, "recovered after 40 days, before anyone asked on day 30+"},
	{day, answer(503, "", ""), "/y", true, Stale, 4, "new failure, with a good copy now"},
}

// TestCacheUnreachableRestart checks that a good answer ends a run of
// failures, so a later failure starts counting 30 days again.
func TestCacheUnreachableRestart(t *testing.T) { runSteps(t, &Options{}, restartSteps) }

// TestCacheSingleflight checks that 100 goroutines asking about one origin
// at once cause exactly one fetch (SPEC §8).
func TestCacheSingleflight(t *testing.T) {
	var fetches atomic.Int32
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		fetches.Add(1)
		time.Sleep(50 * time.Millisecond) // let the askers pile up
		io.WriteString(w, disallowX)
	})
	clk := newClock()
	c := NewCache(&Options{Client: srv.Client(), Now: clk.Now})
	var wg sync.WaitGroup
	var wrong atomic.Int32
	for i := range 100 {
		wg.Go(func() {
			path := "/x"
			if i%2 == 1 {
				path = "/y"
			}
			ok, err := c.For("Foobot").Allowed(context.Background(), srv.URL+path)
			if err != nil || ok != (path == "/y") {
				wrong.Add(1)
			}
		})
	}
	wg.Wait()
	if n := fetches.Load(); n != 1 {
		t.Errorf("100 concurrent askers caused %d fetches, want 1", n)
	}
	if n := wrong.Load(); n != 0 {
		t.Errorf("%d askers got a wrong answer or an error", n)
	}
}

// TestCacheCallerGivesUp checks that the caller whose question started a
// fetch can give up without failing the others or the cache.
func TestCacheCallerGivesUp(t *testing.T) {
	release := make(chan struct{})
	var fetches atomic.Int32
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		fetches.Add(1)
		<-release
		io.WriteString(w, disallowX)
	})
	c := NewCache(&Options{Client: srv.Client()})
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := c.For("Foobot").Allowed(ctx, srv.URL+"/x"); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Allowed with an expiring context: %v, want DeadlineExceeded", err)
	}
	close(release)
	d, err := c.For("Foobot").Decide(context.Background(), srv.URL+"/x")
	if err != nil || d.Allowed || d.Source != Fresh || fetches.Load() != 1 {
		t.Errorf("Decide after the first asker gave up = %+v, %v with %d fetches; want the fetched rules, one fetch", d.Decision, err, fetches.Load())
	}
}

// TestCacheTimeout checks that Options.Timeout bounds a fetch that no
// caller bounds, and that it counts as unreachable.
func TestCacheTimeout(t *testing.T) {
	srv := newServer(t, drip)
	c := NewCache(&Options{Client: srv.Client(), Timeout: 100 * time.Millisecond})
	start := time.Now()
	d, err := c.For("Foobot").Decide(context.Background(), srv.URL+"/y")
	if !errors.Is(err, ErrRetryLater) || d.Allowed || d.Source != Unreachable || d.Latest.Err == nil {
		t.Errorf("Decide = %+v, %v; want unreachable after a timeout", d, err)
	}
	if elapsed := time.Since(start); elapsed > 3*time.Second {
		t.Errorf("took %v", elapsed)
	}
}

// hostRouter returns a client that sends every host to srv, counting
// robots.txt requests per host, so that one server plays many origins.
func hostRouter(srv *httptest.Server) *http.Client {
	addr := srv.Listener.Addr().String()
	return &http.Client{Transport: &http.Transport{
		DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
			return (&net.Dialer{}).DialContext(ctx, network, addr)
		},
	}}
}

// TestCacheEviction checks that the cache never holds more than MaxEntries
// origins, and drops the least recently asked.
func TestCacheEviction(t *testing.T) {
	var mu sync.Mutex
	fetches := map[string]int{}
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		fetches[r.Host]++
		mu.Unlock()
		io.WriteString(w, disallowX)
	})
	client := hostRouter(srv)
	defer client.CloseIdleConnections()
	const max = 8
	c := NewCache(&Options{Client: client, MaxEntries: max, Now: newClock().Now})
	ask := func(i int) {
		t.Helper()
		if ok, err := c.For("Foobot").Allowed(context.Background(), fmt.Sprintf("http://h%d.test/x", i)); err != nil || ok {
			t.Fatalf("h%d: %v, %v", i, ok, err)
		}
		if n := c.Len(); n > max {
			t.Fatalf("after h%d the cache holds %d origins, more than %d", i, n, max)
		}
	}
	count := func(i int) int {
		mu.Lock()
		defer mu.Unlock()
		return fetches[fmt.Sprintf("h%d.test", i)]
	}
	for i := range 200 {
		ask(i) // many hosts: the bound holds throughout
	}
	if c.Len() != max {
		t.Errorf("Len = %d, want %d", c.Len(), max)
	}
	for i := 200; i < 200+max; i++ {
		ask(i) // fill with h200..h207
	}
	ask(200) // h200 becomes the most recent
	ask(300) // evicts h201, the least recent
	ask(200)
	if n := count(200); n != 1 {
		t.Errorf("h200 fetched %d times, want 1: the most recently asked origin was evicted", n)
	}
	ask(201)
	if n := count(201); n != 2 {
		t.Errorf("h201 fetched %d times, want 2: the least recently asked origin was kept", n)
	}
}

func TestCacheBadURL(t *testing.T) {
	c := NewCache(nil)
	tests := []struct {
		url    string
		err    error
		reason string
	}{
		{"/x", robotstxt.ErrRelativeURL, "no origin"},
		{"http://a..b/", robotstxt.ErrInvalidHost, "no valid host"},
		{"ftp://example.com/x", ErrUnsupportedScheme, "cannot be fetched over HTTP"},
	}
	for _, tt := range tests {
		if ok, err := c.For("Foobot").Allowed(context.Background(), tt.url); ok || !errors.Is(err, tt.err) {
			t.Errorf("Allowed(%q) = %v, %v; want false, %v (%s)", tt.url, ok, err, tt.err, tt.reason)
		}
	}
	if c.Len() != 0 {
		t.Errorf("bad URLs left %d entries", c.Len())
	}
}

// TestCacheOriginKey checks that spellings of one origin share one entry.
func TestCacheOriginKey(t *testing.T) {
	s, srv := newSite(t, disallowX)
	c := NewCache(&Options{Client: srv.Client()})
	// srv.URL is http://127.0.0.1:port.
	for _, u := range []string{srv.URL + "/x", "HTTP" + srv.URL[4:] + "/y", "http://user@" + srv.URL[7:] + "/z"} {
		if _, err := c.For("Foobot").Allowed(context.Background(), u); err != nil {
			t.Fatal(err)
		}
	}
	if n := s.fetches.Load(); n != 1 || c.Len() != 1 {
		t.Errorf("%d fetches, %d entries for one origin spelled three ways; want 1, 1", n, c.Len())
	}
}

// TestCacheAllowedNoAllocs checks that asking about a cached origin costs
// no allocation, so a crawler can ask before every request.
func TestCacheAllowedNoAllocs(t *testing.T) {
	_, srv := newSite(t, disallowX)
	c := NewCache(&Options{Client: srv.Client(), UserAgent: "Foobot", Now: newClock().Now})
	ctx := context.Background()
	u := srv.URL + "/x/y?z"
	if _, err := c.Allowed(ctx, u); err != nil {
		t.Fatal(err)
	}
	n := testing.AllocsPerRun(1000, func() {
		if ok, err := c.Allowed(ctx, u); ok || err != nil {
			t.Fatalf("Allowed = %v, %v", ok, err)
		}
	})
	if n != 0 {
		t.Errorf("Allowed on a cached origin: %v allocs, want 0", n)
	}
}

var allowedSink bool

func BenchmarkCacheAllowed(b *testing.B) {
	s := &site{status: 200, body: disallowX}
	srv := httptest.NewServer(s)
	defer srv.Close()
	c := NewCache(&Options{Client: srv.Client()})
	ctx := context.Background()
	u := srv.URL + "/x/y?z"
	b.ReportAllocs()
	for b.Loop() {
		allowedSink, _ = c.For("Foobot").Allowed(ctx, u)
	}
}
