package fetch

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/robotstxt-go/robotstxt/fetch/fetchtest"
)

// robotsServer is a real server whose /robots.txt answers as its answer
// function says, and whose other paths answer 200. It counts the
// robots.txt requests.
type robotsServer struct {
	*httptest.Server
	mu      sync.Mutex
	fetches int
	answer  func(w http.ResponseWriter, r *http.Request)
}

func newRobotsServer(t *testing.T, answer func(w http.ResponseWriter, r *http.Request)) *robotsServer {
	s := &robotsServer{answer: answer}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/robots.txt" {
			io.WriteString(w, "a page\n")
			return
		}
		s.mu.Lock()
		s.fetches++
		answer := s.answer
		s.mu.Unlock()
		answer(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *robotsServer) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.fetches
}

// busy answers 503 with the given Retry-After, or none when it is "".
func busy(retryAfter string) func(w http.ResponseWriter, r *http.Request) {
	return func(w http.ResponseWriter, r *http.Request) {
		if retryAfter != "" {
			w.Header().Set("Retry-After", retryAfter)
		}
		w.WriteHeader(http.StatusServiceUnavailable)
	}
}

// TestCheckWaitsOnceWithinBound checks the bound on the wait for the next
// fetch of an unreachable robots.txt (RFC 9309 §2.3.1.4: disallow until it
// can be fetched): a request waits for one refetch at most, and only when
// that refetch comes within Options.MaxRetryWait (defaultMaxRetryWait)
// and before its deadline; otherwise it fails at once with a RetryError.
// A client with no Timeout must not look hung for the 5 minutes of
// RetryTTL, and a Retry-After of 0 must not have one request refetch the
// robots.txt every second until its deadline.
func TestCheckWaitsOnceWithinBound(t *testing.T) {
	tests := []struct {
		name     string
		answer   func(w http.ResponseWriter, r *http.Request)
		maxWait  time.Duration // Options.MaxRetryWait
		deadline time.Duration // 0: no deadline
		fetches  int           // robots.txt requests in all, the first included
		atMost   time.Duration // how long Check may take
		atLeast  time.Duration
		reason   string
	}{
		{"no Retry-After, no deadline", busy(""), 0, 0, 1, time.Second, 0,
			"the refetch comes after RetryTTL (5 minutes), past defaultMaxRetryWait: fail at once, do not hang"},
		{"Retry-After 0, long deadline", busy("0"), 0, 40 * time.Second, 2, 2500 * time.Millisecond, minRetryAfter - 100*time.Millisecond,
			"one refetch after minRetryAfter, then the RetryError: not one refetch a second until the deadline"},
		{"Retry-After 0, no deadline", busy("0"), 0, 0, 2, 2500 * time.Millisecond, minRetryAfter - 100*time.Millisecond,
			"without a deadline too, one refetch"},
		{"Retry-After past the bound", busy("2"), time.Second, 0, 1, time.Second, 0,
			"a refetch 2s away is past a MaxRetryWait of 1s: fail at once"},
		{"no wait at all", busy("0"), -1, 40 * time.Second, 1, time.Second, 0,
			"a negative MaxRetryWait never waits"},
		{"slow refetch", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(http.StatusServiceUnavailable)
		}, 1500 * time.Millisecond, 0, 2, 2 * time.Second, minRetryAfter - 100*time.Millisecond,
			"the wait, refetch included, ends at MaxRetryWait"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := newRobotsServer(t, tt.answer)
			cache := NewCache(&Options{UserAgent: "Foobot/1.0", MaxRetryWait: tt.maxWait})
			if _, err := cache.File(context.Background(), srv.URL+"/"); err != nil {
				t.Fatal(err)
			}
			if tt.name == "slow refetch" {
				// The refetch takes 3s, past the bound of 1.5s.
				srv.mu.Lock()
				srv.answer = func(w http.ResponseWriter, r *http.Request) {
					select {
					case <-time.After(3 * time.Second):
					case <-r.Context().Done():
					}
					w.WriteHeader(http.StatusServiceUnavailable)
				}
				srv.mu.Unlock()
			}
			ctx := context.Background()
			if tt.deadline > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, tt.deadline)
				defer cancel()
			}
			type answer struct {
				err  error
				took time.Duration
			}
			done := make(chan answer, 1)
			start := time.Now()
			go func() {
				_, err := cache.Check(ctx, srv.URL+"/page")
				done <- answer{err, time.Since(start)}
			}()
			var got answer
			select {
			case got = <-done:
			case <-time.After(tt.atMost + 5*time.Second):
				t.Fatalf("Check still waiting after %v (%s)", time.Since(start), tt.reason)
			}
			var re *RetryError
			if !errors.As(got.err, &re) || !errors.Is(got.err, ErrRetryLater) || re.Err != nil {
				t.Errorf("Check: %v, want a RetryError with no context error (%s)", got.err, tt.reason)
			}
			if got.took > tt.atMost || got.took < tt.atLeast {
				t.Errorf("Check took %v, want %v to %v (%s)", got.took, tt.atLeast, tt.atMost, tt.reason)
			}
			if n := srv.count(); n != tt.fetches {
				t.Errorf("%d robots.txt requests, want %d (%s)", n, tt.fetches, tt.reason)
			}
		})
	}
}

