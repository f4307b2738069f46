package redisstore

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/robotstxt-go/robotstxt/fetch"
)

// childEnv tells a re-executed test binary to play one crawler process of
// a test (see TestMain) instead of running the tests.
const childEnv = "REDISSTORE_TEST_CHILD"

// quiet drops go-redis's log lines: the tests make Redis fail on purpose,
// and check what the caches report instead.
type quiet struct{}

func (quiet) Printf(context.Context, string, ...any) {}

func TestMain(m *testing.M) {
	redis.SetLogger(quiet{})
	if spec := os.Getenv(childEnv); spec != "" {
		os.Exit(child(spec))
	}
	os.Exit(m.Run())
}

// child runs one crawler process: spec is "mode redisAddr originsAddr
// prefix". Mode "fleet" waits for its standard input to close, asks about
// fleetOrigins origins from fleetGoroutines goroutines, and prints what its
// cache counted; mode "hold" asks about one origin and waits, to be killed
// while it holds the origin's lease.
func child(spec string) int {
	var mode, redisAddr, originsAddr, prefix string
	if _, err := fmt.Sscan(spec, &mode, &redisAddr, &originsAddr, &prefix); err != nil {
		fmt.Fprintln(os.Stderr, "bad child spec:", err)
		return 2
	}
	rdb := newChildClient(redisAddr)
	defer rdb.Close()
	o := &fetch.Options{Client: routeTo(originsAddr), Store: New(rdb, prefix), StoreTimeout: 10 * time.Second}
	if mode == "hold" {
		o.LeaseTTL = holdLease
		c := fetch.NewCache(o)
		c.For("Foobot").Allowed(context.Background(), "http://"+host(0)+"/x")
		fmt.Println("the fetch ended: it should have been killed")
		return 1
	}
	io.Copy(io.Discard, os.Stdin) // start together
	c := fetch.NewCache(o)
	var a answers
	a.askAll(c, fleetGoroutines, 0, fleetOrigins)
	idleCache(c)
	st := c.Stats()
	fmt.Printf("wrong %d fetches %d storehits %d storeerrors %d slowest %d\n",
		a.wrong.Load(), st.Fetches, st.StoreHits, st.StoreErrors, a.slowest)
	return 0
}

const (
	fleetCaches     = 8
	fleetGoroutines = 50
	fleetOrigins    = 500
	holdLease       = 1500 * time.Millisecond
)

// askAll has goroutines ask c about the origins from..to-1, each goroutine
// in its own order, half of them about a disallowed path and half about an
// allowed one. It returns the number of wrong answers and errors.
func askAll(c *fetch.Cache, goroutines, from, to int) int {
	var a answers
	a.askAll(c, goroutines, from, to)
	return int(a.wrong.Load())
}

// askAll is the function askAll, counting into a.
func (a *answers) askAll(c *fetch.Cache, goroutines, from, to int) {
	var wg sync.WaitGroup
	n := to - from
	for g := range goroutines {
		wg.Go(func() {
			for j := range n {
				i := from + (j+g*37)%n
				path := "/x"
				if (i+g)%2 == 1 {
					path = "/y"
				}
				a.ask(c, "http://"+host(i)+path, path == "/y")
			}
		})
	}
	wg.Wait()
}

// perOrigin returns the mean number of fetches of the origins from..to-1.
func perOrigin(o *origins, from, to int) float64 {
	n := 0
	for i := from; i < to; i++ {
		n += o.count(host(i))
	}
	return float64(n) / float64(to-from)
}

// idleCache waits until c has finished its refreshes, saves included, as
// a crawler does before it exits.
func idleCache(c *fetch.Cache) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c.Flush(ctx)
}

// TestFleetOneFetchPerOrigin is a fleet of 8 caches sharing one Redis, each
// asked by 50 goroutines about the same 500 origins at once: each origin
// must be fetched once in all.
func TestFleetOneFetchPerOrigin(t *testing.T) {
	r := startRedis(t)
	o := newOrigins(t)
	o.set(200, disallowX, 2*time.Millisecond) // let the askers pile up
	var caches []*fetch.Cache
	for range fleetCaches {
		caches = append(caches, fetch.NewCache(&fetch.Options{
			// A loaded machine under the race detector may be slow: this
			// test is about sharing, TestSlowRedis about timeouts.
			Client: o.client(t), Store: New(r.client(t), "fleet:"), StoreTimeout: 10 * time.Second,
		}))
	}
	var wg sync.WaitGroup
	var ans answers
	for _, c := range caches {
		wg.Go(func() { ans.askAll(c, fleetGoroutines, 0, fleetOrigins) })
	}
	wg.Wait()
	if n := ans.wrong.Load(); n != 0 {
		t.Errorf("%d wrong answers or errors", n)
	}
	checkOnce(t, o, 0, fleetOrigins)
	var fetches, hits, errs uint64
	for _, c := range caches {
		idleCache(c)
		st := c.Stats()
		fetches, hits, errs = fetches+st.Fetches, hits+st.StoreHits, errs+st.StoreErrors
	}
	if fetches != fleetOrigins || hits != (fleetCaches-1)*fleetOrigins || errs != 0 {
		t.Errorf("the caches counted %d fetches, %d store hits, %d store errors; want %d, %d, 0",
			fetches, hits, errs, fleetOrigins, (fleetCaches-1)*fleetOrigins)
	}
	t.Logf("%d caches × %d goroutines × %d origins: %.2f fetches per origin; slowest answer %v",
		fleetCaches, fleetGoroutines, fleetOrigins, perOrigin(o, 0, fleetOrigins), ans.slowest)
}

