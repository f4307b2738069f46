package robotstxt

import (
	"math/rand/v2"
	"testing"
)

// TestRuleRecordFields: the bit fields of a rule record (layout.go) do not
// overlap, cover the two words, and packRule and the rec* accessors are
// inverse on every field: the one seam between the builder's rules and the
// stored words.
func TestRuleRecordFields(t *testing.T) {
	w0 := []uint32{ruleOffMask, ruleAllowBit}
	w1 := []uint32{ruleLineMask, ruleStarBit, ruleRawBit, ruleIndexBit}
	for _, fields := range [][]uint32{w0, w1} {
		var all uint64
		for _, f := range fields {
			if all&uint64(f) != 0 {
				t.Fatalf("field %#x overlaps another", f)
			}
			all |= uint64(f)
		}
		if all != 1<<32-1 {
			t.Errorf("fields %#x leave bits unused", all)
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	const stored = ruleAllow | ruleStar | ruleRawApart | ruleIndex
	for range 10000 {
		off, line := rng.Uint32()&ruleOffMask, rng.Uint32()&ruleLineMask
		flags := ruleFlags(rng.Uint32()) & stored
		a, b := packRule(off, line, flags)
		if recOff(a) != off || recLine(b) != line || recFlags(a, b) != flags ||
			recStar(b) != (flags&ruleStar != 0) || recRawApart(b) != (flags&ruleRawApart != 0) {
			t.Fatalf("packRule(%#x, %#x, %#x) = %#x, %#x: read back as %#x, %#x, %#x",
				off, line, flags, a, b, recOff(a), recLine(b), recFlags(a, b))
		}
	}
}

// TestRuleRecordsDecode: every rule of a parsed file reads back from its
// words as the flags its pattern says, for files that use every flag.
func TestRuleRecordsDecode(t *testing.T) {
	r := parseWith([]byte("User-agent: *\nAllow: /dir/index.htm\nDisallow: /a*b$\nDisallow: /%e9t%C3%A9\nAllow: /x$\n"), 1)
	n := (r.word(hLinks) - headerWords - 1) / ruleWords
	seen := ruleFlags(0)
	for i := range n {
		ru := r.rule(i)
		seen |= ru.flags
		p := r.pattern(i)
		if got := ru.flags&ruleAnchored != 0; got != (p[len(p)-1] == '$') {
			t.Errorf("rule %d %q: anchored %v", i, p, got)
		}
	}
	if want := ruleAllow | ruleAnchored | ruleIndex | ruleRawApart | ruleStar; seen != want {
		t.Errorf("flags seen %#b, want %#b: the file no longer uses every flag", seen, want)
	}
}

// TestUsageRecordFields: packUsage and unpackUsage are inverse on every
// field of a usage record, and prefAt and withPref on every category.
func TestUsageRecordFields(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 10000 {
		u := usageRec{
			off:      rng.Uint32() & ruleOffMask,
			n:        uint16(rng.Uint32()),
			line:     rng.Uint32() & ruleLineMask,
			group:    rng.Uint32(),
			signal:   rng.IntN(2) == 0,
			anchored: rng.IntN(2) == 0,
		}
		var want [maxUsagePrefs]Pref
		for i := range maxUsagePrefs {
			want[i] = Pref(rng.IntN(3))
			u.prefs = withPref(u.prefs, i, want[i])
		}
		w := packUsage(u)
		if got := unpackUsage(w[0], w[1], w[2], w[3]); got != u {
			t.Fatalf("unpackUsage(packUsage(%+v)) = %+v", u, got)
		}
		for i := range maxUsagePrefs {
			if got := prefAt(u.prefs, i); got != want[i] {
				t.Fatalf("prefAt(%#x, %d) = %v, want %v", u.prefs, i, got, want[i])
			}
		}
	}
}
