package fetch

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// TestZeroOptionsDefaults holds the defaults that the doc comments of the
// Options and PacerOptions fields state, and those Fetch's doc states for a
// nil client: each row is a field left zero and the value the doc gives it,
// written out as the doc writes it, so that a change of a default shows here
// and in the doc together.
func TestZeroOptionsDefaults(t *testing.T) {
	c := NewCache(&Options{Store: newMemStore()})
	cfg := c.core.shared.lease.Config()
	p := NewPacer(&PacerOptions{})
	f := oneFetch(nil, "Foobot")
	for _, tt := range []struct {
		field     string
		got, want any
	}{
		{"Options.MaxEntries", c.core.maxEntries, 10000},
		{"Options.TTL", c.core.f.ttl, 24 * time.Hour},
		{"Options.MaxTTL", c.core.f.maxTTL, 7 * 24 * time.Hour},
		{"Options.RetryTTL", c.core.f.retryTTL, 5 * time.Minute},
		{"Options.MaxRetryWait", c.core.retryWait, 30 * time.Second},
		{"Options.GiveUpAfter (RFC 9309 §2.3.1.4)", c.core.giveUpAfter, 30 * 24 * time.Hour},
		{"Options.Timeout", c.core.timeout, 30 * time.Second},
		{"Options.StoreTimeout", cfg.StoreTimeout, 250 * time.Millisecond},
		{"Options.LeaseTTL: 2 seconds plus twice StoreTimeout", cfg.LeaseTTL, 2*time.Second + 2*250*time.Millisecond},
		{"Options.StoreKeep: GiveUpAfter", cfg.Keep, 30 * 24 * time.Hour},
		{"Options.StoreRetry", cfg.Retry, 5 * time.Second},
		{"PacerOptions.Delay", p.delay, time.Second},
		{"PacerOptions.MinDelay", p.minD, time.Duration(0)},
		{"PacerOptions.MaxDelay", p.maxD, 30 * time.Second},
		{"PacerOptions.Backoff", p.backoff, 10 * time.Second},
		{"PacerOptions.MaxBackoff", p.maxBackoff, time.Hour},
		{"PacerOptions.MaxOrigins", p.maxIdle, 10000},
		{"Fetch with a nil client: Timeout", f.client.Timeout, 30 * time.Second},
		{"Fetch, as Options.TTL", f.ttl, 24 * time.Hour},
		{"Fetch, as Options.MaxTTL", f.maxTTL, 7 * 24 * time.Hour},
		{"Fetch, as Options.RetryTTL", f.retryTTL, 5 * time.Minute},
	} {
		if tt.got != tt.want {
			t.Errorf("%s left zero: %v, want %v as its doc says", tt.field, tt.got, tt.want)
		}
	}
}

// TestFetchFloors holds the floors the package doc and Result's doc state:
// a max-age shorter than one minute keeps the file one minute, and a
// Retry-After shorter than one second waits one second.
func TestFetchFloors(t *testing.T) {
	for _, tt := range []struct {
		name          string
		status        int
		header, value string
		ttl, retry    time.Duration
	}{
		{"max-age=0 keeps the file one minute", http.StatusOK, "Cache-Control", "max-age=0", time.Minute, 0},
		{"no-store keeps the file one minute", http.StatusOK, "Cache-Control", "no-store", time.Minute, 0},
		{"Retry-After: 0 waits one second", http.StatusServiceUnavailable, "Retry-After", "0", time.Second, time.Second},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set(tt.header, tt.value)
				w.WriteHeader(tt.status)
			}))
			defer srv.Close()
			res, err := Fetch(context.Background(), srv.Client(), "Foobot", srv.URL+"/")
			if err != nil {
				t.Fatal(err)
			}
			if res.TTL != tt.ttl || res.RetryAfter != tt.retry {
				t.Errorf("TTL %v, RetryAfter %v; want %v, %v", res.TTL, res.RetryAfter, tt.ttl, tt.retry)
			}
		})
	}
}
