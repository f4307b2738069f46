package robotstxt

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
)

// This file gives a parsed file a binary form, so that a cache can store it
// and load it again for a fraction of the cost of parsing (see
// [Robots.MarshalBinary]). The form is the stored form of layout.go behind a
// small header:
//
//	magic      4 bytes "RBTX"
//	version    1 byte, binaryVersion
//	kind       1 byte (Kind)
//	reserved   2 bytes, zero
//	wordsAt    4 bytes, little-endian
//	length     4 bytes, little-endian: the length of the text
//	checksum   4 bytes, little-endian: CRC-32C of the text
//	text       the text of the Robots
//
// Loading checks the header and the checksum, which catch a truncated or
// damaged value, and then every offset and count of the records, which
// catch a hostile one: a loaded Robots answers every query without reading
// out of range and without looping.

// binaryVersion is the version of the stored form. It changes whenever the
// layout does, or the order of its records: a value of another version does
// not load. Version 2 named the bit fields of the rule records (see
// packRule); version 3 adds the usage records of Content-Usage and
// Content-Signal lines; version 4 orders agent tokens of 63 bytes or more by
// length, as findAgent searches them (version 3 ordered them by their first
// bytes, and such an agent could miss its group); version 5 holds no
// index: a group that has one keeps its rules in file order, and its index
// is built when a query needs it (see index.go).
const binaryVersion = 5

const (
	binaryMagic  = "RBTX"
	binaryHeader = 20
)

// errInvalidBinary is what [Robots.UnmarshalBinary] returns, wrapped, for
// data that is not the binary form of a parsed file of this version:
// truncated, damaged, of another version, or not such a form at all. It is
// the only error it returns, so a caller tests for nil and parses the file
// again otherwise.
var errInvalidBinary = errors.New("robotstxt: invalid binary form")

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// MarshalBinary returns the binary form of r, for [Robots.UnmarshalBinary]
// to load. It costs about a copy of r's text, which is about the size of
// the file. A nil *Robots marshals as an allow-all one. The error is
// always nil.
//
// The form is versioned: a later version of this package may refuse to
// load it, and then the file must be parsed again.
func (r *Robots) MarshalBinary() ([]byte, error) {
	var kind Kind
	var wordsAt uint32
	var text string
	if f := r.compiled(); f == nil {
		kind = AllowAll
	} else {
		kind, wordsAt, text = f.kind, f.wordsAt, f.text
	}
	out := make([]byte, binaryHeader+len(text))
	copy(out, binaryMagic)
	out[4] = binaryVersion
	out[5] = byte(kind)
	binary.LittleEndian.PutUint32(out[8:], wordsAt)
	binary.LittleEndian.PutUint32(out[12:], uint32(len(text)))
	binary.LittleEndian.PutUint32(out[16:], crc32.Checksum([]byte(text), castagnoli))
	copy(out[binaryHeader:], text)
	return out, nil
}

// UnmarshalBinary loads into r a parsed file in the binary form that
// [Robots.MarshalBinary] returns. It checks everything it loads and returns
// an error for anything else (data truncated, damaged, of another version
// of the form, or no such form at all: the file must then be parsed
// again), leaving r unchanged. The loaded file does not refer to data; it
// keeps one string of the size of data's text. r must not be in use by
// other goroutines.
func (r *Robots) UnmarshalBinary(data []byte) error {
	if len(data) < binaryHeader || string(data[:4]) != binaryMagic {
		return fmt.Errorf("%w: no header", errInvalidBinary)
	}
	if data[4] != binaryVersion {
		return fmt.Errorf("%w: version %d, want %d", errInvalidBinary, data[4], binaryVersion)
	}
	kind := Kind(data[5])
	wordsAt := binary.LittleEndian.Uint32(data[8:])
	n := binary.LittleEndian.Uint32(data[12:])
	text := data[binaryHeader:]
	if data[6] != 0 || data[7] != 0 || uint64(n) != uint64(len(text)) {
		return fmt.Errorf("%w: truncated or padded", errInvalidBinary)
	}
	if crc32.Checksum(text, castagnoli) != binary.LittleEndian.Uint32(data[16:]) {
		return fmt.Errorf("%w: checksum mismatch", errInvalidBinary)
	}
	loaded := form{kind: kind, wordsAt: wordsAt, text: string(text)}
	if err := loaded.validate(); err != nil {
		return fmt.Errorf("%w: %v", errInvalidBinary, err)
	}
	// A handle to the loaded file alone: no deferred parse, no index of
	// the file before.
	*r = Robots{file: compiledFile{form: loaded}}
	r.file.lens = r.file.agentLens()
	return nil
}

