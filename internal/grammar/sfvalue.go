package grammar

import (
	"encoding/base64"
	"strconv"
	"strings"
)

// This file gives the values of structured fields (RFC 9651) to callers
// that need more than the Tokens a Content-Usage preference holds: HTTP
// Message Signatures (RFC 9421) carry Strings, Integers and Byte Sequences
// in Dictionaries of Inner Lists. The parse is sf.go's; this file only
// keeps what it reads, and writes values back (RFC 9651 §4.1), as the
// signature base of RFC 9421 §2.3 needs.

// SFItem is a Bare Item with its parameters.
type SFItem struct {
	Kind   SFKind
	Str    string // a String, a Token, a Display String's raw text, a Decimal's text
	Int    int64  // an Integer or a Date
	Bytes  []byte // a Byte Sequence
	Bool   bool   // a Boolean
	Params []SFParam
}

// SFParam is one parameter: a key and a Bare Item (without parameters).
type SFParam struct {
	Key   string
	Value SFItem
}

// SFMember is a member of a Dictionary: an Item or an Inner List, with the
// member's parameters. For an Item, Items holds it alone and Inner is
// false; its parameters are Items[0].Params.
type SFMember struct {
	Key    string
	Inner  bool
	Items  []SFItem
	Params []SFParam // an Inner List's own parameters
}

// Param returns the value of the parameter named key and whether there is
// one.
func Param(params []SFParam, key string) (SFItem, bool) {
	for _, p := range params {
		if p.Key == key {
			return p.Value, true
		}
	}
	return SFItem{}, false
}

// setSFParam sets key to v: a key seen before keeps its place and takes
// the new value (RFC 9651 §4.2.3.2 step 2.5). index finds keys once there
// are more than a few, so that a field of many keys parses in linear time;
// pass nil and keep what is returned.
func setSFParam(ps []SFParam, index map[string]int, key string, v SFItem) ([]SFParam, map[string]int) {
	i, index := findKey(len(ps), index, key, func(i int) string { return ps[i].Key })
	if i >= 0 {
		ps[i].Value = v
		return ps, index
	}
	return append(ps, SFParam{Key: key, Value: v}), index
}

// findKey returns the index of key among n keys (key(i) is the i-th), or
// -1 after recording key as the n-th. A map is built once n reaches
// linearKeys; below, the keys are compared one by one.
func findKey(n int, index map[string]int, k string, key func(int) string) (int, map[string]int) {
	const linearKeys = 8
	if index == nil && n >= linearKeys {
		index = make(map[string]int, 2*n)
		for i := 0; i < n; i++ {
			index[key(i)] = i
		}
	}
	if index != nil {
		if i, ok := index[k]; ok {
			return i, index
		}
		index[k] = n
		return -1, index
	}
	for i := 0; i < n; i++ {
		if key(i) == k {
			return i, nil
		}
	}
	return -1, nil
}

// decodeSFItem returns the value of raw, a Bare Item of the kind that
// bareItem parsed it as.
func decodeSFItem(kind SFKind, raw []byte) SFItem {
	it := SFItem{Kind: kind}
	switch kind {
	case sfNumber:
		if strings.IndexByte(string(raw), '.') >= 0 {
			it.Kind, it.Str = sfDecimal, string(raw)
		} else {
			it.Int, _ = strconv.ParseInt(string(raw), 10, 64) // ≤ 15 digits: number checked
		}
	case sfString:
		var b strings.Builder
		for i := 1; i < len(raw)-1; i++ {
			if raw[i] == '\\' {
				i++
			}
			b.WriteByte(raw[i])
		}
		it.Str = b.String()
	case sfToken:
		it.Str = string(raw)
	case sfBytes:
		// Padding may be missing (§4.2.7 step 7 allows it): pad, then
		// decode; bytes that are not base64 leave Bytes nil.
		s := strings.TrimRight(string(raw[1:len(raw)-1]), "=")
		if n := len(s) % 4; n != 0 {
			s += "==="[:4-n]
		}
		if b, err := base64.StdEncoding.DecodeString(s); err == nil {
			it.Bytes = b
		}
	case sfBoolean:
		it.Bool = raw[1] == '1'
	case sfDate:
		it.Int, _ = strconv.ParseInt(string(raw[1:]), 10, 64)
	case sfDisplay:
		it.Str = string(raw)
	}
	return it
}

