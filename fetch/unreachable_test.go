package fetch

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestUnreachableAnswers checks that every answer of the Cache for a URL
// whose robots.txt is unreachable, with no good copy held, says so in one
// way: a *RetryError (errors.Is ErrRetryLater), never a "disallowed" with
// a nil error. RFC 9309 §2.3.1.4 has the crawler assume a complete
// disallow while the file is unreachable; that is a reason to wait, not an
// answer about the URL, and a caller that reads (false, nil) drops URLs a
// site allows. Check and the Transport said so already; Allowed and
// Decide (for the cache's agent and a view's) answered (false, nil).
// pagerules.ReadPage and PageOf, which ask Decide, are held to the same in
// TestPageUnreachable.
func TestUnreachableAnswers(t *testing.T) {
	type answer func(ctx context.Context, c *Cache, u string) (allowed bool, err error)
	methods := []struct {
		name string
		ask  answer
	}{
		{"For.Allowed", func(ctx context.Context, c *Cache, u string) (bool, error) {
			return c.For("Foobot").Allowed(ctx, u)
		}},
		{"Allowed", func(ctx context.Context, c *Cache, u string) (bool, error) {
			return c.Allowed(ctx, u)
		}},
		{"For.Decide", func(ctx context.Context, c *Cache, u string) (bool, error) {
			d, err := c.For("Foobot").Decide(ctx, u)
			return d.Allowed, err
		}},
		{"Decide", func(ctx context.Context, c *Cache, u string) (bool, error) {
			d, err := c.Decide(ctx, u)
			return d.Allowed, err
		}},
		{"Check", func(ctx context.Context, c *Cache, u string) (bool, error) {
			send, err := c.Check(ctx, u)
			return err == nil && send != "", err
		}},
		{"Transport", func(ctx context.Context, c *Cache, u string) (bool, error) {
			req, _ := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
			resp, err := NewTransport(nil, c).RoundTrip(req)
			if resp != nil {
				resp.Body.Close()
			}
			return err == nil, err
		}},
	}

	busySrv := newRobotsServer(t, busy(""))
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close() // its port refuses connections: no answer at all
	cut := newRobotsServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "100")
		io.WriteString(w, "User-agent: *\n") // and no more: the body is cut short
	})
	origins := []struct {
		name, origin string
		status       int
		cause        bool // RetryError.Cause says why the answer was no use
		reason       string
	}{
		{"503", busySrv.URL, http.StatusServiceUnavailable, false, "RFC 9309 §2.3.1.4: a 5xx makes the robots.txt unreachable"},
		{"connection refused", closed.URL, 0, true, "RFC 9309 §2.3.1.4: no answer at all, the same"},
		{"body cut short", cut.URL, http.StatusOK, true, "a 200 whose body breaks off is no answer either; the error says why, not just \"status 200\""},
	}
	for _, o := range origins {
		t.Run(o.name, func(t *testing.T) {
			cache := NewCache(&Options{UserAgent: "Foobot/1.0", MaxRetryWait: -1})
			u := o.origin + "/page"
			var first *RetryError
			for _, m := range methods {
				allowed, err := m.ask(context.Background(), cache, u)
				var re *RetryError
				if !errors.As(err, &re) || !errors.Is(err, ErrRetryLater) || errors.Is(err, ErrDisallowed) || allowed {
					t.Errorf("%s: %v, %v; want false and a RetryError (%s)", m.name, allowed, err, o.reason)
					continue
				}
				if re.Status != o.status || re.RobotsURL != o.origin+"/robots.txt" || o.cause != (re.Cause != nil) ||
					o.cause && !strings.Contains(re.Error(), re.Cause.Error()) {
					t.Errorf("%s: RetryError{Status %d, RobotsURL %q, Cause %v}, want status %d for %s/robots.txt",
						m.name, re.Status, re.RobotsURL, re.Cause, o.status, o.origin)
				}
				if first == nil {
					first = re
				} else if re.URL != first.URL || re.Status != first.Status || !re.When.Equal(first.When) ||
					errString(re.Cause) != errString(first.Cause) || re.Err != nil {
					t.Errorf("%s: %v\nwant the error %s gave: %v", m.name, re, methods[0].name, first)
				}
			}
		})
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestAllowedWaitsAsCheck checks that Allowed shares Check's path to the
// end: for a robots.txt that answered 503 with "Retry-After: 1", it waits
// for that one refetch and answers on the file it finds, as Check would.
func TestAllowedWaitsAsCheck(t *testing.T) {
	srv := newRobotsServer(t, busy("1"))
	cache := NewCache(&Options{UserAgent: "Foobot/1.0"})
	if _, err := cache.File(context.Background(), srv.URL+"/"); err != nil {
		t.Fatal(err)
	}
	srv.mu.Lock()
	srv.answer = func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "User-agent: *\nDisallow: /no\n") }
	srv.mu.Unlock()
	ok, err := cache.Allowed(context.Background(), srv.URL+"/yes")
	if !ok || err != nil || srv.count() != 2 {
		t.Errorf("Allowed = %v, %v after %d fetches; want true, nil on the refetched file", ok, err, srv.count())
	}
}

// TestDecideNowUnreachable checks the one answer that does not wait for an
// unreachable robots.txt: DecideNow answers at once, with no error, by the
// file in effect: everything disallowed (RFC 9309 §2.3.1.4), Source
// Unreachable, and Latest naming when the robots.txt is asked again.
func TestDecideNowUnreachable(t *testing.T) {
	srv := newRobotsServer(t, busy(""))
	cache := NewCache(&Options{UserAgent: "Foobot/1.0"}) // the default MaxRetryWait: Decide would wait
	start := time.Now()
	d, err := cache.DecideNow(context.Background(), srv.URL+"/page")
	if err != nil || d.Allowed || d.Source != Unreachable || d.Latest == nil || !d.Latest.Expires.After(start) {
		t.Fatalf("DecideNow = %+v, %v; want disallowed, Source Unreachable, Latest due later, no error", d, err)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("DecideNow took %v, want at once", took)
	}
}
