package verify

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"strings"
	"sync"
	"time"
)

// This file checks forward-confirmed reverse DNS, as Google, Bing, Apple
// and others document it: the address's PTR names, a name that ends in a
// documented domain, and that name's A and AAAA records holding the
// address.

// Limits and cache times of reverse DNS. net.Resolver does not give the
// records' TTLs, so answers are kept for fixed times.
const (
	// MaxPTRNames is how many PTR names of one address that end in a
	// documented domain are looked up forward; the rest are ignored. An
	// address with more names proves nothing more.
	MaxPTRNames = 8
	// DNSAnswerTTL is how long an answer (a match, or none) is kept for an
	// address and crawler.
	DNSAnswerTTL = time.Hour
	// DNSFailureTTL is how long a failed lookup (a timeout, SERVFAIL) is
	// kept before the address is looked up again.
	DNSFailureTTL = time.Minute
	// MaxDNSCache is how many answers are kept; when full, expired ones
	// are dropped, and if none has expired, all are.
	MaxDNSCache = 1 << 16
)

type dnsKey struct {
	ip      netip.Addr
	profile *profile
}

type dnsEntry struct {
	out   outcome
	name  string // the confirmed name
	until time.Time
}

type dnsCache struct {
	mu      sync.Mutex
	m       map[dnsKey]dnsEntry
	pending map[dnsKey]chan struct{} // lookups under way, closed when done
}

// get returns the cached answer for k, or, when there is none, whether the
// caller is to look it up (leader) or wait for the lookup under way on
// wait.
func (c *dnsCache) get(k dnsKey, now time.Time) (e dnsEntry, ok bool, wait chan struct{}) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.m[k]; ok && now.Before(e.until) {
		return e, true, nil
	}
	if ch := c.pending[k]; ch != nil {
		return dnsEntry{}, false, ch
	}
	if c.pending == nil {
		c.pending = map[dnsKey]chan struct{}{}
	}
	c.pending[k] = make(chan struct{})
	return dnsEntry{}, false, nil
}

// done ends the caller's lookup of k, storing e unless keep is false.
func (c *dnsCache) done(k dnsKey, e dnsEntry, keep bool, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if keep {
		c.put(k, e, now)
	}
	close(c.pending[k])
	delete(c.pending, k)
}

// put stores e; the caller holds c.mu.
func (c *dnsCache) put(k dnsKey, e dnsEntry, now time.Time) {
	if c.m == nil {
		c.m = map[dnsKey]dnsEntry{}
	}
	if len(c.m) >= MaxDNSCache {
		for k, e := range c.m {
			if !now.Before(e.until) {
				delete(c.m, k)
			}
		}
		if len(c.m) >= MaxDNSCache {
			clear(c.m)
		}
	}
	c.m[k] = e
}

// hasSuffix reports whether name is domain or ends in "."+domain: a
// documented domain matches at a label boundary, so neither
// evilgooglebot.com nor googlebot.com.evil.example is under googlebot.com.
func hasSuffix(name, domain string) bool {
	return name == domain || len(name) > len(domain) && name[len(name)-len(domain)-1] == '.' && strings.HasSuffix(name, domain)
}

// checkDNS checks ip's host names against p's domains, with the cache.
func (v *Verifier) checkDNS(ctx context.Context, ip netip.Addr, p *profile, now time.Time) (outcome, string) {
	if v.cfg.Resolver == nil {
		return unavailable, "reverse DNS not checked: no resolver"
	}
	k := dnsKey{ip, p}
	for {
		e, ok, wait := v.dns.get(k, now)
		if ok {
			return e.out, dnsEvidence(e)
		}
		if wait == nil {
			break // this request looks it up
		}
		select {
		case <-wait: // answered, or given up by its request: ask again
		case <-ctx.Done():
			return unavailable, dnsEvidence(dnsEntry{out: unavailable})
		}
	}
	e := v.lookupDNS(ctx, ip, p)
	ttl := DNSAnswerTTL
	if e.out == unavailable {
		ttl = DNSFailureTTL
	}
	e.until = now.Add(ttl)
	// A failure while the request's context has ended is the request
	// giving up, not the DNS: nothing to remember.
	v.dns.done(k, e, e.out != unavailable || ctx.Err() == nil, now)
	return e.out, dnsEvidence(e)
}

func dnsEvidence(e dnsEntry) string {
	switch e.out {
	case matched:
		return e.name
	case unavailable:
		return "reverse DNS unavailable"
	}
	return ""
}

// lookupDNS makes the lookups, bounded by DNSTimeout in all.
func (v *Verifier) lookupDNS(ctx context.Context, ip netip.Addr, p *profile) dnsEntry {
	ctx, cancel := context.WithTimeout(ctx, v.cfg.DNSTimeout)
	defer cancel()
	names, err := v.cfg.Resolver.LookupAddr(ctx, ip.String())
	if err != nil && len(names) == 0 {
		if isNotFound(err) {
			return dnsEntry{out: noMatch}
		}
		return dnsEntry{out: unavailable}
	}
	out, checked := noMatch, 0
	for _, n := range names {
		n = strings.ToLower(strings.TrimSuffix(n, "."))
		under := false
		for _, d := range p.suffixes {
			if hasSuffix(n, d) {
				under = true
				break
			}
		}
		if !under {
			continue
		}
		if checked == MaxPTRNames {
			break
		}
		checked++
		addrs, err := v.cfg.Resolver.LookupNetIP(ctx, "ip", n)
		if err != nil {
			if !isNotFound(err) {
				out = unavailable
			}
			continue
		}
		for _, a := range addrs {
			if a.Unmap() == ip {
				return dnsEntry{out: matched, name: n}
			}
		}
	}
	return dnsEntry{out: out}
}

// isNotFound reports whether err says the name has no records (NXDOMAIN or
// an empty answer): a checked answer, unlike a timeout or SERVFAIL.
func isNotFound(err error) bool {
	var de *net.DNSError
	return errors.As(err, &de) && de.IsNotFound
}
