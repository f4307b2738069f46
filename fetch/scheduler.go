package fetch

import (
	"container/list"
	"context"
	"iter"
	"sync"
	"time"
)

// This file hands a crawler's workers the URLs whose turn has come. A pool
// of workers that each take the next URL of one queue and wait for its
// origin's turn ends up with every worker waiting at the slowest origin,
// while the others have turns free: the crawl takes the origins' times
// added instead of the longest. A Scheduler keeps one queue per origin and
// holds at most one turn per origin, reserved with the Pacer for the
// URL at the head of its queue; a worker gets whichever turn comes first.
// The Pacer does all the pacing; the Scheduler only orders the URLs.

// A Scheduler hands a pool of workers the URLs queued with [Scheduler.Add],
// each on its turn at its origin, in the order the turns come: a worker
// never waits for one origin while another has a turn free. Each origin's
// URLs are sent in the order they were added, one per turn of the
// [Pacer], which spaces them by the origin's Crawl-delay and backs off on
// 429 and 503 answers as it does for any caller; the Scheduler holds one
// turn per origin at a time, so its URLs never fill the pacer's queues.
//
// A Scheduler is safe for concurrent use; create it with [Pacer.NewScheduler].
// It keeps every URL added until it is handed out: the crawler bounds what
// it adds. A URL added twice is handed out twice.
type Scheduler struct {
	pacer *Pacer

	mu      sync.Mutex
	origins map[string]*line // the origins with URLs queued
	fresh   list.List        // of *line: heads with no turn reserved yet, first come first
	ready   list.List        // of *line: heads whose turn has come, in the order they came
	queued  int              // URLs added and not handed out
	running int              // loop bodies of Turns running
	changed chan struct{}    // closed and replaced when there is work or the crawl may end
}

// line is the queue of one origin.
type line struct {
	origin string
	urls   []string     // queued, first come first: urls[0] is the head
	turn   *Reservation // the head's turn, once reserved
	seq    uint64       // counts the heads handed out, so that a late call of came is told apart
	came   bool         // the pacer's timer has given the head's turn
}

// A scheduledTurn is a URL handed out by [Scheduler.Turns] and the turn at
// its origin it is to be sent on.
type scheduledTurn struct {
	URL         string       // as it was added
	Reservation *Reservation // nil when the URL is handed out with an error
}

// NewScheduler returns a new Scheduler, with no URL queued, that takes its
// turns from p. The requests should go through a [Transport] paced by the
// same p ([Transport.WithPacer]), so that they are sent on those turns and
// their 429 and 503 answers push the origins' turns back. Each call
// returns a Scheduler with queues of its own; schedulers over one Pacer
// share its turns, as any callers of the Pacer do.
func (p *Pacer) NewScheduler() *Scheduler {
	return &Scheduler{pacer: p, origins: make(map[string]*line), changed: make(chan struct{})}
}

// Add queues rawURL at the end of its origin's queue. It does not wait,
// and fetches nothing: the robots.txt is read when the URL's turn is
// reserved. It fails only for a URL that is not an absolute http or https
// URL, with a *robotstxt.URLError. A URL may be added at any time, also
// from inside the loops of [Scheduler.Turns].
func (s *Scheduler) Add(rawURL string) error {
	origin, err := httpOrigin(rawURL)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.queued++
	if ln, ok := s.origins[origin]; ok {
		ln.urls = append(ln.urls, rawURL)
		return nil
	}
	ln := &line{origin: origin, urls: []string{rawURL}}
	s.origins[origin] = ln
	s.fresh.PushBack(ln)
	s.wake()
	return nil
}

// Turns returns an iterator over the URLs queued, each yielded when its
// turn at its origin has come, with that turn: the value yielded has the
// fields URL, as it was added, and Reservation, the turn (nil with an
// error). Send the URL at once with the turn in its context
// ([Reservation.Context]): the origin's next turn comes a spacing after it is
// handed out. Each worker of a pool ranges over its own call, and the
// workers share the URLs. The iterator waits while no turn has come. It
// ends when no URL is queued and no loop body of any worker is running,
// since a running body may still add the links it finds: add the first
// URLs before the workers start.
//
// A URL that cannot be sent is yielded with an error and no turn, and
// costs none: a [*DisallowedError] when robots.txt disallows it, and the
// other errors of [Pacer.Reserve] but ctx's. When ctx ends, the iterator
// yields ctx's error, with no URL, and ends; the URLs not handed out stay
// queued.
func (s *Scheduler) Turns(ctx context.Context) iter.Seq2[scheduledTurn, error] {
	return func(yield func(scheduledTurn, error) bool) {
		for {
			t, ok, err := s.next(ctx)
			if !ok {
				return
			}
			if t.URL == "" {
				yield(t, err)
				return
			}
			if !s.body(yield, t, err) {
				return
			}
		}
	}
}