// checkOnce checks that each origin from..to-1 was fetched exactly once.
func checkOnce(t *testing.T, o *origins, from, to int) {
	t.Helper()
	bad := 0
	for i := from; i < to; i++ {
		if n := o.count(host(i)); n != 1 {
			if bad++; bad <= 5 {
				t.Errorf("%s fetched %d times, want once", host(i), n)
			}
		}
	}
	if bad > 5 {
		t.Errorf("and %d more origins", bad-5)
	}
}

// startChild starts this test binary as a crawler process in mode.
func startChild(t *testing.T, mode string, r *redisServer, o *origins, prefix string) (*exec.Cmd, io.WriteCloser, *strings.Builder) {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	spec := fmt.Sprint(mode, " ", r.addr, " ", o.srv.Listener.Addr(), " ", prefix)
	cmd.Env = append(os.Environ(), childEnv+"="+spec)
	out := &strings.Builder{}
	cmd.Stdout, cmd.Stderr = out, out
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	return cmd, stdin, out
}

// TestFleetProcesses is the fleet as 3 operating-system processes, each
// asking about the same 500 origins from 50 goroutines at once.
func TestFleetProcesses(t *testing.T) {
	r := startRedis(t)
	o := newOrigins(t)
	o.set(200, disallowX, 2*time.Millisecond)
	type proc struct {
		cmd   *exec.Cmd
		stdin io.WriteCloser
		out   *strings.Builder
	}
	var procs []proc
	for range 3 {
		cmd, stdin, out := startChild(t, "fleet", r, o, "procs:")
		procs = append(procs, proc{cmd, stdin, out})
	}
	for _, p := range procs {
		p.stdin.Close() // all start at once
	}
	var fetches int
	var slowest time.Duration
	for i, p := range procs {
		if err := p.cmd.Wait(); err != nil {
			t.Fatalf("process %d: %v\n%s", i, err, p.out)
		}
		var wrong, f, hits, errs int
		var slow time.Duration
		line, _ := bufio.NewReader(strings.NewReader(p.out.String())).ReadString('\n')
		if _, err := fmt.Sscanf(line, "wrong %d fetches %d storehits %d storeerrors %d slowest %d", &wrong, &f, &hits, &errs, &slow); err != nil {
			t.Fatalf("process %d printed %q: %v", i, p.out, err)
		}
		if wrong != 0 || errs != 0 {
			t.Errorf("process %d: %d wrong answers, %d store errors", i, wrong, errs)
		}
		fetches += f
		slowest = max(slowest, slow)
	}
	t.Logf("3 processes × %d goroutines × %d origins: %.2f fetches per origin; slowest answer %v",
		fleetGoroutines, fleetOrigins, perOrigin(o, 0, fleetOrigins), slowest)
	checkOnce(t, o, 0, fleetOrigins)
	if fetches != fleetOrigins {
		t.Errorf("the processes counted %d fetches in all, want %d", fetches, fleetOrigins)
	}
}

// TestLeaseHolderKilled kills a process while it fetches under the lease:
// another process fetches once the lease runs out, not before.
func TestLeaseHolderKilled(t *testing.T) {
	r := startRedis(t)
	o := newOrigins(t)
	block := make(chan struct{})
	o.mu.Lock()
	o.block, o.seen = block, make(chan string, 1)
	seen := o.seen
	o.mu.Unlock()
	cmd, _, out := startChild(t, "hold", r, o, "hold:")
	select {
	case <-seen: // the child holds the lease and is fetching
	case <-time.After(20 * time.Second):
		t.Fatalf("the child never fetched:\n%s", out)
	}
	rdb := r.client(t)
	s := New(rdb, "hold:")
	left, err := rdb.PTTL(context.Background(), s.Key("http://"+host(0))+":lease").Result()
	if err != nil || left <= 0 {
		t.Fatalf("the child holds no lease: %v, %v", left, err)
	}
	expiry := time.Now().Add(left)
	cmd.Process.Kill()
	cmd.Wait()
	o.mu.Lock()
	o.block, o.seen = nil, nil
	o.mu.Unlock()
	close(block)

	var events []fetch.FetchEvent
	c := fetch.NewCache(&fetch.Options{
		Client: o.client(t), Store: s,
		OnFetch: func(ev fetch.FetchEvent) { events = append(events, ev) },
	})
	ok, err := c.For("Foobot").Allowed(context.Background(), "http://"+host(0)+"/x")
	// expiry is late by the PTTL round trip, and PTTL counts whole
	// milliseconds: allow a little before it.
	late := time.Since(expiry)
	if ok || err != nil {
		t.Fatalf("Allowed = %v, %v; want false, nil", ok, err)
	}
	if late < -20*time.Millisecond || late > time.Second {
		t.Errorf("answered %v after the dead process's lease ran out; want after it, and soon", late)
	}
	idleCache(c)
	t.Logf("holder killed, origin blocked: %s fetched %d times (the dead holder's fetch included); the answer came %v after the lease ran out",
		host(0), o.count(host(0)), late)
	if n := o.count(host(0)); n != 2 || len(events) != 1 || !events[0].Fetched || events[0].Waited == 0 {
		t.Errorf("%d fetches, events %+v; want the dead process's fetch and one after a wait", n, events)
	}
}

