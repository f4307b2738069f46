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
	n := (r.compiled().word(hGroups) - headerWords - 1) / ruleWords
	seen := ruleFlags(0)
	for i := range n {
		ru := r.compiled().rule(i)
		seen |= ru.flags
		p := r.compiled().pattern(i)
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

// orderAt returns the order of rule i (see patternOrder), read from its
// record as a query's walk reads it (see compiledFile.walk).
func (r *Robots) orderAt(i uint32) uint64 {
	s := r.compiled().words(headerWords+i*ruleWords, ruleWords+1)
	return recOrder(le32(s[0:4]), le32(s[4:8]), le32(s[8:12]))
}

// before reports whether a takes precedence over b, as SPEC §5 says it:
// longer pattern first, then Allow, then the earlier line.
func before(a, b rule) bool {
	ra, rb := a.rank(), b.rank()
	return ra > rb || ra == rb && a.line < b.line
}

// TestRuleOrder pins the order a query reads from a rule's record (see
// patternOrder) to the rule it decodes to: orderAt(i) and orderPattern(i)
// are rule(i).order(), order compares as before does, and orderAllows as
// allows, over the rules of files that use every flag.
func TestRuleOrder(t *testing.T) {
	bodies := []string{
		"User-agent: *\nAllow: /dir/index.htm\nDisallow: /a*b$\nDisallow: /%e9t%C3%A9\nAllow: /x$\nDisallow:\nAllow:\nDisallow: /ab\nAllow: /*b\nDisallow: *\n",
		"User-agent: a\nDisallow: /p\nAllow: /p\nDisallow: /p\nAllow: /q$\nDisallow: /q*\n",
	}
	var rules []rule
	for _, body := range bodies {
		r := parseWith([]byte(body), 1)
		n := (r.compiled().word(hGroups) - headerWords - 1) / ruleWords
		for i := range n {
			ru := r.compiled().rule(i)
			if got, want := r.orderAt(i), ru.order(); got != want {
				t.Errorf("rule %d %q: orderAt = %#x, rule(i).order() = %#x", i, r.compiled().pattern(i), got, want)
			}
			if got, _, _ := r.compiled().orderPattern(i); got != ru.order() {
				t.Errorf("rule %d %q: orderPattern = %#x, rule(i).order() = %#x", i, r.compiled().pattern(i), got, ru.order())
			}
			if got, want := orderAllows(ru.order()), ru.allows(); got != want {
				t.Errorf("rule %d %q: orderAllows = %v, allows = %v", i, r.compiled().pattern(i), got, want)
			}
			rules = append(rules, ru)
		}
	}
	for _, a := range rules {
		if a.order() == 0 {
			t.Errorf("rule %+v has order 0, which stands for no rule", a)
		}
		for _, b := range rules {
			if got, want := a.order() > b.order(), before(a, b); got != want {
				t.Errorf("%+v, %+v: order says %v, before says %v", a, b, got, want)
			}
		}
	}
}