// TestTransportWaitBound checks the bound through a Transport and a plain
// http.Client with no Timeout, as most crawlers make one: a robots.txt
// that answers 503 without Retry-After fails the request at once with a
// RetryError rather than holding it for RetryTTL.
func TestTransportWaitBound(t *testing.T) {
	srv := newRobotsServer(t, busy(""))
	client := &http.Client{Transport: NewTransport(nil, NewCache(&Options{UserAgent: "Foobot/1.0"}))}
	done := make(chan error, 1)
	start := time.Now()
	go func() {
		resp, err := client.Get(srv.URL + "/page")
		if err == nil {
			resp.Body.Close()
		}
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, ErrRetryLater) {
			t.Errorf("GET: %v, want ErrRetryLater", err)
		}
		if took := time.Since(start); took > time.Second {
			t.Errorf("GET took %v, want at once", took)
		}
	case <-time.After(5 * time.Second):
		t.Fatalf("GET still waiting after %v: a client with no Timeout looks hung", time.Since(start))
	}
}

// TestDefaultMaxRetryWait holds the number the docs give for
// defaultMaxRetryWait: a refetch due in 29 seconds is waited for, one due
// in 30, which would leave the fetch no time, is not. It runs on a fake clock (testing/synctest), with the
// in-memory sites, as waiting 30 real seconds would slow every run.
func TestDefaultMaxRetryWait(t *testing.T) {
	tests := []struct {
		retryAfter string
		waits      time.Duration
		reason     string
	}{
		{"29", 29 * time.Second, "due before the bound: waited for, and answered on the refetch"},
		{"30", 0, "due at the bound: a RetryError at once"},
	}
	for _, tt := range tests {
		synctest.Test(t, func(t *testing.T) {
			sites := fetchtest.NewSites(map[string]fetchtest.Answer{
				"down.example": {Status: 503, Header: http.Header{"Retry-After": {tt.retryAfter}}},
			}, nil)
			cache := NewCache(&Options{Client: sites.Client(), UserAgent: "Foobot/1.0"})
			ctx := context.Background()
			if _, err := cache.File(ctx, "http://down.example/"); err != nil {
				t.Fatal(err)
			}
			sites.Set("down.example", fetchtest.Answer{Body: "User-agent: *\nDisallow:\n"})
			start := time.Now()
			_, err := cache.Check(ctx, "http://down.example/x")
			took := time.Since(start)
			if took != tt.waits {
				t.Errorf("Retry-After %s: Check took %v, want %v (%s)", tt.retryAfter, took, tt.waits, tt.reason)
			}
			if wantErr := tt.waits == 0; wantErr != errors.Is(err, ErrRetryLater) || !wantErr && err != nil {
				t.Errorf("Retry-After %s: Check: %v (%s)", tt.retryAfter, err, tt.reason)
			}
		})
	}
}
