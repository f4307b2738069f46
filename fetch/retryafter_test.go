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

// TestRobotsRetryAfter checks issue 17 item 4: a 429 or 503 for robots.txt
// with Retry-After sets when the robots.txt is asked again, within MinTTL
// and MaxTTL, and holds the pacer's turns at the origin back; the
// DisallowedError of an unreachable robots.txt says which status.
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
		{fetchtest.Answer{Status: 503, Header: http.Header{"Retry-After": {"2"}}}, MinTTL, 2 * time.Second,
			"a short Retry-After is held to the cache's floor, MinTTL; the pacer waits only what was asked"},
		{fetchtest.Answer{Status: 503, Header: http.Header{"Retry-After": {"99999999"}}}, 7 * 24 * time.Hour, 99999999 * time.Second,
			"a long one to the cap, MaxTTL"},
		{fetchtest.Answer{Status: 503}, DefaultRetryTTL, 0,
			"no Retry-After: the retry interval"},
		{fetchtest.Answer{Status: 500, Header: http.Header{"Retry-After": {"120"}}}, DefaultRetryTTL, 0,
			"Retry-After counts for 429 and 503 only"},
	}
	for _, tt := range tests {
		synctest.Test(t, func(t *testing.T) {
			sites := fetchtest.NewSites(map[string]fetchtest.Answer{"down.example": tt.answer}, nil)
			cache := NewCache(&Options{Client: sites.Client(), UserAgent: "Foobot/1.0"})
			ctx := context.Background()
			r, err := cache.Rules(ctx, "http://down.example/x")
			if err != nil {
				t.Fatal(err)
			}
			if r.Latest.TTL != tt.ttl || r.Latest.RetryAfter != tt.retry {
				t.Errorf("TTL %v, RetryAfter %v; want %v, %v (%s)", r.Latest.TTL, r.Latest.RetryAfter, tt.ttl, tt.retry, tt.reason)
			}

			_, err = NewTransport(sites, "", cache).RoundTrip(mustGet(t, "http://down.example/x"))
			var de *DisallowedError
			if !errors.As(err, &de) || de.Status != tt.answer.Status || !de.Retry.Equal(r.Latest.Expires) {
				t.Errorf("Transport: %v, want a DisallowedError with status %d, retry at %v (%s)", err, tt.answer.Status, r.Latest.Expires, tt.reason)
			} else if !strings.Contains(de.Error(), "status "+strconv.Itoa(tt.answer.Status)) {
				t.Errorf("the error %q does not name the status", de.Error())
			}

			p := NewPacer(&PacerOptions{Cache: cache, Delay: -1})
			turn, err := p.Reserve(ctx, "http://down.example/x")
			if err != nil {
				t.Fatal(err)
			}
			want := time.Now().Add(min(tt.retry, DefaultMaxBackoff))
			if got := turn.When(); !got.Equal(want) {
				t.Errorf("the pacer's first turn comes at +%v, want +%v (%s)", time.Until(got), time.Until(want), tt.reason)
			}
		})
	}
}

func mustGet(t *testing.T, u string) *http.Request {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, u, nil)
	if err != nil {
		t.Fatal(err)
	}
	return req
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
