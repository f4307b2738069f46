package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// The load of TestServeLoad, and what the server must hold to under it.
const (
	loadClients  = 400
	loadBody     = maxRequestBody - 4<<10 // just under the limit, with the JSON around the file
	loadFor      = 20 * time.Second
	loadMaxRSS   = 256 << 20 // bytes of the server's resident memory, at its peak (VmHWM)
	loadAbortRSS = 1 << 30   // the test stops the server past this, not to take the machine
	loadSmallMax = time.Second
)

// TestServeLoad runs "robotstxt serve" as a process of its own and has
// loadClients clients post bodies of 4 MiB to it for loadFor, as fast as
// it answers, each again as soon as it is answered or refused; meanwhile
// a small request goes every 200 ms. The server's peak resident memory,
// read from /proc, must stay within loadMaxRSS, every small request must
// be answered within loadSmallMax, and the large ones answered, or
// refused with 503 and Retry-After or with the connection closed before
// their body was all sent.
//
// It runs when ROBOTSTXT_SERVELOAD is set (.ci/serveload sets it), on
// Linux, without the race detector, whose shadow memory would be
// measured with the rest.
func TestServeLoad(t *testing.T) {
	if os.Getenv("ROBOTSTXT_SERVELOAD") == "" {
		t.Skip("set ROBOTSTXT_SERVELOAD=1 to run the load test (.ci/serveload does)")
	}
	if raceEnabled {
		t.Fatal("the load test measures memory: run it without -race")
	}
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Fatalf("the load test reads the server's memory from /proc: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "robotstxt")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "serve", "-addr", "127.0.0.1:0")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("serve printed no address: %v", err)
	}
	base := strings.Fields(strings.TrimPrefix(line, "robotstxt serve: "))[0]
	base = strings.TrimSuffix(base, "/")
	go io.Copy(io.Discard, stdout)

	// The load, from a process of its own, so that its clients' work
	// does not delay the small requests measured here.
	clients := exec.Command(os.Args[0], "-test.run=^TestServeLoadClients$", "-test.count=1")
	clients.Env = append(os.Environ(), "ROBOTSTXT_SERVELOAD_BASE="+base)
	clients.Stderr = os.Stderr
	var counts bytes.Buffer
	clients.Stdout = &counts
	if err := clients.Start(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), loadFor)
	defer cancel()

	// The small requests, on a client of their own.
	small, _ := json.Marshal(checkRequest{Robots: "User-agent: *\nDisallow: /private/\n", Agent: "Googlebot", URLs: []string{"/private/x"}})
	smallClient := &http.Client{Timeout: 10 * time.Second}
	var slowest time.Duration
	smalls := 0
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	peak := int64(0)
loop:
	for {
		select {
		case <-ctx.Done():
			break loop
		case <-tick.C:
		}
		rss, _ := procStatus(cmd.Process.Pid, "VmRSS")
		peak = max(peak, rss)
		if rss > loadAbortRSS {
			cancel()
			cmd.Process.Kill()
			t.Fatalf("the server's resident memory reached %d MiB: stopped", rss>>20)
		}
		start := time.Now()
		resp, err := smallClient.Post(base+"/api/check", "application/json", bytes.NewReader(small))
		took := time.Since(start)
		smalls++
		slowest = max(slowest, took)
		if err != nil {
			t.Errorf("a small request during the load: %v (after %v)", err, took)
			continue
		}
		var got checkResponse
		err = json.NewDecoder(resp.Body).Decode(&got)
		resp.Body.Close()
		switch {
		case err != nil || resp.StatusCode != http.StatusOK || len(got.Results) != 1 || *got.Results[0].Allowed:
			t.Errorf("a small request during the load: %s, %v, %+v", resp.Status, err, got.Results)
		case took > loadSmallMax:
			t.Errorf("a small request during the load took %v, over %v", took, loadSmallMax)
		}
	}
	if err := clients.Wait(); err != nil {
		t.Errorf("the load clients: %v\n%s", err, counts.String())
	}
	hwm, err := procStatus(cmd.Process.Pid, "VmHWM")
	if err != nil {
		t.Fatal(err)
	}
	var c loadCounts
	for _, l := range strings.Split(counts.String(), "\n") {
		if j, ok := strings.CutPrefix(l, "load: "); ok {
			if err := json.Unmarshal([]byte(j), &c); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Logf("%d clients, %d requests of %d bytes in %v: %d answered, %d refused with 503 and Retry-After, %d refused with the connection closed while sending, %d otherwise",
		loadClients, c.Sent, c.Size, loadFor, c.OK, c.Busy, c.Reset, c.Other)
	t.Logf("server peak resident memory %d MiB (VmHWM; %d MiB sampled), limit %d MiB", hwm>>20, peak>>20, loadMaxRSS>>20)
	t.Logf("%d small requests, the slowest answered in %v", smalls, slowest)
	if hwm > loadMaxRSS {
		t.Errorf("the server's peak resident memory was %d MiB, over %d MiB", hwm>>20, loadMaxRSS>>20)
	}
	if c.OK == 0 {
		t.Errorf("no large request was answered")
	}
	if c.Other > 0 {
		t.Errorf("%d large requests neither answered nor refused, such as %q", c.Other, c.Seen)
	}
}

// loadCounts is what TestServeLoadClients found, printed as a line
// "load: JSON".
type loadCounts struct {
	Sent, OK, Busy, Reset, Other int64
	Size                         int // bytes of a JSON request
	Seen                         []string
}

// TestServeLoadClients is the load of TestServeLoad, run by it in a
// process of its own: loadClients clients post 4 MiB files to the
// server at ROBOTSTXT_SERVELOAD_BASE for loadFor, each again as soon as
// it is answered: half a JSON body of rules, half a raw body of
// one-letter lines.
func TestServeLoadClients(t *testing.T) {
	base := os.Getenv("ROBOTSTXT_SERVELOAD_BASE")
	if base == "" {
		t.Skip("TestServeLoad runs it")
	}
	// The files, which the server cuts at 500 KiB and analyses: 4 MiB of
	// rules as JSON.
	file := "User-agent: *\n" + strings.Repeat("Disallow: /private/a*b$\n", loadBody/24)
	jsonBody, _ := json.Marshal(checkRequest{Robots: file, Agent: "Googlebot", URLs: []string{"/private/a/b"}})
	for len(jsonBody) > loadBody { // JSON writes each newline in two bytes
		file = file[:len(file)-(len(jsonBody)-loadBody)]
		jsonBody, _ = json.Marshal(checkRequest{Robots: file, Agent: "Googlebot", URLs: []string{"/private/a/b"}})
	}
	// The raw body is the costliest file to analyse: 500 KiB of
	// one-letter lines, each a line and a finding.
	rawBody := bytes.Repeat([]byte("a\n"), loadBody/2)

	ctx, cancel := context.WithTimeout(context.Background(), loadFor)
	defer cancel()
	var (
		wg                           sync.WaitGroup
		ok, busy, reset, other, sent atomic.Int64
		otherMu                      sync.Mutex
		otherSeen                    []string
	)
	transport := &http.Transport{MaxIdleConnsPerHost: loadClients, MaxConnsPerHost: 0}
	defer transport.CloseIdleConnections()
	client := &http.Client{Transport: transport, Timeout: 60 * time.Second}
	for i := range loadClients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Bounded in count too: at most 1000 requests a client.
			for n := 0; n < 1000 && ctx.Err() == nil; n++ {
				url, ct, body := base+"/api/check", "application/json", jsonBody
				if (i+n)%2 == 1 {
					url, ct, body = base+"/api/check?agent=Googlebot&url=/private/a/b", "text/plain", rawBody
				}
				req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
				req.Header.Set("Content-Type", ct)
				sent.Add(1)
				resp, err := client.Do(req)
				if err != nil {
					if refusedWhileSending(err) {
						reset.Add(1)
					} else if ctx.Err() == nil {
						other.Add(1)
						otherMu.Lock()
						otherSeen = append(otherSeen, err.Error())
						otherMu.Unlock()
					}
					continue
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				switch {
				case resp.StatusCode == http.StatusOK:
					ok.Add(1)
				case resp.StatusCode == http.StatusServiceUnavailable && resp.Header.Get("Retry-After") != "":
					busy.Add(1)
				default:
					other.Add(1)
					otherMu.Lock()
					otherSeen = append(otherSeen, resp.Status)
					otherMu.Unlock()
				}
			}
		}()
	}

	wg.Wait()
	c := loadCounts{Sent: sent.Load(), OK: ok.Load(), Busy: busy.Load(), Reset: reset.Load(), Other: other.Load(), Size: len(jsonBody)}
	otherMu.Lock()
	c.Seen = otherSeen[:min(5, len(otherSeen))]
	otherMu.Unlock()
	j, _ := json.Marshal(c)
	fmt.Printf("load: %s\n", j)
}

// refusedWhileSending reports whether err is a request's body cut short
// by the server closing the connection: what a client still sending a
// large body meets when the server refuses it without reading it all.
func refusedWhileSending(err error) bool {
	return errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE)
}

// procStatus returns a size, in bytes, from /proc/PID/status, such as
// VmRSS or VmHWM.
func procStatus(pid int, field string) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, field+":"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb << 10, err
		}
	}
	return 0, fmt.Errorf("no %s in /proc/%d/status", field, pid)
}
