package grammar

import "unicode/utf8"

// This file parses the Dictionary of RFC 9651 (Structured Field Values for
// HTTP), which a Content-Usage preference is (draft-ietf-aipref-vocab-08
// §6.5: "those bytes are parsed into a Dictionary"). It follows the parsing
// algorithms of RFC 9651 §4.2 step by step; a value they fail on states no
// preference at all. It runs while parsing, not while answering.

// sfParser is the state of one parse: the input and the position in it.
type sfParser struct {
	s []byte
	i int
}

func (p *sfParser) done() bool { return p.i >= len(p.s) }
func (p *sfParser) peek() byte {
	if p.done() {
		return 0
	}
	return p.s[p.i]
}

func (p *sfParser) skipSP() {
	for !p.done() && p.s[p.i] == ' ' {
		p.i++
	}
}

// skipOWS skips optional whitespace: SP and HTAB (RFC 9651 §4.2.2 "OWS").
func (p *sfParser) skipOWS() {
	for !p.done() && (p.s[p.i] == ' ' || p.s[p.i] == '\t') {
		p.i++
	}
}

// ParseSFDictionary parses s as a Dictionary (RFC 9651 §4.2, §4.2.2) and
// calls member for each member in order, with its key and, when the value
// is a Token, the Token; parameters are parsed and dropped. It reports
// whether s parses: when it does not, the members seen so far must be
// disregarded.
func ParseSFDictionary(s []byte, member func(key, token []byte, isToken bool)) bool {
	p := sfParser{s: s}
	p.skipSP() // §4.2 step 2
	for !p.done() {
		key, ok := p.key()
		if !ok {
			return false
		}
		var token []byte
		isToken := false
		if p.peek() == '=' {
			p.i++
			if p.peek() == '(' {
				if !p.innerList() {
					return false
				}
			} else {
				start := p.i
				kind, ok := p.bareItem()
				if !ok {
					return false
				}
				if kind == sfToken {
					token, isToken = s[start:p.i], true
				}
				if !p.parameters() {
					return false
				}
			}
		} else if !p.parameters() { // a Boolean true, with parameters
			return false
		}
		member(key, token, isToken)
		p.skipOWS()
		if p.done() {
			return true
		}
		if p.s[p.i] != ',' {
			return false
		}
		p.i++
		p.skipOWS()
		if p.done() {
			return false // a trailing comma
		}
	}
	return true // §4.2 step 5: nothing left once leading SP is gone
}

// key parses a key (§4.2.3.3): lcalpha or '*', then lcalpha, DIGIT, '_',
// '-', '.' or '*'. Upper-case letters are not allowed.
func (p *sfParser) key() ([]byte, bool) {
	start := p.i
	if c := p.peek(); !('a' <= c && c <= 'z' || c == '*') {
		return nil, false
	}
	p.i++
	for !p.done() {
		c := p.s[p.i]
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '_' || c == '-' || c == '.' || c == '*') {
			break
		}
		p.i++
	}
	return p.s[start:p.i], true
}

// parameters parses parameters (§4.2.3.2), dropping them.
func (p *sfParser) parameters() bool { return p.params(nil) }

// params parses parameters (§4.2.3.2) and, when out is not nil, appends
// each to it with its value; a parameter without a value is the Boolean
// true.
func (p *sfParser) params(out *[]SFParam) bool {
	var index map[string]int
	for p.peek() == ';' {
		p.i++
		p.skipSP()
		key, ok := p.key()
		if !ok {
			return false
		}
		v := SFItem{Kind: SFBoolean, Bool: true}
		if p.peek() == '=' {
			p.i++
			start := p.i
			kind, ok := p.bareItem()
			if !ok {
				return false
			}
			if out != nil {
				v = decodeSFItem(kind, p.s[start:p.i])
			}
		}
		if out != nil {
			*out, index = setSFParam(*out, index, string(key), v)
		}
	}
	return true
}

// innerList parses an Inner List (§4.2.1.2), dropping it.
func (p *sfParser) innerList() bool { return p.inner(nil) }

// inner parses an Inner List (§4.2.1.2) and, when m is not nil, stores
// its items and parameters in m.
func (p *sfParser) inner(m *SFMember) bool {
	p.i++ // '('
	for !p.done() {
		p.skipSP()
		if p.peek() == ')' {
			p.i++
			if m == nil {
				return p.parameters()
			}
			return p.params(&m.Params)
		}
		start := p.i
		kind, ok := p.bareItem()
		if !ok {
			return false
		}
		if m == nil {
			if !p.parameters() {
				return false
			}
		} else {
			it := decodeSFItem(kind, p.s[start:p.i])
			if !p.params(&it.Params) {
				return false
			}
			m.Items = append(m.Items, it)
		}
		if c := p.peek(); c != ' ' && c != ')' {
			return false
		}
	}
	return false // no closing ')'
}

type sfKind = SFKind

// SFKind is the type of a Bare Item (RFC 9651 §3.3).
type SFKind uint8