// validate checks that r's records are what the queries assume of them:
// every offset in range, every count consistent, every chain finite.
func (r *form) validate() error {
	switch r.kind {
	case AllowAll, DisallowAll:
		if r.text != "" || r.wordsAt != 0 {
			return errors.New("an allow-all or disallow-all file with records")
		}
		return nil
	case Parsed:
	default:
		return fmt.Errorf("unknown kind %d", r.kind)
	}
	if uint64(len(r.text)) > 1<<32-1 || uint64(r.wordsAt) > uint64(len(r.text)) {
		return errors.New("records out of range")
	}
	if !r.hasWords() {
		if r.text != "" || r.wordsAt != 0 {
			return errors.New("text without records")
		}
		return nil
	}
	if (len(r.text)-int(r.wordsAt))%4 != 0 {
		return errors.New("records not whole words")
	}
	nw := uint32((len(r.text) - int(r.wordsAt)) / 4)
	if nw < headerWords+1 {
		return errors.New("records shorter than their header")
	}
	// Sections, in the order encode writes them.
	prev := uint32(headerWords + 1)
	for k, sec := range sections {
		start, end := r.word(sec.h), nw
		if k+1 < len(sections) {
			end = r.word(sections[k+1].h)
		}
		if start < prev || end < start {
			return errors.New("sections out of order")
		}
		if sec.size != 0 && (end-start)%sec.size != 0 {
			return errors.New("section of partial records")
		}
		prev = start
	}
	sGroups, sAgents := r.word(hGroups), r.word(hAgents)
	sLists, sRaws := r.word(hLists), r.word(hRaws)
	if (sGroups-headerWords-1)%ruleWords != 0 {
		return errors.New("section of partial records")
	}
	nRules := (sGroups - headerWords - 1) / ruleWords
	if err := r.validateRules(nRules); err != nil {
		return err
	}
	if err := r.validateGroups(nRules, sGroups, sAgents); err != nil {
		return err
	}
	nGroups := r.numGroups()
	if err := r.validateAgents(nGroups, sAgents, sLists, sRaws); err != nil {
		return err
	}
	if err := r.validateRaws(nRules, sRaws, r.word(hUsage)); err != nil {
		return err
	}
	if err := r.validateUsage(nGroups); err != nil {
		return err
	}
	// Others: in range, in group order, each group's in line order.
	prev = 0
	for i := range r.numOthers() {
		o := r.other(i)
		if uint64(o.off)+uint64(o.keyN)+uint64(o.valN) > uint64(r.wordsAt) {
			return fmt.Errorf("other line %d out of range", i)
		}
		if o.group != noGroup && o.group != preamble && o.group >= nGroups {
			return fmt.Errorf("other line %d of no group", i)
		}
		if o.group < prev {
			return errors.New("other lines out of order")
		}
		prev = o.group
	}
	return nil
}

// validateRules checks that the patterns lie end to end within the text and
// that a wildcard pattern has room for its probes.
func (r *form) validateRules(nRules uint32) error {
	// The rules' words and the closing word, as bytes: one bounds check.
	ws := r.words(headerWords, nRules*ruleWords+1)
	off := recOff(le32(ws))
	if off > r.wordsAt {
		return errors.New("rule 0 out of range")
	}
	for i := uint32(0); i < nRules; i++ {
		rec := ws[8*i : 8*i+12]
		w1, next := le32(rec[4:8]), recOff(le32(rec[8:12]))
		if next < off || next > r.wordsAt {
			return fmt.Errorf("rule %d out of range", i)
		}
		size := next - off
		off = next
		if recStar(w1) {
			if size < filterLen {
				return fmt.Errorf("rule %d has no room for its probes", i)
			}
			size -= filterLen
		}
		if size > 3*maxLineLen+1 {
			return fmt.Errorf("rule %d too long", i)
		}
	}
	return nil
}

