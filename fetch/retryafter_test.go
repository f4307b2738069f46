package fetch

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/robotstxt-go/robotstxt/fetch/fetchtest"
	"github.com/robotstxt-go/robotstxt/lint"
)

// TestRobotsRetryAfter checks the one time at which an unreachable
// robots.txt is asked again: a 429 or 5xx answer sets it, from Retry-After
// (down to minRetryAfter) or RetryTTL, and the cache's refetch, the
// pacer's next turn at the origin and the RetryError of a request that
// cannot wait for it all name that one time.
func TestRobotsRetryAfter(t *testing.T) {
	tests := []struct {
		answer fetchtest.Answer
		ttl    time.Duration
		retry  time.Duration
		reason string
	}{
		{fetchtest.Answer{Status: 503, Header: http.Header{"Retry-After": {"120"}}}, 2 * time.Minute, 2 * time.Minute,
			"RFC 9110 §10.2.3: Retry-After in seconds sets when robots.txt is asked again"},
		{fetchtest.Answer{Status: 429, Header: http.Header{"Retry-After": {"300"}}}, 5 * time.Minute, 5 * time.Minute,
			"429 too"},
		{fetchtest.Answer{Status: 503, Header: http.Header{"Retry-After": {"2"}}}, 2 * time.Second, 2 * time.Second,
			"a short Retry-After is honoured: the journey of #27, a 503 with Retry-After: 2"},
		{fetchtest.Answer{Status: 503, Header: http.Header{"Retry-After": {"0"}}}, minRetryAfter, minRetryAfter,
			"Retry-After: 0 is held to the floor, minRetryAfter"},
		{fetchtest.Answer{Status: 429, Header: http.Header{"Retry-After": {"Sun, 06 Nov 1994 08:49:37 GMT"}}}, minRetryAfter, minRetryAfter,
			"an HTTP date already past: the floor"},
		{fetchtest.Answer{Status: 503, Header: http.Header{"Retry-After": {"99999999"}}}, 7 * 24 * time.Hour, 99999999 * time.Second,
			"a long one to the cap, MaxTTL"},
		{fetchtest.Answer{Status: 503}, defaultRetryTTL, 0,
			"no Retry-After: the retry interval"},
		{fetchtest.Answer{Status: 500, Header: http.Header{"Retry-After": {"120"}}}, defaultRetryTTL, 0,
			"Retry-After counts for 429 and 503 only"},
	}
	for _, tt := range tests {
		synctest.Test(t, func(t *testing.T) {
			sites := fetchtest.NewSites(map[string]fetchtest.Answer{"down.example": tt.answer}, nil)
			cache := NewCache(&Options{Client: sites.Client(), UserAgent: "Foobot/1.0"})
			ctx := context.Background()
			r, err := cache.File(ctx, "http://down.example/x")
			if err != nil {
				t.Fatal(err)
			}
			if r.Latest.TTL != tt.ttl || r.Latest.RetryAfter != tt.retry {
				t.Errorf("TTL %v, RetryAfter %v; want %v, %v (%s)", r.Latest.TTL, r.Latest.RetryAfter, tt.ttl, tt.retry, tt.reason)
			}
			again := r.Latest.Expires

			// A request whose deadline comes before the refetch fails at
			// once, retryable, never "disallowed".
			short, cancel := context.WithTimeout(ctx, tt.ttl-time.Millisecond)
			defer cancel()
			start := time.Now()
			req, _ := http.NewRequestWithContext(short, http.MethodGet, "http://down.example/x", nil)
			_, err = NewTransport(sites, cache).RoundTrip(req)
			var re *RetryError
			if !errors.As(err, &re) || !errors.Is(err, ErrRetryLater) || errors.Is(err, ErrDisallowed) ||
				re.Status != tt.answer.Status || !re.When.Equal(again) || time.Since(start) != 0 {
				t.Errorf("Transport: %v, want at once a RetryError with status %d, asked again at %v (%s)", err, tt.answer.Status, again, tt.reason)
			} else if !strings.Contains(re.Error(), "status "+strconv.Itoa(tt.answer.Status)) {
				t.Errorf("the error %q does not name the status", re.Error())
			}

			p := NewPacer(&PacerOptions{Cache: cache, Delay: -1})
			turn, err := p.Reserve(ctx, "http://down.example/x")
			if err != nil {
				t.Fatal(err)
			}
			if got := turn.When(); !got.Equal(again) {
				t.Errorf("the pacer's first turn comes at +%v, the refetch at +%v (%s)", time.Until(got), time.Until(again), tt.reason)
			}
			turn.Cancel()
		})
	}
}