// next returns the next URL to hand out, counted as a running loop body;
// a scheduledTurn with no URL and ctx's error when ctx ends first; or false when
// the crawl is over.
func (s *Scheduler) next(ctx context.Context) (scheduledTurn, bool, error) {
	for {
		s.mu.Lock()
		if e := s.ready.Front(); e != nil {
			ln := s.ready.Remove(e).(*line)
			u, r := s.pop(ln)
			s.mu.Unlock()
			return s.handOut(u, r), true, nil
		}
		if e := s.fresh.Front(); e != nil {
			ln := s.fresh.Remove(e).(*line)
			u, seq := ln.urls[0], ln.seq
			s.mu.Unlock()
			if t, ok, err := s.reserve(ctx, ln, u, seq); ok {
				return t, true, err
			}
			continue
		}
		if s.queued == 0 && s.running == 0 {
			s.mu.Unlock()
			return scheduledTurn{}, false, nil
		}
		changed := s.changed
		s.mu.Unlock()
		select {
		case <-changed:
		case <-ctx.Done():
			return scheduledTurn{}, true, ctx.Err()
		}
	}
}

// reserve reserves the turn of u, the head of ln, which no other worker
// sees meanwhile: seq is ln.seq. It returns what to hand out when there is
// something: u with its turn when the turn comes at once, u with its error
// when it cannot be sent, or ctx's error.
func (s *Scheduler) reserve(ctx context.Context, ln *line, u string, seq uint64) (scheduledTurn, bool, error) {
	r, err := s.pacer.reserve(ctx, u, func() { s.came(ln, seq) })
	s.mu.Lock()
	switch {
	case err != nil && ctx.Err() != nil:
		// Not u's fault: it stays at the head, for the next worker.
		s.fresh.PushFront(ln)
		s.wake()
		s.mu.Unlock()
		return scheduledTurn{}, true, ctx.Err()
	case err != nil:
		s.pop(ln)
		s.mu.Unlock()
		return scheduledTurn{URL: u}, true, err
	}
	ln.turn = r
	if ln.came {
		// The timer gave the turn before it was seen here.
		s.ready.PushBack(ln)
		s.wake()
		s.mu.Unlock()
		return scheduledTurn{}, false, nil
	}
	select {
	case <-r.Ready():
		// It came at once, or the timer gave it just now and came has
		// yet to run: came will find ln.seq moved on.
		s.pop(ln)
		s.mu.Unlock()
		return s.handOut(u, r), true, nil
	default:
	}
	s.mu.Unlock()
	return scheduledTurn{}, false, nil
}

// came is called by the pacer's timer when the turn of ln's head seq comes.
func (s *Scheduler) came(ln *line, seq uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ln.seq != seq {
		return // handed out already, when reserve saw it ready
	}
	ln.came = true
	if ln.turn != nil { // else reserve has yet to see it
		s.ready.PushBack(ln)
		s.wake()
	}
}

// handOut returns u with its turn r, telling the pacer that it is sent now.
func (s *Scheduler) handOut(u string, r *Reservation) scheduledTurn {
	s.pacer.handOut(r, time.Now())
	return scheduledTurn{URL: u, Reservation: r}
}

// pop hands out the head of ln, counting a loop body as running, and
// queues ln's next URL for a turn, or forgets ln when it has none. It
// returns the head and its turn; s.mu is held.
func (s *Scheduler) pop(ln *line) (string, *Reservation) {
	u, r := ln.urls[0], ln.turn
	ln.urls[0] = ""
	ln.urls = ln.urls[1:]
	ln.turn, ln.came = nil, false
	ln.seq++
	s.queued--
	s.running++
	if len(ln.urls) == 0 {
		delete(s.origins, ln.origin)
	} else {
		s.fresh.PushBack(ln)
		s.wake()
	}
	return u, r
}

// body runs a loop body of Turns with t and err, and counts it as ended
// when it returns, even by a panic, so that the other loops can end.
func (s *Scheduler) body(yield func(scheduledTurn, error) bool, t scheduledTurn, err error) bool {
	defer s.done()
	return yield(t, err)
}

// done ends a loop body.
func (s *Scheduler) done() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.running--
	if s.queued == 0 && s.running == 0 {
		s.wake()
	}
}

// wake tells the waiting workers that something changed; s.mu is held.
func (s *Scheduler) wake() {
	close(s.changed)
	s.changed = make(chan struct{})
}