// validateGroups checks the group records: a group with an index keeps its
// rules in file order, from which a query builds the index (see index.go);
// any other is laid out to be walked by key (see sortLayout).
func (r *form) validateGroups(nRules, sGroups, sAgents uint32) error {
	n := (sAgents - sGroups) / groupWords
	if n == 0 {
		return errors.New("no closing group record")
	}
	if last := r.group(n - 1); last.start != nRules || last.wild != nRules {
		return errors.New("closing group record does not close the rules")
	}
	if r.group(0).start != 0 {
		return errors.New("rules before the first group")
	}
	for g := uint32(0); g+1 < n; g++ {
		if start, _, end := r.groupRules(g); start > end {
			return fmt.Errorf("group %d out of order", g)
		}
	}
	for g := uint32(0); g+1 < n; g++ {
		start, wild, end := r.groupRules(g)
		if wild&idxAlways != 0 && wild&idxBit == 0 {
			return fmt.Errorf("group %d always searched, with no index", g)
		}
		if wild&idxBit != 0 {
			// In file order (see compiledFile.scan), and few enough for an
			// index's keys (see builder.indexes).
			if wild&^(idxBit|idxAlways) != start || end-start > idxMask {
				return fmt.Errorf("group %d with an index: bad record", g)
			}
			continue
		}
		if wild < start || wild > end {
			return fmt.Errorf("group %d out of range", g)
		}
		// Keyed rules: '/', their key, and more, in key order.
		prev := byte(0)
		for i := wild; i < end; i++ {
			p := r.pattern(i)
			if len(p) < 2 || p[0] != '/' || p[1] == '*' {
				return fmt.Errorf("rule %d has no key", i)
			}
			if p[1] < prev {
				return fmt.Errorf("rule %d out of key order", i)
			}
			prev = p[1]
		}
	}
	return nil
}

// validateAgents checks the agent records and their group lists.
func (r *form) validateAgents(nGroups, sAgents, sLists, sRaws uint32) error {
	list := func(k uint32) error {
		if k >= sRaws {
			return errors.New("group list out of range")
		}
		at, n := k+1, r.word(k)&^mergedBit
		merged := r.word(k)&mergedBit != 0
		words := uint64(n) // the ids, and the merged copy's index after them
		if merged {
			words++
		}
		if uint64(at)+words > uint64(sRaws) {
			return errors.New("group list out of range")
		}
		if merged && r.word(at+n) >= nGroups {
			return errors.New("group list names no merged group")
		}
		for j := at; j < at+n; j++ {
			if r.word(j) >= nGroups {
				return errors.New("group list names no group")
			}
		}
		return nil
	}
	if sLists == sRaws {
		return errors.New("no global group list")
	}
	if err := list(sLists); err != nil {
		return err
	}
	base, n := r.agents()
	if (sLists-sAgents)/agentWords == 0 {
		return errors.New("no closing agent record")
	}
	prev := uint32(0)
	for i := uint32(0); i <= n; i++ {
		tok := r.word(base + i*agentWords)
		if tok < prev || tok > r.wordsAt {
			return fmt.Errorf("agent %d out of range", i)
		}
		prev = tok
		if i == n {
			break
		}
		g := r.word(base + i*agentWords + 1)
		if g&listBit == 0 {
			if g >= nGroups {
				return fmt.Errorf("agent %d names no group", i)
			}
		} else if err := list(sLists + g&^listBit); err != nil {
			return err
		}
	}
	return nil
}

// validateUsage checks the usage records: patterns in range, of a group of
// the file or before the first, in group order, with a preference in each
// field that is one a line can state.
func (r *form) validateUsage(nGroups uint32) error {
	base, n := r.numUsage()
	prev := uint32(0)
	for i := range n {
		u := r.usageAt(base, i)
		if uint64(u.off)+uint64(u.n) > uint64(r.wordsAt) {
			return fmt.Errorf("usage line %d out of range", i)
		}
		if u.group != preamble && (u.group >= nGroups || r.isCopy(u.group)) || u.group < prev {
			return fmt.Errorf("usage line %d of no group", i)
		}
		prev = u.group
		count := int(NumCategories)
		if u.signal {
			count = int(NumSignals)
		}
		for k := range maxUsagePrefs {
			if u.signal && k == useSlot {
				continue // a content-use level: every value of the field is one
			}
			if p := prefAt(u.prefs, k); p > PrefNo || k >= count && p != PrefUnknown {
				return fmt.Errorf("usage line %d states an invalid preference", i)
			}
		}
	}
	return nil
}

// validateRaws checks that the rules with a value as written apart from
// their pattern, and only they, have one, in rule order and in range.
func (r *form) validateRaws(nRules, sRaws, sOthers uint32) error {
	k := sRaws
	ws := r.words(headerWords, nRules*ruleWords)
	for i := uint32(0); i < nRules; i++ {
		if !recRawApart(le32(ws[8*i+4 : 8*i+8])) {
			continue
		}
		if k >= sOthers || r.word(k) != i {
			return fmt.Errorf("rule %d has no value as written", i)
		}
		off := r.word(k + 1)
		if uint64(off)+2 > uint64(r.wordsAt) {
			return fmt.Errorf("value of rule %d out of range", i)
		}
		n := uint32(r.text[off]) | uint32(r.text[off+1])<<8
		if uint64(off)+2+uint64(n) > uint64(r.wordsAt) {
			return fmt.Errorf("value of rule %d out of range", i)
		}
		k += rawWords
	}
	if k != sOthers {
		return errors.New("values as written of no rule")
	}
	return nil
}
