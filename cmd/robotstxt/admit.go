package main

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"time"
)

// This file bounds what the tester holds in memory: request bodies are
// admitted within a byte budget before they are read, and files are
// analysed a few at a time, the smallest first. Memory then grows with
// neither the number of clients nor the size of what they send.

// Limits of what is held at once.
const (
	// bodyBudget bounds the bytes of request bodies held at once. A body
	// costs twice its declared size (bodyCost): it is read whole, then
	// decoded. The last bodyReserve of it goes only to bodies of at most
	// smallBody bytes: slow senders of large bodies cannot hold it all.
	bodyBudget  = 40 << 20
	bodyReserve = 4 << 20
	smallBody   = 64 << 10
	// admitWait is how long a request waits for room in the budget
	// before it is answered 503 with Retry-After: retryAfter.
	admitWait  = 2 * time.Second
	retryAfter = 1 // second
	// analysisBudget bounds what the files being analysed hold at
	// once, by analysisCost. A file costs at most the budget less
	// analysisReserve, which is left to small files: a 500 KiB file of
	// one-letter lines costs that much and is analysed alone, beside
	// small ones.
	analysisBudget   = 40 << 20
	analysisReserve  = 4 << 20
	smallAnalysis    = 1 << 20 // the cost of a file that may use analysisReserve
	analysisLineCost = 320     // bytes a line of a file holds while it is analysed, with a margin
	// memoryLimit is the soft memory limit serve sets for the garbage
	// collector (runtime/debug.SetMemoryLimit) unless GOMEMLIMIT sets
	// one: the budgets bound what is live; this keeps the garbage of
	// analyses from doubling it.
	memoryLimit = 160 << 20
	// maxConns bounds the connections open at once; more wait to be
	// accepted.
	maxConns = 1024
)

// bodyCost returns what reading and decoding the body of r costs out of
// bodyBudget: twice its declared length, or twice maxRequestBody when
// the length is not declared (a chunked body).
func bodyCost(r *http.Request) int64 {
	n := r.ContentLength
	if n < 0 || n > maxRequestBody {
		n = maxRequestBody
	}
	return 2 * n
}

// admit runs h for a request whose body fits in the budget now or within
// admitWait, and answers 503 with Retry-After otherwise, without reading
// the body. A body declared over maxRequestBody is refused (413) without
// being read.
func (s *server) admit(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength > maxRequestBody {
			writeError(w, http.StatusRequestEntityTooLarge, tooLarge(maxRequestBody))
			return
		}
		cost := bodyCost(r)
		ctx, cancel := context.WithTimeout(r.Context(), admitWait)
		defer cancel()
		if !s.bodies.acquire(ctx, cost, cost) {
			// The body is not read: net/http reads up to 256 KiB of it
			// before it answers, and closes the connection past that,
			// so that a client still sending a large body may see the
			// connection reset rather than this answer. Reading it all
			// would spend on refused requests what the tester refuses
			// them to save.
			w.Header().Set("Retry-After", strconv.Itoa(retryAfter))
			writeError(w, http.StatusServiceUnavailable, fmt.Sprintf(
				"busy: the requests under way hold %d MiB of bodies, all the tester takes at once; try again in %d s", bodyBudget>>20, retryAfter))
			return
		}
		defer s.bodies.release(cost)
		h(w, r)
	}
}

// tooLarge says why a body over limit bytes is refused.
func tooLarge(limit int64) string {
	return fmt.Sprintf("request body over %d bytes: crawlers read only the first 500 KiB of a robots.txt; lint a larger file with robotstxt lint", limit)
}

// work runs f, the analysis of body, within analysisBudget, so that
// large files take turns instead of all the memory; of those that wait,
// the one of least cost goes first, so that a small file is not kept
// waiting behind large ones. It answers 503 when the request ends first.
func (s *server) work(w http.ResponseWriter, r *http.Request, body []byte, f func()) {
	cost := analysisCost(body)
	if !s.analyses.acquire(r.Context(), cost, cost) {
		writeError(w, http.StatusServiceUnavailable, "too many requests at once; try again")
		return
	}
	defer s.analyses.release(cost)
	f()
}

// analysisCost is what lint.Diagnose holds while it analyses body, out of
// analysisBudget: the body and analysisLineCost a line
// (TestAnalysisCost holds it), at most the budget less analysisReserve.
func analysisCost(body []byte) int64 {
	lines := int64(bytes.Count(body, []byte{'\n'})) + 1
	return min(int64(len(body))+lines*analysisLineCost, analysisBudget-analysisReserve)
}

// capacity is a semaphore of n units whose waiters are served in the
// order of a key, the lowest first, then in the order they came. The
// last reserve units go only to requests of at most small units, so that
// a few large ones, slow or many, cannot keep small ones waiting.
type capacity struct {
	mu             sync.Mutex
	free           int64
	reserve, small int64
	waiting        []*waiter
	seq            int64
}

type waiter struct {
	cost, key, seq int64
	ready          chan struct{} // closed when the units are granted
}

func newCapacity(n, reserve, small int64) *capacity {
	return &capacity{free: n, reserve: reserve, small: small}
}

// fits reports whether cost units can be taken now.
func (c *capacity) fits(cost int64) bool {
	if cost > c.small {
		return cost <= c.free-c.reserve
	}
	return cost <= c.free
}

// acquire takes cost units, waiting until ctx ends; key orders the
// waiters. It reports whether the units were taken.
func (c *capacity) acquire(ctx context.Context, cost, key int64) bool {
	c.mu.Lock()
	if len(c.waiting) == 0 && c.fits(cost) {
		c.free -= cost
		c.mu.Unlock()
		return true
	}
	c.seq++
	me := &waiter{cost: cost, key: key, seq: c.seq, ready: make(chan struct{})}
	i, _ := slices.BinarySearchFunc(c.waiting, me, func(a, b *waiter) int {
		return cmp.Or(cmp.Compare(a.key, b.key), cmp.Compare(a.seq, b.seq))
	})
	c.waiting = slices.Insert(c.waiting, i, me)
	c.grant() // it may fit now, ahead of larger waiters that do not
	c.mu.Unlock()
	select {
	case <-me.ready:
		return true
	case <-ctx.Done():
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	select {
	case <-me.ready: // granted as ctx ended: give the units back
		c.free += cost
		c.grant()
	default:
		c.waiting = slices.DeleteFunc(c.waiting, func(w *waiter) bool { return w == me })
	}
	return false
}

// release gives back cost units.
func (c *capacity) release(cost int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.free += cost
	c.grant()
}

// grant gives units to the waiters they suffice for, in order.
func (c *capacity) grant() {
	c.waiting = slices.DeleteFunc(c.waiting, func(w *waiter) bool {
		if !c.fits(w.cost) {
			return false
		}
		c.free -= w.cost
		close(w.ready)
		return true
	})
}
