package termesc

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestWriter(t *testing.T) {
	tests := []struct {
		in, want, why string
	}{
		{"allowed  /a\n\tb\n", "allowed  /a\n\tb\n", "text, newlines and tabs pass"},
		{"x\x1b]0;t\x07\x1b[2J", `x\u001b]0;t\u0007\u001b[2J`, "OSC ended by BEL, CSI: ECMA-48 §5.4, §8.3.103"},
		{"a\rb\bc", `a\u000db\u0008c`, "CR and BS would write over the line"},
		{"\x7f", `\u007f`, "DEL"},
		{"\u009b2J\u0085", `\u009b2J\u0085`, "C1 controls written as UTF-8"},
		{"\x9b\xff\xc2", `\x9b\xff\xc2`, "bytes that are not UTF-8, one cut at the end"},
		{"é ü \u00a0 \u2028 \ufffd", "é ü \u00a0 \u2028 \ufffd", "printable and other characters pass; U+FFFD itself is UTF-8"},
	}
	for _, tt := range tests {
		// Whole, and cut at every byte: the escapes do not depend on
		// where the writes end.
		for cut := 0; cut <= len(tt.in); cut++ {
			var b bytes.Buffer
			w := NewWriter(&b)
			for _, part := range []string{tt.in[:cut], tt.in[cut:]} {
				if n, err := w.Write([]byte(part)); n != len(part) || err != nil {
					t.Fatalf("%s: Write(%q) = %d, %v", tt.why, part, n, err)
				}
			}
			if err := w.Flush(); err != nil {
				t.Fatal(err)
			}
			if b.String() != tt.want {
				t.Errorf("%s: %q cut at %d: wrote %q, want %q", tt.why, tt.in, cut, b.String(), tt.want)
			}
		}
	}
}

// TestWriterKeepsJSON: JSON written through a Writer stays JSON and means
// the same, its C1 controls and DEL escaped.
func TestWriterKeepsJSON(t *testing.T) {
	in := map[string]string{"url": "/a\u009b2J\x7f\x1b", "k": "é"}
	var raw, esc bytes.Buffer
	json.NewEncoder(&raw).Encode(in)
	w := NewWriter(&esc)
	w.Write(raw.Bytes())
	w.Flush()
	if strings.ContainsAny(esc.String(), "\u009b\x7f") {
		t.Errorf("raw controls left: %q", esc.String())
	}
	var out map[string]string
	if err := json.Unmarshal(esc.Bytes(), &out); err != nil || out["url"] != in["url"] || out["k"] != in["k"] {
		t.Errorf("JSON %q read back as %q, %v; want %q", esc.String(), out, err, in)
	}
}

func TestQuote(t *testing.T) {
	for in, want := range map[string]string{
		"/private/":       "/private/",
		"/ü/\ufffd":       "/ü/\ufffd",
		"/a\x1b[2J":       `"/a\x1b[2J"`,
		"/a\u009b":        `"/a\u009b"`,
		"/\xff":           `"/\xff"`,
		"/a\u202egnp.exe": `"/a\u202egnp.exe"`, // a bidi override reorders what is shown
	} {
		if got := Quote(in); got != want {
			t.Errorf("Quote(%q) = %s, want %s", in, got, want)
		}
	}
}
