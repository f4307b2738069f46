package robotstxt

import "sync/atomic"

// This file is the one statement of how a Robots builds what its queries
// need later rather than at Parse: "the first query does without it, the
// second builds it". A crawler often asks a file one question, which can
// be answered more cheaply than the build costs; from the second question
// on, the build pays. It serves the two things built so:
//
//	Robots.full          a deferred parse's compiled file (lazy.go): the
//	                     first query streams the lines instead
//	compiledFile.indexes a large group's index (index.go): the first query
//	                     scans the group's rules instead
//
// and, with the first ask building too, the table of a file's other
// indexes and each entry of it.

// later holds a value built when a query needs it, or nil before. A query
// that is to do without it the first time marks the slot with a sentinel
// of its type instead (asked below), which no caller ever reads through.
type later[T any] struct{ p atomic.Pointer[T] }

// load returns the value, or nil when none is built: the slot is empty or
// holds the sentinel asked.
func (s *later[T]) load(asked *T) *T {
	if x := s.p.Load(); x != asked {
		return x
	}
	return nil
}

// get returns the value, building it if need be, or nil when the caller is
// to do without it: cheap is true, and no query has asked before (the slot
// then remembers this one, as asked). Otherwise the value is built by build
// and stored; queries that race build each and keep the one stored first.
// build returns nil when it cannot build because a value has been stored
// meanwhile (a deferred parse drops its bytes once compiled): get then
// loads that one. build is called at most once a call.
func (s *later[T]) get(asked *T, cheap bool, build func() *T) *T {
	var y *T // built by this call
	for {
		x := s.p.Load()
		switch {
		case x != nil && x != asked:
			return x
		case x == nil && cheap:
			if s.p.CompareAndSwap(nil, asked) {
				return nil
			}
			continue
		case y == nil:
			if y = build(); y == nil {
				continue
			}
		}
		if s.p.CompareAndSwap(x, y) {
			return y
		}
		// Another query stored first, or marked the slot: load again.
	}
}
