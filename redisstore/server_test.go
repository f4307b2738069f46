package redisstore

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// redisServer is a redis-server the tests start on a free loopback port, in
// a temporary directory, without persistence, and stop when they end.
type redisServer struct {
	t    testing.TB
	dir  string
	addr string
	cmd  *exec.Cmd
	done chan struct{} // closed when cmd has been waited for
}

// startRedis starts a redis-server for t. When it cannot, the test fails
// if the CI environment variable is set, and is skipped otherwise.
func startRedis(t testing.TB) *redisServer {
	t.Helper()
	if _, err := exec.LookPath("redis-server"); err != nil {
		unavailable(t, err)
	}
	r := &redisServer{t: t, dir: t.TempDir()}
	var err error
	for range 3 { // another program may take the free port first
		if r.addr, err = freePort(); err != nil {
			break
		}
		if err = r.start(); err == nil {
			t.Cleanup(r.stop)
			return r
		}
	}
	unavailable(t, err)
	return nil
}

func unavailable(t testing.TB, err error) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatalf("cannot start redis-server, which CI needs: %v", err)
	}
	t.Skipf("cannot start redis-server (%v): apt-get install redis-server", err)
}

// freePort returns a loopback address no one listens on just now.
func freePort() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	return l.Addr().String(), nil
}

// start starts redis-server on r.addr and waits until it answers.
func (r *redisServer) start() error {
	_, port, _ := net.SplitHostPort(r.addr)
	log := filepath.Join(r.dir, "redis.log")
	r.cmd = exec.Command("redis-server",
		"--bind", "127.0.0.1", "--port", port, "--dir", r.dir,
		"--save", "", "--appendonly", "no", "--daemonize", "no", "--logfile", log)
	if err := r.cmd.Start(); err != nil {
		return err
	}
	r.done = make(chan struct{})
	go func() {
		r.cmd.Wait()
		close(r.done)
	}()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		select {
		case <-r.done:
			b, _ := os.ReadFile(log)
			return fmt.Errorf("redis-server exited: %s", lastLine(string(b)))
		default:
		}
		if ping(r.addr) == nil {
			return nil
		}
	}
	r.kill()
	return errors.New("redis-server did not answer PING within 10s")
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

// ping sends PING to addr and reads PONG.
func ping(addr string) error {
	conn, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		return err
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(time.Second))
	if _, err := io.WriteString(conn, "PING\r\n"); err != nil {
		return err
	}
	line, err := bufio.NewReader(conn).ReadString('\n')
	if err != nil {
		return err
	}
	if line != "+PONG\r\n" {
		return fmt.Errorf("PING answered %q", line)
	}
	return nil
}

// kill stops redis-server at once, as a crash would.
func (r *redisServer) kill() {
	r.cmd.Process.Kill()
	<-r.done
}

// restart starts redis-server again on the same address, empty.
func (r *redisServer) restart() {
	r.t.Helper()
	if err := r.start(); err != nil {
		r.t.Fatalf("restarting redis-server: %v", err)
	}
}

func (r *redisServer) stop() {
	select {
	case <-r.done:
	default:
		r.kill()
	}
}

// client returns a new client of r, closed when the test ends.
func (r *redisServer) client(t testing.TB) *redis.Client {
	return newClient(t, r.addr)
}

func newClient(t testing.TB, addr string) *redis.Client {
	c := newChildClient(addr)
	t.Cleanup(func() { c.Close() })
	return c
}

// newChildClient returns a new client of the Redis at addr.
func newChildClient(addr string) *redis.Client {
	return redis.NewClient(&redis.Options{
		Addr:                  addr,
		ContextTimeoutEnabled: true,
		MaxRetries:            -1, // the cache bounds and judges each call
		DialerRetries:         1,
		// A fleet starting on a loaded machine with the race detector
		// dials many connections at once: be patient, as TestSlowRedis
		// checks the cache's own bound.
		DialTimeout: 10 * time.Second,
		PoolTimeout: 10 * time.Second,
	})
}

