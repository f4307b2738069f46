package verify

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/netip"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// This file reads the operators' prefix files and answers whether an
// address is in one. The shape is the one Google, Bing, OpenAI and others
// publish, which draft-illyes-webbotauth-jafar codifies:
//
//	{"creationTime": "2026-04-01T00:00:00.000000",
//	 "prefixes": [{"ipv4Prefix": "192.0.2.0/24"}, {"ipv6Prefix": "2001:db8::/32"}]}

// Cache times of prefix files.
const (
	// FeedRefresh is how long a fetched prefix file is used before it is
	// asked for again, with If-None-Match and If-Modified-Since: at most
	// once an hour.
	FeedRefresh = time.Hour
	// FeedRetry is how long after a failed fetch the next is made.
	FeedRetry = 5 * time.Minute
	// FeedMaxStale is how long the last good copy of a file is still used
	// while fetching it fails or gives a file without prefixes: an
	// operator's file that is briefly empty or unreachable does not turn
	// its crawler's requests into forgeries. After that the file is
	// unavailable.
	FeedMaxStale = 24 * time.Hour
)

// errNoPrefix is the error for a file that parses and lists no prefix, as
// Google's old addresses do since 2026-03-31: such a file is unavailable,
// never a list that no address is in.
var errNoPrefix = errors.New("the file lists no prefix")

// jafar is the JSON shape of a prefix file.
type jafar struct {
	CreationTime string `json:"creationTime"`
	Prefixes     []struct {
		IPv4Prefix string `json:"ipv4Prefix,omitempty"`
		IPv6Prefix string `json:"ipv6Prefix,omitempty"`
	} `json:"prefixes"`
}

// ParseRanges reads a prefix file and returns its prefixes, masked.
// Entries that are not a prefix of their field's family are skipped. The
// error is not nil when the data is not such a file or lists no valid
// prefix: then the file is unavailable, and no address is judged by it.
func ParseRanges(data []byte) ([]netip.Prefix, error) {
	var j jafar
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&j); err != nil {
		return nil, fmt.Errorf("not a prefix file: %w", err)
	}
	var out []netip.Prefix
	for _, e := range j.Prefixes {
		for _, s := range [2]string{e.IPv4Prefix, e.IPv6Prefix} {
			if s == "" {
				continue
			}
			p, err := netip.ParsePrefix(s)
			if err != nil || p.Addr().Is4() != (s == e.IPv4Prefix) || p.Addr().Is4In6() || p.Addr().Zone() != "" {
				continue
			}
			out = append(out, p.Masked())
		}
	}
	if len(out) == 0 {
		return nil, errNoPrefix
	}
	return out, nil
}

// prefixSet answers whether an address is in a list of prefixes by binary
// search: prefixes are sorted by first address, and one inside another is
// dropped (CIDR prefixes are nested or disjoint), so at most one can hold
// an address: the last that starts at or before it.
type prefixSet struct {
	v4    []netip.Prefix
	v4lo  []uint32
	v6    []netip.Prefix
	v6lo  [][2]uint64
	count int
}

func newPrefixSet(ps []netip.Prefix) *prefixSet {
	ps = slices.Clone(ps)
	slices.SortFunc(ps, func(a, b netip.Prefix) int {
		if c := a.Addr().Compare(b.Addr()); c != 0 {
			return c
		}
		return a.Bits() - b.Bits() // the wider first
	})
	s := &prefixSet{count: len(ps)}
	for _, p := range ps {
		if p.Addr().Is4() {
			if n := len(s.v4); n > 0 && s.v4[n-1].Contains(p.Addr()) {
				continue
			}
			b := p.Addr().As4()
			s.v4 = append(s.v4, p)
			s.v4lo = append(s.v4lo, uint32(b[0])<<24|uint32(b[1])<<16|uint32(b[2])<<8|uint32(b[3]))
		} else {
			if n := len(s.v6); n > 0 && s.v6[n-1].Contains(p.Addr()) {
				continue
			}
			s.v6 = append(s.v6, p)
			s.v6lo = append(s.v6lo, split16(p.Addr().As16()))
		}
	}
	return s
}

