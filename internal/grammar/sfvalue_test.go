package grammar

import (
	"bytes"
	"fmt"
	"testing"
)

func TestSFDictionaryMembersRoundTrip(t *testing.T) {
	tests := []struct {
		in, want string
		reason   string
	}{
		{`sig1=("@authority" "signature-agent");created=1700000000;keyid="a\"b";tag="web-bot-auth"`,
			`sig1=("@authority" "signature-agent");created=1700000000;keyid="a\"b";tag="web-bot-auth"`,
			"RFC 9421 §4.1: Signature-Input is a Dictionary of Inner Lists"},
		{`a=(  "x"   "y" );p`, `a=("x" "y");p`, "RFC 9651 §4.1.1.1: an Inner List is written with single spaces; a true Boolean parameter has no value"},
		{`sig1=:AAEC:`, `sig1=:AAEC:`, "RFC 9421 §4.2: Signature is a Dictionary of Byte Sequences"},
		{`a=1, a=2`, `a=2`, "RFC 9651 §4.2.2 step 2.5: a repeated key takes the last value"},
	}
	for _, tt := range tests {
		ms, ok := ParseSFDictionaryMembers([]byte(tt.in))
		if !ok {
			t.Errorf("ParseSFDictionaryMembers(%#q) failed (%s)", tt.in, tt.reason)
			continue
		}
		var out []byte
		for i, m := range ms {
			if i > 0 {
				out = append(out, ", "...)
			}
			out = append(out, m.Key...)
			out = append(out, '=')
			out = AppendSFMemberValue(out, m)
		}
		if string(out) != tt.want {
			t.Errorf("serialized %#q = %#q, want %#q (%s)", tt.in, out, tt.want, tt.reason)
		}
	}
}

func TestSFDictionaryMembersAgreeWithParse(t *testing.T) {
	for _, in := range []string{`a=1`, `a=(1 2);x=?0`, `a=b, c`, `a=`, `a=(1`, `A=1`, `a=1,`, `a=%"x%2"`, `a=:!!:`} {
		_, got := ParseSFDictionaryMembers([]byte(in))
		want := ParseSFDictionary([]byte(in), func(_, _ []byte, _ bool) {})
		if got != want {
			t.Errorf("ParseSFDictionaryMembers(%#q) ok=%v, ParseSFDictionary ok=%v: one parser, one answer", in, got, want)
		}
	}
}

func FuzzSFDictionaryMembers(f *testing.F) {
	f.Add([]byte(`sig1=("@authority" "signature-agent");created=1;keyid="k";tag="web-bot-auth"`))
	f.Add([]byte(`sig1=:AAEC:, sig2="https://a.example"`))
	f.Fuzz(func(t *testing.T, in []byte) {
		ms, ok := ParseSFDictionaryMembers(in)
		if ok != ParseSFDictionary(in, func(_, _ []byte, _ bool) {}) {
			t.Fatalf("the two parsers disagree on %q", in)
		}
		if !ok {
			return
		}
		var out []byte
		for i, m := range ms {
			if i > 0 {
				out = append(out, ", "...)
			}
			out = append(out, m.Key...)
			out = append(out, '=')
			out = AppendSFMemberValue(out, m)
		}
		ms2, ok := ParseSFDictionaryMembers(out)
		if !ok {
			t.Fatalf("serialization %q of %q does not parse", out, in)
		}
		var out2 []byte
		for i, m := range ms2 {
			if i > 0 {
				out2 = append(out2, ", "...)
			}
			out2 = append(out2, m.Key...)
			out2 = append(out2, '=')
			out2 = AppendSFMemberValue(out2, m)
		}
		if !bytes.Equal(out, out2) {
			t.Fatalf("serialization not stable: %q then %q", out, out2)
		}
	})
}

// TestSFRepeatedKeysMany: with more keys than are compared one by one, a
// repeated key still keeps its first place and takes its last value
// (RFC 9651 §4.2.2 step 2.5, §4.2.3.2 step 2.5).
func TestSFRepeatedKeysMany(t *testing.T) {
	in := "k0=0"
	for i := 1; i < 20; i++ {
		in += fmt.Sprintf(", k%d=%d", i, i)
	}
	in += ", k3=33, k15=(1);p0;p1;p2;p3;p4;p5;p6;p7;p8;p9;p3=?0"
	ms, ok := ParseSFDictionaryMembers([]byte(in))
	if !ok || len(ms) != 20 {
		t.Fatalf("%d members, %v; want 20", len(ms), ok)
	}
	if ms[3].Key != "k3" || ms[3].Items[0].Int != 33 {
		t.Errorf("k3 = %+v, want 33 in place 3", ms[3])
	}
	if ms[15].Key != "k15" || !ms[15].Inner || len(ms[15].Params) != 10 || ms[15].Params[3].Key != "p3" || ms[15].Params[3].Value.Bool {
		t.Errorf("k15 = %+v, want the inner list with p3=?0 in place 3", ms[15])
	}
}
