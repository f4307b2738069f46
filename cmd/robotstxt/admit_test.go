package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/robotstxt-go/robotstxt/lint"
)

// TestCapacityOrder checks the order in which waiters get units: the
// lowest key first, so that a small request is not kept behind large
// ones, and a waiter that gives up leaves nothing taken.
func TestCapacityOrder(t *testing.T) {
	c := newCapacity(10, 0, 0)
	ctx := context.Background()
	if !c.acquire(ctx, 10, 10) {
		t.Fatal("10 of 10 units not granted")
	}
	got := make(chan string, 3)
	wait := func(name string, cost int64, ctx context.Context) {
		go func() {
			if c.acquire(ctx, cost, cost) {
				got <- name
			} else {
				got <- name + " gave up"
			}
		}()
	}
	waitFor := func(n int) {
		for deadline := time.Now().Add(5 * time.Second); ; {
			c.mu.Lock()
			l := len(c.waiting)
			c.mu.Unlock()
			if l == n {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("%d waiting, want %d", l, n)
			}
			time.Sleep(time.Millisecond)
		}
	}
	short, cancel := context.WithCancel(ctx)
	wait("big", 8, short)
	waitFor(1)
	wait("small", 3, ctx)
	waitFor(2)
	c.release(4) // 4 free: the small one fits, the big one, first to come, does not
	if g := <-got; g != "small" {
		t.Errorf("first granted: %s, want small", g)
	}
	cancel()
	if g := <-got; g != "big gave up" {
		t.Errorf("then: %s, want the big one to give up", g)
	}
	c.release(3)
	c.release(6)
	if c.free != 10 || len(c.waiting) != 0 {
		t.Errorf("after all releases: %d free, %d waiting; want 10 and 0", c.free, len(c.waiting))
	}
	// A small request with room goes ahead of a large one waiting.
	c.acquire(ctx, 6, 6)
	wait("large", 8, ctx)
	waitFor(1)
	if !c.acquire(ctx, 2, 2) {
		t.Error("a small request with room waits behind a large one that has none")
	}
	c.release(8)
	if g := <-got; g != "large" {
		t.Errorf("then: %s, want large", g)
	}
}

// TestCapacityReserve: the reserve goes to small requests only, so that
// large ones, however slow, leave room for them.
func TestCapacityReserve(t *testing.T) {
	c := newCapacity(10, 2, 1)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if !c.acquire(ctx, 8, 8) {
		t.Fatal("8 large units of 10, 2 reserved: not granted")
	}
	if c.acquire(ctx, 2, 2) {
		t.Error("a large request took the reserve")
	}
	if !c.acquire(context.Background(), 1, 1) || !c.acquire(context.Background(), 1, 1) {
		t.Error("small requests did not get the reserve")
	}
}

// TestAPIBusy checks what a request meets when the bodies under way fill
// the budget: 503 with Retry-After after admitWait, its body unread, and
// an answer again once there is room; and that a body declared over the
// limit is refused before it is sent.
func TestAPIBusy(t *testing.T) {
	srv, s := tester(t, false)
	// Bodies under way hold the whole budget, the reserve included.
	s.bodies.mu.Lock()
	s.bodies.free = 0
	s.bodies.mu.Unlock()
	start := time.Now()
	resp, err := srv.Client().Post(srv.URL+"/api/check?agent=*&url=/x", "text/plain", strings.NewReader("Disallow: /x\n"))
	if err != nil {
		t.Fatal(err)
	}
	msg, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if took := time.Since(start); resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") != fmt.Sprint(retryAfter) ||
		took < admitWait || took > admitWait+5*time.Second || !strings.Contains(string(msg), "busy") {
		t.Errorf("with the budget full: %s after %v, Retry-After %q, %s; want 503 after %v with Retry-After %d",
			resp.Status, took, resp.Header.Get("Retry-After"), msg, admitWait, retryAfter)
	}
	s.bodies.release(bodyBudget)
	var got checkResponse
	if code := post(t, srv, "/api/check", "application/json", `{"robots":"User-agent: *\nDisallow: /x\n","agent":"*","urls":["/x"]}`, &got); code != 200 {
		t.Errorf("with room again: %d", code)
	}

	// A header that declares 5 MB, and 300 KB of it sent: refused
	// without the rest.
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	fmt.Fprintf(conn, "POST /api/lint HTTP/1.1\r\nHost: %s\r\nContent-Type: text/plain\r\nContent-Length: 5000000\r\n\r\n%s",
		srv.Listener.Addr(), strings.Repeat("a", 300<<10))
	r, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("a body declared over the limit: %v", err)
	}
	if r.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("a body declared over the limit: %s, want 413", r.Status)
	}
}