func split16(b [16]byte) [2]uint64 {
	var hi, lo uint64
	for i := 0; i < 8; i++ {
		hi = hi<<8 | uint64(b[i])
		lo = lo<<8 | uint64(b[8+i])
	}
	return [2]uint64{hi, lo}
}

// lookup returns the prefix that holds ip. It does not allocate.
func (s *prefixSet) lookup(ip netip.Addr) (netip.Prefix, bool) {
	if ip.Is4() {
		b := ip.As4()
		x := uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3])
		lo, hi := 0, len(s.v4lo)
		for lo < hi {
			m := int(uint(lo+hi) >> 1)
			if s.v4lo[m] <= x {
				lo = m + 1
			} else {
				hi = m
			}
		}
		if lo > 0 && s.v4[lo-1].Contains(ip) {
			return s.v4[lo-1], true
		}
		return netip.Prefix{}, false
	}
	if !ip.Is6() {
		return netip.Prefix{}, false
	}
	x := split16(ip.As16())
	lo, hi := 0, len(s.v6lo)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if y := s.v6lo[m]; y[0] < x[0] || y[0] == x[0] && y[1] <= x[1] {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo > 0 && s.v6[lo-1].Contains(ip) {
		return s.v6[lo-1], true
	}
	return netip.Prefix{}, false
}

// feed is one prefix file and what is known of it.
type feed struct {
	url     string
	mu      sync.Mutex    // guards running
	running chan struct{} // closed when the fetch under way ends; nil when none
	state   atomic.Pointer[feedState]
}

// feedState is a feed at one time; it is replaced whole, never changed.
type feedState struct {
	set     *prefixSet // the last good copy, or nil
	good    time.Time  // when set was fetched (or loaded)
	checked time.Time  // when the file was last asked for
	failed  bool       // the last fetch failed
	loaded  bool       // set was loaded from a file: used offline at any age
	etag    string
	lastMod string
}

// usable returns the set that may judge an address at now, or nil.
func (st *feedState) usable(now time.Time) *prefixSet {
	if st == nil || st.set == nil {
		return nil
	}
	if st.loaded || now.Sub(st.good) <= FeedMaxStale {
		return st.set
	}
	return nil
}

// due reports whether the file should be asked for again at now.
func (st *feedState) due(now time.Time) bool {
	if st == nil {
		return true
	}
	wait := FeedRefresh
	if st.failed {
		wait = FeedRetry
	}
	return now.Sub(st.checked) >= wait
}

// get returns the set to judge an address by at now, or nil when the file
// is unavailable. A file never fetched is fetched before returning, or
// until ctx ends; one whose copy is merely due is fetched in the background
// while the copy answers. The fetch itself does not end with ctx: a
// request that gives up does not leave a failure behind for the next.
func (f *feed) get(ctx context.Context, v *Verifier, now time.Time) *prefixSet {
	st := f.state.Load()
	if v.cfg.Client == nil || !st.due(now) {
		return st.usable(now)
	}
	done := f.start(v, now)
	if set := st.usable(now); set != nil {
		return set
	}
	select {
	case <-done:
	case <-ctx.Done():
	}
	return f.state.Load().usable(now)
}

// start starts a fetch of the file unless one is under way, and returns a
// channel closed when it ends.
func (f *feed) start(v *Verifier, now time.Time) <-chan struct{} {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.running != nil {
		return f.running
	}
	done := make(chan struct{})
	if !f.state.Load().due(now) {
		close(done)
		return done
	}
	f.running = done
	go func() {
		f.fetch(context.Background(), v, now)
		f.mu.Lock()
		f.running = nil
		f.mu.Unlock()
		close(done)
	}()
	return done
}