// ParseSFDictionaryMembers parses s as a Dictionary (RFC 9651 §4.2.2) and
// returns its members in order, with their values. A key seen twice keeps
// its first place and takes its last value (§4.2.2 step 2.5). ok is false
// when s does not parse.
func ParseSFDictionaryMembers(s []byte) (members []SFMember, ok bool) {
	p := sfParser{s: s}
	var index map[string]int
	p.skipSP()
	for !p.done() {
		key, ok := p.key()
		if !ok {
			return nil, false
		}
		m := SFMember{Key: string(key)}
		if p.peek() == '=' {
			p.i++
			if p.peek() == '(' {
				m.Inner = true
				if !p.inner(&m) {
					return nil, false
				}
			} else {
				start := p.i
				kind, ok := p.bareItem()
				if !ok {
					return nil, false
				}
				it := decodeSFItem(kind, s[start:p.i])
				if !p.params(&it.Params) {
					return nil, false
				}
				m.Items = []SFItem{it}
			}
		} else {
			it := SFItem{Kind: sfBoolean, Bool: true}
			if !p.params(&it.Params) {
				return nil, false
			}
			m.Items = []SFItem{it}
		}
		var i int
		i, index = findKey(len(members), index, m.Key, func(i int) string { return members[i].Key })
		if i >= 0 {
			members[i] = m // §4.2.2 step 2.5: the last value, in the first place
		} else {
			members = append(members, m)
		}
		p.skipOWS()
		if p.done() {
			return members, true
		}
		if p.s[p.i] != ',' {
			return nil, false
		}
		p.i++
		p.skipOWS()
		if p.done() {
			return nil, false
		}
	}
	return members, true
}

// ParseSFItem parses s as an Item (RFC 9651 §4.2, §4.2.3): a Bare Item and
// its parameters, with leading and trailing spaces.
func ParseSFItem(s []byte) (SFItem, bool) {
	p := sfParser{s: s}
	p.skipSP()
	start := p.i
	kind, ok := p.bareItem()
	if !ok {
		return SFItem{}, false
	}
	it := decodeSFItem(kind, s[start:p.i])
	if !p.params(&it.Params) {
		return SFItem{}, false
	}
	p.skipSP()
	return it, p.done()
}

// AppendSFMemberValue appends the serialization of m's value (RFC 9651
// §4.1.1.1, §4.1.3): an Inner List with its parameters, or an Item.
func AppendSFMemberValue(dst []byte, m SFMember) []byte {
	if !m.Inner {
		if len(m.Items) == 0 {
			return dst
		}
		return AppendSFItem(dst, m.Items[0])
	}
	dst = append(dst, '(')
	for i, it := range m.Items {
		if i > 0 {
			dst = append(dst, ' ')
		}
		dst = AppendSFItem(dst, it)
	}
	dst = append(dst, ')')
	return appendSFParams(dst, m.Params)
}

// AppendSFItem appends the serialization of an Item (RFC 9651 §4.1.3).
func AppendSFItem(dst []byte, it SFItem) []byte {
	dst = appendSFBare(dst, it)
	return appendSFParams(dst, it.Params)
}

func appendSFParams(dst []byte, ps []SFParam) []byte {
	for _, p := range ps {
		dst = append(dst, ';')
		dst = append(dst, p.Key...)
		if p.Value.Kind == sfBoolean && p.Value.Bool {
			continue // §4.1.1.2 step 1.4: a true Boolean has no value
		}
		dst = append(dst, '=')
		dst = appendSFBare(dst, p.Value)
	}
	return dst
}

func appendSFBare(dst []byte, it SFItem) []byte {
	switch it.Kind {
	case sfNumber:
		return strconv.AppendInt(dst, it.Int, 10)
	case sfString:
		dst = append(dst, '"')
		for i := 0; i < len(it.Str); i++ {
			if c := it.Str[i]; c == '"' || c == '\\' {
				dst = append(dst, '\\')
			}
			dst = append(dst, it.Str[i])
		}
		return append(dst, '"')
	case sfBytes:
		dst = append(dst, ':')
		dst = base64.StdEncoding.AppendEncode(dst, it.Bytes)
		return append(dst, ':')
	case sfBoolean:
		if it.Bool {
			return append(dst, "?1"...)
		}
		return append(dst, "?0"...)
	case sfDate:
		dst = append(dst, '@')
		return strconv.AppendInt(dst, it.Int, 10)
	}
	return append(dst, it.Str...) // Token, Decimal, Display String: as read
}
