package lint

// patternLines finds, among the rules of one group, a pattern that is both
// allowed and disallowed: for each normalised pattern, the first line that
// disallows it and the first that allows it. Most groups hold rules of one
// kind only, where no pattern can be both; their patterns are only listed,
// and put in a map once the group's first rule of the other kind comes.
type patternLines struct {
	group int // the group the lines are of
	kinds int // bit 0: a disallow rule has been seen, bit 1: an allow rule
	list  []patternLine
	seen  map[string][2]int // pattern → first disallow line, first allow line
}

type patternLine struct {
	pattern string
	line    int
	allow   bool
}

// start begins the lines of group g.
func (p *patternLines) start(g int) {
	p.group, p.kinds, p.list, p.seen = g, 0, p.list[:0], nil
}

// add takes a rule's line, with its normalised pattern norm, written raw
// (raw is used when the two are equal, to save a copy). When this is the
// first line of its kind for the pattern and a line of the other kind came
// before, add returns the first such line, and 0 otherwise.
func (p *patternLines) add(norm []byte, raw string, line int, allow bool) int {
	this := 0 // index into a seen value: disallow, allow
	if allow {
		this = 1
	}
	if p.seen == nil {
		p.kinds |= 1 << this
		if p.kinds != 3 {
			p.list = append(p.list, patternLine{keyOf(norm, raw), line, allow})
			return 0
		}
		p.seen = make(map[string][2]int, len(p.list)+1)
		for _, e := range p.list {
			k := 0
			if e.allow {
				k = 1
			}
			if s := p.seen[e.pattern]; s[k] == 0 {
				s[k] = e.line
				p.seen[e.pattern] = s
			}
		}
	}
	s := p.seen[string(norm)]
	first := 0
	if s[1-this] != 0 && s[this] == 0 {
		first = s[1-this]
	}
	if s[this] == 0 {
		s[this] = line
		p.seen[keyOf(norm, raw)] = s
	}
	return first
}

// keyOf returns norm as a string, raw when the two are equal: most patterns
// need no escaping, and raw is a slice of the file's text.
func keyOf(norm []byte, raw string) string {
	if string(norm) == raw {
		return raw
	}
	return string(norm)
}