// origins is a web server that plays any number of origins: a client from
// its client method sends every host to it. It counts robots.txt requests
// per host, and answers each with the file, status and delay a test sets.
type origins struct {
	srv *httptest.Server

	mu      sync.Mutex
	fetches map[string]int
	status  int
	body    string
	delay   time.Duration
	slow    map[string]time.Duration // hosts answered after a delay of their own
	bodies  map[string]string        // hosts answered with a file of their own
	seen    chan string              // when not nil, gets each host asked
	block   chan struct{}
	total   int    // robots.txt requests in all
	at      int    // when total reaches at, then is called
	then    func() // in a goroutine of its own
}

const disallowX = "User-agent: *\nDisallow: /x\n"

func newOrigins(t testing.TB) *origins {
	o := &origins{fetches: map[string]int{}, status: 200, body: disallowX,
		slow: map[string]time.Duration{}, bodies: map[string]string{}}
	o.srv = httptest.NewServer(o)
	t.Cleanup(o.srv.Close)
	return o
}

func (o *origins) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	o.mu.Lock()
	o.fetches[r.Host]++
	o.total++
	if o.total == o.at && o.then != nil {
		go o.then()
	}
	status, body, delay, seen, block := o.status, o.body, o.delay, o.seen, o.block
	if d, ok := o.slow[r.Host]; ok {
		delay = d
	}
	if b, ok := o.bodies[r.Host]; ok {
		body = b
	}
	o.mu.Unlock()
	if seen != nil {
		seen <- r.Host
	}
	if block != nil {
		select {
		case <-block:
		case <-r.Context().Done():
			return
		}
	}
	time.Sleep(delay)
	w.WriteHeader(status)
	io.WriteString(w, body)
}

func (o *origins) set(status int, body string, delay time.Duration) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.status, o.body, o.delay = status, body, delay
}

// setHost gives host a file and a delay of its own.
func (o *origins) setHost(host, body string, delay time.Duration) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.bodies[host], o.slow[host] = body, delay
}

func (o *origins) count(host string) int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.fetches[host]
}

// client returns an HTTP client that sends every host to o.
func (o *origins) client(t testing.TB) *http.Client {
	c := routeTo(o.srv.Listener.Addr().String())
	t.Cleanup(c.CloseIdleConnections)
	return c
}

func routeTo(addr string) *http.Client {
	return &http.Client{Transport: &http.Transport{
		DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
			return (&net.Dialer{}).DialContext(ctx, network, addr)
		},
		// Each origin's robots.txt is fetched once or a few times: keeping
		// a connection per origin would only hold file descriptors.
		DisableKeepAlives: true,
	}}
}

// host returns the name of the i-th test origin.
func host(i int) string { return "o" + strconv.Itoa(i) + ".test" }

// slowProxy forwards TCP connections to a server, holding each chunk of
// the server's replies for a delay a test can change.
type slowProxy struct {
	l      net.Listener
	to     string
	mu     sync.Mutex
	delay  time.Duration
	wg     sync.WaitGroup
	conns  map[net.Conn]bool
	closed bool
}

func newSlowProxy(t *testing.T, to string) *slowProxy {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &slowProxy{l: l, to: to, conns: map[net.Conn]bool{}}
	p.wg.Go(p.serve)
	t.Cleanup(p.close)
	return p
}

func (p *slowProxy) addr() string { return p.l.Addr().String() }

func (p *slowProxy) setDelay(d time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.delay = d
}

func (p *slowProxy) track(c net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		c.Close()
		return false
	}
	p.conns[c] = true
	return true
}

func (p *slowProxy) serve() {
	for {
		in, err := p.l.Accept()
		if err != nil {
			return
		}
		out, err := net.Dial("tcp", p.to)
		if err != nil {
			in.Close()
			continue
		}
		if !p.track(in) || !p.track(out) {
			in.Close()
			out.Close()
			continue
		}
		p.wg.Go(func() { io.Copy(out, in); out.Close() })
		p.wg.Go(func() { p.copySlow(in, out); in.Close() })
	}
}

// copySlow copies the server's replies to the client, late.
func (p *slowProxy) copySlow(dst, src net.Conn) {
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			p.mu.Lock()
			d := p.delay
			p.mu.Unlock()
			time.Sleep(d)
			if _, err := dst.Write(buf[:n]); err != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

func (p *slowProxy) close() {
	p.l.Close()
	p.mu.Lock()
	p.closed = true
	for c := range p.conns {
		c.Close()
	}
	p.mu.Unlock()
	p.wg.Wait()
}