// TestUnreachableWaitsForRefetch checks that a request for an origin whose
// robots.txt answered 503 waits for the next fetch when it comes before
// the request's deadline, and is then answered on the fresh file: sent
// when the file allows it, refused when it does not; through a Transport
// with a pacer, through Cache.Check, and on a turn taken with Reserve.
func TestUnreachableWaitsForRefetch(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		sites := fetchtest.NewSites(map[string]fetchtest.Answer{
			"down.example": {Status: 503, Header: http.Header{"Retry-After": {"2"}}},
		}, nil)
		cache := NewCache(&Options{Client: sites.Client(), UserAgent: "Foobot/1.0"})
		pacer := NewPacer(&PacerOptions{Cache: cache, Delay: -1})
		client := &http.Client{Transport: NewTransport(sites, cache).WithPacer(pacer), Timeout: 10 * time.Second}
		ctx := context.Background()
		if _, err := cache.File(ctx, "http://down.example/"); err != nil {
			t.Fatal(err)
		}
		sites.Set("down.example", fetchtest.Answer{Body: "User-agent: *\nDisallow: /no\n"})

		start := time.Now()
		resp, err := client.Get("http://down.example/yes")
		if err != nil {
			t.Fatalf("Transport: %v, want the page once the robots.txt answers", err)
		}
		resp.Body.Close()
		if waited := time.Since(start); waited != 2*time.Second {
			t.Errorf("the request waited %v, want the 2s of Retry-After", waited)
		}
		if _, err := client.Get("http://down.example/no/x"); !errors.Is(err, ErrDisallowed) {
			t.Errorf("a URL the fresh file disallows: %v, want ErrDisallowed", err)
		}
		if got := sites.Fetches("down.example"); got != 2 {
			t.Errorf("%d robots.txt fetches, want 2", got)
		}

		// Cache.Check, after a second 503 with no good copy held.
		cache.Forget(ctx, "http://down.example/")
		sites.Set("down.example", fetchtest.Answer{Status: 429, Header: http.Header{"Retry-After": {"3"}}})
		cache.File(ctx, "http://down.example/")
		sites.Set("down.example", fetchtest.Answer{Body: "User-agent: *\nDisallow: /no\n"})
		start = time.Now()
		send, err := cache.Check(ctx, "http://down.example/a b")
		if err != nil || send != "http://down.example/a%20b" || time.Since(start) != 3*time.Second {
			t.Errorf("Check = %q, %v after %v; want the URL to send after 3s", send, err, time.Since(start))
		}
	})
}

// TestResultNotRobots checks that a Result says when the 2xx body is no
// robots.txt: an HTML page or binary data, as the CLI reports them.
func TestResultNotRobots(t *testing.T) {
	tests := []struct {
		body   string
		want   error
		reason string
	}{
		{"User-agent: *\nDisallow: /x\n", nil, "a robots.txt"},
		{"", nil, "an empty body is an empty robots.txt"},
		{"<!DOCTYPE html>\n<html><head><title>Not found</title></head><body>Sorry</body></html>\n", lint.ErrHTML,
			"an error page served with 200"},
		{"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0e\x0f\x10\x11\x12", lint.ErrEncoding,
			"a compressed body the server did not say was compressed"},
		{"\xff\xfeU\x00s\x00e\x00r\x00", lint.ErrEncoding, "UTF-16"},
	}
	for _, tt := range tests {
		sites := fetchtest.NewSites(map[string]fetchtest.Answer{"example.com": {Body: tt.body}}, nil)
		res, err := Fetch(context.Background(), sites.Client(), "Foobot/1.0", "http://example.com/")
		if err != nil {
			t.Fatal(err)
		}
		if tt.want == nil && res.NotRobots != nil || tt.want != nil && !errors.Is(res.NotRobots, tt.want) {
			t.Errorf("body %q: NotRobots = %v, want %v (%s)", tt.body, res.NotRobots, tt.want, tt.reason)
		}
	}
}