// TestRedisKilledMidRun kills Redis while two caches answer questions: all
// are answered, by local fetches; once Redis is back, sharing resumes, and
// no goroutine is left behind.
func TestRedisKilledMidRun(t *testing.T) {
	r := startRedis(t)
	o := newOrigins(t)
	base := runtime.NumGoroutine()
	var rdbs []*redis.Client
	var hcs []*http.Client
	var caches []*fetch.Cache
	for range 2 {
		rdb, hc := newChildClient(r.addr), routeTo(o.srv.Listener.Addr().String())
		rdbs, hcs = append(rdbs, rdb), append(hcs, hc)
		caches = append(caches, fetch.NewCache(&fetch.Options{
			Client: hc, Store: New(rdb, "kill:"),
			// A dead Redis refuses at once; the long timeout is for
			// a loaded machine, where a live Redis may answer late.
			StoreTimeout: 5 * time.Second, StoreRetry: 50 * time.Millisecond,
		}))
	}

	// Run 1: Redis dies when half the origins have been fetched.
	o.set(200, disallowX, 5*time.Millisecond)
	killed := make(chan struct{})
	o.mu.Lock()
	o.at, o.then = 100, func() { r.kill(); close(killed) }
	o.mu.Unlock()
	var wg sync.WaitGroup
	var ans answers
	for _, c := range caches {
		wg.Go(func() { ans.askAll(c, 20, 0, 200) })
	}
	wg.Wait()
	<-killed
	t.Logf("Redis killed mid-run: %.2f fetches per origin; slowest answer %v", perOrigin(o, 0, 200), ans.slowest)
	if n := ans.wrong.Load(); n != 0 {
		t.Errorf("with Redis killed: %d questions got a wrong answer or an error", n)
	}
	var errs uint64
	for _, c := range caches {
		idleCache(c)
		errs += c.Stats().StoreErrors
	}
	if errs == 0 {
		t.Errorf("the caches counted no store error")
	}
	for i := range 200 {
		if n := o.count(host(i)); n < 1 || n > len(caches) {
			t.Errorf("%s fetched %d times; want once, or once per cache after Redis died", host(i), n)
		}
	}

	// Run 2: Redis is back (empty); new origins are fetched once in all.
	r.restart()
	// After failed dials, go-redis dials again in the background once a
	// second: wait until the clients are back, then for StoreRetry.
	for _, rdb := range rdbs {
		for deadline := time.Now().Add(5 * time.Second); rdb.Ping(context.Background()).Err() != nil; time.Sleep(10 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatal("the client did not reconnect within 5s")
			}
		}
	}
	time.Sleep(100 * time.Millisecond)
	var fetches uint64
	for _, c := range caches {
		fetches -= c.Stats().Fetches
	}
	ans = answers{}
	for _, c := range caches {
		wg.Go(func() { ans.askAll(c, 20, 200, 300) })
	}
	wg.Wait()
	t.Logf("Redis restarted: %.2f fetches per origin; slowest answer %v", perOrigin(o, 200, 300), ans.slowest)
	if n := ans.wrong.Load(); n != 0 {
		t.Errorf("after the restart: %d wrong answers or errors", n)
	}
	checkOnce(t, o, 200, 300)
	for _, c := range caches {
		idleCache(c)
		fetches += c.Stats().Fetches
	}
	if fetches != 100 {
		t.Errorf("after the restart the caches fetched %d times for 100 origins", fetches)
	}

	for i := range rdbs {
		rdbs[i].Close()
		hcs[i].CloseIdleConnections()
	}
	var n int
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if n = runtime.NumGoroutine(); n <= base {
			return
		}
	}
	buf := make([]byte, 1<<20)
	t.Errorf("%d goroutines left, %d before:\n%s", n, base, buf[:runtime.Stack(buf, true)])
}
