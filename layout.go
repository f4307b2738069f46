package robotstxt

// This file says how a parsed file is stored. A crawler keeps millions of
// them, so a Robots is one string and one []uint32, whatever the file: the
// string holds every byte the file keeps (patterns, agent tokens, other keys
// and values, sitemaps), and the words hold fixed-size records that refer
// into it by offset. The builder in parse.go works with the typed records
// below and encodes them once, in finish.
//
// The words are in sections, each starting where the previous one ends:
//
//	rules    [0:groupsAt)         3 words a rule: off, line, n | flags<<16 | key<<24
//	groups   [groupsAt:agentsAt)  4 words a group: start, wild, live, others;
//	                              a closing record holds the totals
//	agents   [agentsAt:listsAt)   2 words an agent: token offset, groups;
//	                              a closing record holds where tokens end
//	lists    [listsAt:othersAt)   group lists: a count, then group indexes;
//	                              the global ("*") list comes first
//	others   [othersAt:)          3 words a line: off, line, keyN | valN<<16;
//	                              the groups' lines, then the sitemaps
//
// Agent tokens are stored in the text in the order of the agents, one after
// the other, so a token ends where the next begins. An agent's groups word is
// the index of its only group, or listBit | the offset of its list.

// listBit marks an agent's groups word as the offset of a list.
const listBit = 1 << 31

const (
	ruleWords  = 3
	groupWords = 4
	agentWords = 2
	otherWords = 3
)

// group is one group of the file: the rules and other lines between its
// User-agent lines and the next group's. Its rules run from start to the next
// group's start, and its other lines likewise from others.
//
// The rules are in three parts (see compareLayout): [start:wild] have key 0
// and may match any path; [wild:live] are sorted by key, so a path "/c..."
// needs to look only at the rules with key c, found by binary search; the
// rest can never match and are kept for Rules.
type group struct {
	start, wild, live uint32 // rule indexes
	others            uint32 // index of the group's first other line
}

// other is a line of a group with a key other than user-agent, allow,
// disallow and sitemap, or a sitemap (keyN 0). Its key is at
// text[off:off+keyN], and its value follows.
type other struct {
	off        uint32
	line       uint32
	keyN, valN uint16
}

func (r *Robots) rule(i uint32) rule {
	w := r.w[i*ruleWords : i*ruleWords+ruleWords]
	return rule{off: w[0], line: w[1], n: uint16(w[2]), flags: ruleFlags(w[2] >> 16), key: byte(w[2] >> 24)}
}

func (r *Robots) ruleKey(i uint32) byte { return byte(r.w[i*ruleWords+2] >> 24) }

func (r *Robots) numGroups() uint32 { return (r.agentsAt-r.groupsAt)/groupWords - 1 }

// group returns group i; group numGroups() is the closing record, whose
// start and others are the totals.
func (r *Robots) group(i uint32) group {
	w := r.w[r.groupsAt+i*groupWords : r.groupsAt+i*groupWords+groupWords]
	return group{start: w[0], wild: w[1], live: w[2], others: w[3]}
}

func (r *Robots) numAgents() uint32 { return (r.listsAt-r.agentsAt)/agentWords - 1 }

// token returns the lower-case token of agent i.
func (r *Robots) token(i uint32) string {
	a := r.agentsAt + i*agentWords
	return r.text[r.w[a]:r.w[a+agentWords]]
}

// agentGroups returns the indexes of the groups that name agent i.
func (r *Robots) agentGroups(i uint32) []uint32 {
	a := r.agentsAt + i*agentWords + 1
	if g := r.w[a]; g&listBit != 0 {
		return r.list(r.listsAt + g&^listBit)
	}
	return r.w[a : a+1]
}

// list returns the group list at word at.
func (r *Robots) list(at uint32) []uint32 { return r.w[at+1 : at+1+r.w[at]] }

func (r *Robots) numOthers() uint32 { return (uint32(len(r.w)) - r.othersAt) / otherWords }

func (r *Robots) other(i uint32) other {
	w := r.w[r.othersAt+i*otherWords : r.othersAt+i*otherWords+otherWords]
	return other{off: w[0], line: w[1], keyN: uint16(w[2]), valN: uint16(w[2] >> 16)}
}

func (r *Robots) otherKey(o other) string { return r.text[o.off : o.off+uint32(o.keyN)] }

func (r *Robots) otherValue(o other) string {
	v := o.off + uint32(o.keyN)
	return r.text[v : v+uint32(o.valN)]
}

// encode lays out what the builder collected. The builder's groups end with
// a closing record, and its others with the sitemaps.
func (b *builder) encode(r *Robots, agents []agentEntry, lists []uint32) {
	n := len(b.rules)*ruleWords + len(b.groups)*groupWords + (len(agents)+1)*agentWords + len(lists) + len(b.others)*otherWords
	w := make([]uint32, 0, n)
	for _, ru := range b.rules {
		w = append(w, ru.off, ru.line, uint32(ru.n)|uint32(ru.flags)<<16|uint32(ru.key)<<24)
	}
	r.groupsAt = uint32(len(w))
	for _, g := range b.groups {
		w = append(w, g.start, g.wild, g.live, g.others)
	}
	r.agentsAt = uint32(len(w))
	for _, a := range agents {
		w = append(w, a.token, a.groups)
	}
	w = append(w, uint32(len(b.text)), 0)
	r.listsAt = uint32(len(w))
	w = append(w, lists...)
	r.othersAt = uint32(len(w))
	for _, o := range b.others {
		w = append(w, o.off, o.line, uint32(o.keyN)|uint32(o.valN)<<16)
	}
	r.w = w
}