// The types of Bare Items. An Integer and a Decimal are both sfNumber
// while parsing; decodeSFItem tells them apart.
const (
	sfNumber SFKind = iota
	sfString
	sfToken
	sfBytes
	sfBoolean
	sfDate
	sfDisplay
	sfDecimal
)

// The exported names of the kinds, for callers outside the package.
const (
	SFInteger = sfNumber
	SFString  = sfString
	SFToken   = sfToken
	SFBytes   = sfBytes
	SFBoolean = sfBoolean
	SFDate    = sfDate
	SFDisplay = sfDisplay
	SFDecimal = sfDecimal
)

// bareItem parses a Bare Item (§4.2.3.1) and returns its type.
func (p *sfParser) bareItem() (sfKind, bool) {
	c := p.peek()
	switch {
	case c == '-' || '0' <= c && c <= '9':
		_, ok := p.number()
		return sfNumber, ok
	case c == '"':
		return sfString, p.str()
	case 'a' <= c|0x20 && c|0x20 <= 'z' || c == '*':
		p.token()
		return sfToken, true
	case c == ':':
		return sfBytes, p.byteSequence()
	case c == '?':
		p.i++
		if c := p.peek(); c != '0' && c != '1' {
			return sfBoolean, false
		}
		p.i++
		return sfBoolean, true
	case c == '@':
		p.i++
		decimal, ok := p.number()
		return sfDate, ok && !decimal
	case c == '%':
		return sfDisplay, p.displayString()
	}
	return 0, false
}

// number parses an Integer or a Decimal (§4.2.4) and reports which.
func (p *sfParser) number() (decimal, ok bool) {
	if p.peek() == '-' {
		p.i++
	}
	if c := p.peek(); c < '0' || c > '9' {
		return false, false
	}
	n, dot := 0, -1
	for !p.done() {
		c := p.s[p.i]
		switch {
		case '0' <= c && c <= '9':
		case c == '.' && dot < 0:
			if n > 12 {
				return true, false
			}
			dot = n
		default:
			goto end
		}
		n++
		p.i++
		if dot < 0 && n > 15 || dot >= 0 && n > 16 {
			return dot >= 0, false
		}
	}
end:
	if dot < 0 {
		return false, true
	}
	frac := n - dot - 1
	return true, frac >= 1 && frac <= 3
}

// str parses a String (§4.2.5).
func (p *sfParser) str() bool {
	p.i++ // '"'
	for !p.done() {
		c := p.s[p.i]
		p.i++
		switch {
		case c == '\\':
			if p.done() {
				return false
			}
			if c := p.s[p.i]; c != '"' && c != '\\' {
				return false
			}
			p.i++
		case c == '"':
			return true
		case c < 0x20 || c > 0x7e:
			return false
		}
	}
	return false
}

// token parses a Token (§4.2.6), whose first byte the caller checked.
func (p *sfParser) token() {
	p.i++
	for !p.done() && isSFTokenByte(p.s[p.i]) {
		p.i++
	}
}

// isSFTokenByte reports whether c may follow the first byte of a Token:
// tchar (RFC 9110 §5.6.2), ':' or '/'.
func isSFTokenByte(c byte) bool {
	switch {
	case 'a' <= c|0x20 && c|0x20 <= 'z', '0' <= c && c <= '9':
		return true
	}
	switch c {
	case '!', '#', '$', '%', '&', '\'', '*', '+', '-', '.', '^', '_', '`', '|', '~', ':', '/':
		return true
	}
	return false
}

// byteSequence parses a Byte Sequence (§4.2.7): base64 between colons.
// Padding is not checked, as §4.2.7 allows.
func (p *sfParser) byteSequence() bool {
	p.i++ // ':'
	for !p.done() {
		c := p.s[p.i]
		p.i++
		switch {
		case c == ':':
			return true
		case 'a' <= c|0x20 && c|0x20 <= 'z', '0' <= c && c <= '9', c == '+', c == '/', c == '=':
		default:
			return false
		}
	}
	return false
}

// displayString parses a Display String (§4.2.10): %"...", with %xx
// escapes in lower-case hex, whose bytes must be UTF-8.
func (p *sfParser) displayString() bool {
	p.i++ // '%'
	if p.peek() != '"' {
		return false
	}
	p.i++
	var decoded []byte
	for !p.done() {
		c := p.s[p.i]
		p.i++
		switch {
		case c < 0x20 || c > 0x7e:
			return false
		case c == '%':
			if p.i+2 > len(p.s) || !isLowerHexDigit(p.s[p.i]) || !isLowerHexDigit(p.s[p.i+1]) {
				return false
			}
			decoded = append(decoded, HexValue(p.s[p.i])<<4|HexValue(p.s[p.i+1]))
			p.i += 2
		case c == '"':
			return utf8.Valid(decoded)
		default:
			decoded = append(decoded, c)
		}
	}
	return false
}

func isLowerHexDigit(c byte) bool { return '0' <= c && c <= '9' || IsLowerHex(c) }