// TestSlowHeader checks that a client that sends its header a line a
// second (slowloris) is cut off after ReadHeaderTimeout, so that it
// holds no connection for longer.
func TestSlowHeader(t *testing.T) {
	t.Parallel()
	_, s := tester(t, false)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := newHTTPServer(s.handler())
	go hs.Serve(ln)
	t.Cleanup(func() { hs.Close() })
	conn, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	start := time.Now()
	fmt.Fprintf(conn, "POST /api/check HTTP/1.1\r\nHost: 127.0.0.1\r\n")
	limit := hs.ReadHeaderTimeout + 3*time.Second
	for i := 0; time.Since(start) < limit; i++ {
		if _, err := fmt.Fprintf(conn, "X-Drip-%d: y\r\n", i); err != nil {
			break // cut off
		}
		conn.SetReadDeadline(time.Now().Add(time.Second))
		if _, err := conn.Read(make([]byte, 1)); err != nil && !isTimeout(err) {
			break // cut off
		}
	}
	if took := time.Since(start); took >= limit {
		t.Errorf("a header dripping a line a second held the connection %v; ReadHeaderTimeout is %v", took, hs.ReadHeaderTimeout)
	}
}

func isTimeout(err error) bool {
	ne, ok := err.(net.Error)
	return ok && ne.Timeout()
}

// TestAnalysisCost holds analysisLineCost: what lint.Diagnose holds a
// line, for the costliest files, short lines each with a finding. The
// files are a fifth of 500 KiB, which is enough to measure.
func TestAnalysisCost(t *testing.T) {
	for _, line := range []string{"a\n", "\n", "Disallow: x\n", "Disallow: /a\n", "User-agent: a\n"} {
		body := []byte(strings.Repeat(line, 100<<10/len(line)))
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		rep := lint.Diagnose(body)
		runtime.GC()
		runtime.ReadMemStats(&after)
		runtime.KeepAlive(rep)
		held := int64(after.HeapAlloc) - int64(before.HeapAlloc)
		lines := int64(strings.Count(string(body), "\n") + 1)
		t.Logf("%q: %d a line", line, held/lines)
		if held > lines*analysisLineCost {
			t.Errorf("%q × %d: Diagnose holds %d bytes, %d a line; analysisLineCost is %d", line, lines, held, held/lines, analysisLineCost)
		}
	}
}

// TestServeHelpLimits holds the numbers that "robotstxt serve -h" states
// to the constants and the server's timeouts.
func TestServeHelpLimits(t *testing.T) {
	hs := newHTTPServer(nil)
	for _, s := range []string{
		fmt.Sprintf("limited to %d MiB and %d URLs", maxRequestBody>>20, maxURLs),
		fmt.Sprintf("(%d MiB, a body counted twice:", bodyBudget>>20),
		fmt.Sprintf("the last %d MiB for bodies of at most %d KiB", bodyReserve>>20, smallBody>>10),
		fmt.Sprintf("Retry-After after %d s", int(admitWait.Seconds())),
		fmt.Sprintf("a header must arrive within %d s and a\nwhole request within %d s", int(hs.ReadHeaderTimeout.Seconds()), int(hs.ReadTimeout.Seconds())),
		fmt.Sprintf("at most %d connections", maxConns),
	} {
		if !strings.Contains(serveHelp, s) {
			t.Errorf("serve -h does not say %q", s)
		}
	}
	if bodyCost(&http.Request{ContentLength: 100}) != 200 {
		t.Errorf("a body is not counted twice")
	}
}

// TestSlowBodies: clients that send large bodies a byte a second (chunked,
// so each is counted at the 4 MiB limit) hold what the budget gives large
// bodies, not the reserve: a small request is still answered at once, and
// a large one is answered 503 with Retry-After.
func TestSlowBodies(t *testing.T) {
	t.Parallel()
	_, s := tester(t, false)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s.setHosts(ln.Addr(), "")
	hs := newHTTPServer(s.handler())
	go hs.Serve(ln)
	t.Cleanup(func() { hs.Close() })
	n := int(bodyBudget/bodyCost(&http.Request{ContentLength: -1})) + 1
	for range n {
		conn, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		fmt.Fprintf(conn, "POST /api/lint HTTP/1.1\r\nHost: %s\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n1\r\na\r\n", ln.Addr())
		go func() {
			for range 10 {
				time.Sleep(time.Second)
				if _, err := conn.Write([]byte("1\r\na\r\n")); err != nil {
					return
				}
			}
		}()
	}
	time.Sleep(200 * time.Millisecond) // the slow ones are admitted first
	client := &http.Client{Timeout: 10 * time.Second}
	start := time.Now()
	resp, err := client.Post("http://"+ln.Addr().String()+"/api/check?agent=*&url=/x", "text/plain", strings.NewReader("User-agent: *\nDisallow: /x\n"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if took := time.Since(start); resp.StatusCode != 200 || took > time.Second {
		t.Errorf("a small request beside %d slow large ones: %s in %v; want 200 at once", n, resp.Status, took)
	}
	resp, err = client.Post("http://"+ln.Addr().String()+"/api/check?agent=*&url=/x", "text/plain", strings.NewReader(strings.Repeat("#", maxRequestBody-1<<10)))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" {
		t.Errorf("a large request beside %d slow large ones: %s; want 503 with Retry-After", n, resp.Status)
	}
}
