package audit

import (
	"context"
	"time"

	"github.com/robotstxt-go/robotstxt"
)

// An index holds, per origin, the capture of its robots.txt that answers
// for it when captures are deduplicated (Config.AllCaptures unset): the
// latest by WARC-Date (or the JSON line's "date"), and how many captures
// of the origin the inputs hold. Captures without a date, or with the same
// date, are ordered as read: the later input, then the later record, wins.
// It holds one entry an origin: this is what grows with the input.
type index map[string]*pick

type pick struct {
	input    int   // the input's number in Config.Inputs
	offset   int64 // the record's offset
	inMember int64 // and in its gzip member (Capture.InMember)
	date     time.Time
	captures int32
}

// parseDate reads a date as the audit reads every capture's date: RFC 3339
// (WARC 1.1 §5.4 writes WARC-Date as a UTC date and time of W3C-ISO8601,
// "2026-01-02T03:04:05Z", which RFC 3339 reads), with or without
// fractions of a second.
func parseDate(s string) (time.Time, error) { return time.Parse(time.RFC3339Nano, s) }

// captureDate reads a capture's date (parseDate); a missing or unreadable
// date is the zero time, older than any. The JSON Lines reader refuses a
// line whose date does not read; a WARC-Date is the archive's own.
func captureDate(s string) time.Time {
	t, err := parseDate(s)
	if err != nil {
		return time.Time{}
	}
	return t
}

// add counts a capture of input i and keeps it when it is the latest.
func (x index) add(i int, c *Capture) {
	origin, err := robotstxt.Origin(c.URL)
	if err != nil {
		return
	}
	d := captureDate(c.Date)
	p := x[origin]
	if p == nil {
		x[origin] = &pick{input: i, offset: c.Offset, inMember: c.InMember, date: d, captures: 1}
		return
	}
	p.captures++
	if !d.Before(p.date) { // a later date, or the same date read later
		p.input, p.offset, p.inMember, p.date = i, c.Offset, c.InMember, d
	}
}

// chosen reports whether the capture c of input i answers for its origin,
// and how many captures the origin has.
func (x index) chosen(i int, c *Capture) (bool, int32) {
	origin, err := robotstxt.Origin(c.URL)
	if err != nil {
		return false, 0
	}
	p := x[origin]
	if p == nil || p.input != i || p.offset != c.Offset || p.inMember != c.InMember {
		return false, 0
	}
	return true, p.captures
}

// buildIndex reads every input once for the robots.txt captures it holds
// (the records' headers; no rules are read) and returns the index.
func (st *runState) buildIndex(ctx context.Context) (index, error) {
	x := index{}
	for i, name := range st.cfg.Inputs {
		if err := ctx.Err(); err != nil {
			return x, err
		}
		err := scanInput(ctx, name, nil, reading{workers: st.cfg.Workers, split: st.cfg.split}, nil, func(c *Capture) {
			if isRobotsURL(c.URL) {
				x.add(i, c)
			}
		}, func(Problem) {}) // problems are reported by the pass that answers
		if err != nil {
			return x, err
		}
	}
	return x, nil
}

// keep reports whether a capture of input i is answered: every capture
// with Config.AllCaptures, else the one the index chose for its origin,
// which then learns its origin's number of captures.
func (st *runState) keep(i int, rs *resolved) bool {
	if st.index == nil {
		return true
	}
	ok, n := st.index.chosen(i, rs.c)
	rs.captures = n
	return ok
}
