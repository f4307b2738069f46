package robotstxt

import "unsafe"

// This file defers the parse of a small file to its queries. Most
// robots.txt files are small, and a crawler visiting many hosts asks each
// one question or a few. Building a Robots (its groups sorted, its agents
// searchable, one string encoded) is then a large part of the work, and
// the first question does not need it (bench/README.md, "Small files: the
// first question answered from the lines" and the sections after "Against
// fast-robots", counts both ways): it is answered by one pass over the
// lines (the stream strategy, see engine.go), which tests
// the rules of the groups that can decide as the lines go by, and keeps
// nothing. The second query compiles the file, once, and every
// later one asks the compiled file.
//
// Parse keeps a copy of a file of at most lazyMax bytes; once compiled,
// the copy is dropped. Larger files are compiled by Parse: they are asked
// more questions, and their compiled form is a fraction of their size.
// The bound weighs the first question's saving against the copy: a copy
// is about the size of the file, and a compiled file, over the corpus,
// about a fifth. From 4 KiB to 16 KiB, parse and one question over the
// real corpus (bash bench/bands.sh q1) took a sixth fewer instructions in
// the files between, and the heap Parse keeps over the whole corpus (the
// heap rows of cd bench && go run ., bound 0.25× the source) grew from
// about 0.21× to 0.24×; bench/README.md, "Deferring files of up to 16
// KiB", has the numbers.

// lazyMax is the size of the largest file whose parse is deferred. It fits
// Robots.srcN.
const lazyMax = 16 << 10

var _ = uint16(lazyMax) // compiles only while it fits

// streamedOnce is the sentinel Robots.full holds once a query has read
// the file's lines without compiling it (see later).
var streamedOnce compiledFile

// deferParse returns the Robots of data, 1 to lazyMax bytes, whose parse
// is deferred: a copy of data, compiled when a query needs it.
func deferParse(data []byte) *Robots {
	src := string(data)
	r := &Robots{srcN: uint16(len(src))}
	r.src.Store(unsafe.StringData(src))
	return r
}

// compiled returns the compiled file that answers for r, or nil for a nil
// r: r's own, or, for a Robots whose parse is deferred, the one a query
// compiled, compiled now if no query has yet. Every query but the first
// of a deferred parse (see Robots.allowed) asks the file it returns.
func (r *Robots) compiled() *compiledFile {
	switch {
	case r == nil:
		return nil
	case r.srcN == 0:
		return &r.file
	}
	if c := r.full.load(&streamedOnce); c != nil {
		return c
	}
	return r.compile(false)
}

// allowedFirst is Allowed for the first query of a Robots whose parse is
// deferred (see Robots.compile): it reads the file's lines. A parsed file
// allows what no rule matches. It reports false for ok when the bytes are
// gone: a later query compiled them and stored its file meanwhile.
func (r *Robots) allowedFirst(agent, url string) (allowed, ok bool) {
	p := r.src.Load()
	if p == nil {
		return false, false
	}
	o := firstOrder(unsafe.String(p, int(r.srcN)), agent, url)
	return o == 0 || orderAllows(o), true
}

// compile returns r's compiled file, parsing r's bytes into it if no query
// has yet; or, when first is true and no query has asked before, nil: the
// caller is the first query, which reads the bytes without compiling them.
// Once the compiled file is stored the bytes are dropped.
func (r *Robots) compile(first bool) *compiledFile {
	c := r.full.get(&streamedOnce, first, func() *compiledFile {
		p := r.src.Load()
		if p == nil {
			return nil // dropped by a compile that stored its file first
		}
		return &parse(unsafe.Slice(p, int(r.srcN))).file
	})
	if c != nil {
		r.src.Store(nil)
	}
	return c
}