// fetch asks for the file once and stores what it learns. Only the
// goroutine of start calls it.
func (f *feed) fetch(ctx context.Context, v *Verifier, now time.Time) {
	old := f.state.Load()
	next := &feedState{checked: now}
	if old != nil {
		next.set, next.good, next.etag, next.lastMod, next.loaded = old.set, old.good, old.etag, old.lastMod, old.loaded
	}
	ps, etag, lastMod, notModified, err := fetchRanges(ctx, v.cfg.Client, f.url, next.etag, next.lastMod, v.cfg.FetchTimeout, v.cfg.MaxFeedBytes)
	switch {
	case err != nil:
		next.failed = true
	case notModified:
		next.good = now
	default:
		next.set, next.good, next.etag, next.lastMod, next.loaded = newPrefixSet(ps), now, etag, lastMod, false
	}
	f.state.Store(next)
}

// fetchRanges makes one conditional GET of a prefix file, bounded in time
// and size.
func fetchRanges(ctx context.Context, c *http.Client, url, etag, lastMod string, timeout time.Duration, max int64) (ps []netip.Prefix, newETag, newLastMod string, notModified bool, err error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, "", "", false, err
	}
	req.Header.Set("Accept", "application/json")
	if etag != "" {
		req.Header.Set("If-None-Match", etag)
	}
	if lastMod != "" {
		req.Header.Set("If-Modified-Since", lastMod)
	}
	resp, err := c.Do(req)
	if err != nil {
		return nil, "", "", false, err
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusNotModified && (etag != "" || lastMod != "") {
		return nil, "", "", true, nil
	}
	if resp.StatusCode != http.StatusOK {
		return nil, "", "", false, fmt.Errorf("%s: HTTP %d", url, resp.StatusCode)
	}
	data, err := readLimited(resp.Body, max)
	if err != nil {
		return nil, "", "", false, fmt.Errorf("%s: %w", url, err)
	}
	ps, err = ParseRanges(data)
	if err != nil {
		return nil, "", "", false, fmt.Errorf("%s: %w", url, err)
	}
	return ps, resp.Header.Get("ETag"), resp.Header.Get("Last-Modified"), false, nil
}

// errTooLarge is the error for a body over its limit.
var errTooLarge = errors.New("the body is over its size limit")

// readLimited reads r to its end, failing once it passes max bytes.
func readLimited(r io.Reader, max int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, errTooLarge
	}
	return data, nil
}

// LoadRanges gives the verifier a copy of the prefix file at url, read
// elsewhere (from disk, for offline use), as if fetched at fetched. A
// verifier with no Client uses it at any age; one with a Client uses it as
// a fetched copy, asks for the file again once it is FeedRefresh old, and
// stops using it once it is FeedMaxStale old. The url must be one of the
// table's prefix files.
func (v *Verifier) LoadRanges(url string, data []byte, fetched time.Time) error {
	f := v.feeds[url]
	if f == nil {
		return fmt.Errorf("verify: %q is no prefix file of the crawler table", url)
	}
	ps, err := ParseRanges(data)
	if err != nil {
		return fmt.Errorf("verify: %s: %w", url, err)
	}
	f.state.Store(&feedState{set: newPrefixSet(ps), good: fetched, checked: fetched, loaded: v.cfg.Client == nil})
	return nil
}

// snapshot is the shape of a file of several prefix files: their addresses
// and contents, and when they were read.
type snapshot struct {
	Fetched time.Time                  `json:"fetched"`
	Files   map[string]json.RawMessage `json:"files"`
}

// LoadSnapshot reads a snapshot of several prefix files, as
// {"fetched": "2026-12-01T00:00:00Z", "files": {URL: FILE, ...}}, and
// gives each to LoadRanges; other keys are ignored. Files of URLs the table
// does not list are skipped. It stops at the first file that does not
// parse.
func (v *Verifier) LoadSnapshot(r io.Reader) error {
	data, err := readLimited(r, 64<<20)
	if err != nil {
		return fmt.Errorf("verify: snapshot: %w", err)
	}
	var s snapshot
	if err := json.Unmarshal(data, &s); err != nil {
		return fmt.Errorf("verify: snapshot: %w", err)
	}
	for u, file := range s.Files {
		if v.feeds[u] == nil {
			continue
		}
		if err := v.LoadRanges(u, file, s.Fetched); err != nil {
			return err
		}
	}
	return nil
}
