package audit

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"sync"
	"sync/atomic"
)

// A .gz WARC is read by several workers at once as segments. The reader
// cuts the input where a gzip member seems to start (its first three
// bytes), at least segmentSize bytes after the previous cut; each worker
// decompresses and reads the members that start inside its segment, the
// last one through to its end wherever that is. The results are taken in
// order, and a segment's result is kept only when the segment starts
// where the member before it ended: a cut at bytes that only look like a
// member's start is caught there, and the members from the true start are
// read again in order. What is emitted and reported is thus what one
// reader reading the members one after the other emits and reports.
const (
	segmentSize = 128 << 10
	// segmentBodies is how many body bytes a worker keeps for one segment
	// before it stops at a member's start and leaves the rest to be read
	// in order: with segmentsAhead segments a worker in flight, it bounds
	// the memory of reading whatever the input.
	segmentBodies = 1 << 20
	segmentsAhead = 2
	// segmentBuffer is the size of a worker's read buffer.
	segmentBuffer = 32 << 10
)

// A segment is the members of an input that start in [start, limit).
type segment struct {
	start, limit int64
	out          chan segmentResult // buffered: the worker never waits
}

// A segmentResult is what reading a segment found, in input order.
type segmentResult struct {
	start     int64
	events    []segmentEvent
	stop      int64 // the offset of the member it stopped before, or the input's end
	eof       bool  // the input ended
	responses int
}

// A segmentEvent is a capture to emit or, when c is nil, a problem.
type segmentEvent struct {
	c *Capture
	p Problem
}

// readSegments reads a .gz WARC with rd.workers goroutines, cut into
// segments of about rd.split bytes. br reads the input from its start;
// in.ra reads it at offsets.
func readSegments(ctx context.Context, in *inputFile, br *bufio.Reader, rd reading, want func(string) bool, emit func(*Capture), report func(Problem)) error {
	ctx, cancel := context.WithCancel(ctx)
	inflight := rd.workers * segmentsAhead
	order := make(chan *segment, inflight)
	jobs := make(chan *segment, inflight+1) // each also in order, or awaited
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(jobs)
		defer close(order)
		cut(ctx, br, rd.split, func(start, limit int64) bool {
			s := &segment{start: start, limit: limit, out: make(chan segmentResult, 1)}
			select {
			case order <- s:
			case <-ctx.Done():
				return false
			}
			jobs <- s
			return true
		})
	}()
	for range rd.workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := newSegmentReader(in, want)
			for s := range jobs {
				s.out <- r.read(ctx, in.ra, s.start, s.limit)
			}
		}()
	}
	defer func() {
		cancel()
		for range order { // until the cutter has returned
		}
		wg.Wait()
	}()

	w := newWARCRecords(in, want, emit, report)
	take := func(r segmentResult) {
		for _, e := range r.events {
			if e.c != nil {
				w.emit(e.c)
			} else {
				w.reportOnce(e.p)
			}
		}
		w.responses += r.responses
	}
	var again *segmentReader // reads in order what a segment's worker did not
	expect, eof := int64(0), false
	for s := range order {
		r := <-s.out
		if ctx.Err() != nil || eof {
			break
		}
		if r.start == expect {
			take(r)
			expect, eof = r.stop, r.eof
		}
		for !eof && expect < s.limit && ctx.Err() == nil {
			if again == nil {
				again = newSegmentReader(in, want)
			}
			r := again.read(ctx, in.ra, expect, s.limit)
			take(r)
			expect, eof = r.stop, r.eof
		}
	}
	return w.finish(ctx)
}

// cut reads br to its end and calls seg for each segment: the first starts
// at 0, each further one where a member seems to start at least size bytes
// after the start of the one before; the last has no limit. It stops when
// seg returns false.
func cut(ctx context.Context, br *bufio.Reader, size int64, seg func(start, limit int64) bool) {
	var start, off int64 // off: br's offset
	for ctx.Err() == nil {
		if skip := start + size - off; skip > 0 {
			n, _ := br.Discard(int(skip))
			off += int64(n)
			if int64(n) < skip {
				break
			}
		}
		b, _ := br.Peek(br.Size())
		if len(b) < 3 {
			break
		}
		i := bytes.Index(b, gzipMagic)
		if i < 0 {
			n, _ := br.Discard(len(b) - 2)
			off += int64(n)
			continue
		}
		br.Discard(i)
		off += int64(i)
		if !seg(start, off) {
			return
		}
		start = off
	}
	seg(start, noLimit)
}

// A segmentReader reads segments for one worker, reusing its buffers.
type segmentReader struct {
	w   *warcRecords
	br  *bufio.Reader
	n   atomic.Int64
	res *segmentResult
}

func newSegmentReader(in *inputFile, want func(string) bool) *segmentReader {
	s := &segmentReader{br: bufio.NewReaderSize(nil, segmentBuffer)}
	s.w = newWARCRecords(in, want, s.keep, s.note)
	s.w.budget = segmentBodies
	return s
}

// keep copies a capture out of the reader's buffers.
func (s *segmentReader) keep(c *Capture) {
	k := *c
	k.Body = bytes.Clone(c.Body)
	k.own = true
	s.res.events = append(s.res.events, segmentEvent{c: &k})
}

func (s *segmentReader) note(p Problem) {
	s.res.events = append(s.res.events, segmentEvent{p: p})
}

// read reads the members of ra that start in [start, limit).
func (s *segmentReader) read(ctx context.Context, ra io.ReaderAt, start, limit int64) segmentResult {
	res := segmentResult{start: start}
	s.res = &res
	w := s.w
	clear(w.reported)
	w.responses, w.kept = 0, 0
	w.seek = func(off int64) {
		s.n.Store(off)
		s.br.Reset(countReads(io.NewSectionReader(ra, off, noLimit-off), &s.n))
	}
	w.seek(start)
	res.stop, res.eof = w.members(ctx, s.br, func() int64 { return s.n.Load() - int64(s.br.Buffered()) }, limit)
	res.responses = w.responses
	s.res = nil
	return res
}
