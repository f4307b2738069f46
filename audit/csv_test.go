package audit

import (
	"bytes"
	"encoding/csv"
	"math/rand/v2"
	"testing"
)

// TestAppendCSV checks appendCSV against encoding/csv's Writer, whose
// output for the fields made safe (csvSafe) it must equal byte for byte,
// on fields made of the bytes that matter to quoting and to formulas.
func TestAppendCSV(t *testing.T) {
	tests := [][]string{
		{},
		{""},
		{"", ""},
		{"a", "b,c", `say "hi"`, "line\nbreak", "cr\rlf\r\n", " lead", "\tlead", "trail ", `\.`, `\.x`, "\u00a0nbsp", "\u2028ls", "\xff", "é"},
	}
	pieces := []string{"a", ",", `"`, "\r", "\n", " ", "\t", "\v", "\f", `\.`, "\\", ".", "\u00a0", "\u0085", "\u3000", "é", "\xff", "\xc2", "x y", "=", "+", "-", "@", "1", "'"}
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		rec := make([]string, r.IntN(4))
		for i := range rec {
			var f []byte
			for range r.IntN(5) {
				f = append(f, pieces[r.IntN(len(pieces))]...)
			}
			rec[i] = string(f)
		}
		tests = append(tests, rec)
	}
	safe := func(rec []string) []string {
		out := make([]string, len(rec))
		for i, f := range rec {
			out[i] = csvSafe(f)
		}
		return out
	}
	var seen csvSeen
	prev := []string{}
	for _, rec := range tests {
		// The same strings as the record before, in some columns: what
		// seen remembers of them must be right.
		mixed := append([]string(nil), rec...)
		for i := range mixed {
			if i < len(prev) && r.IntN(2) == 0 {
				mixed[i] = prev[i]
			}
		}
		for _, rec := range [][]string{rec, mixed} {
			var want bytes.Buffer
			w := csv.NewWriter(&want)
			w.Write(safe(rec))
			w.Flush()
			if got := appendCSVSeen(nil, rec, &seen); !bytes.Equal(got, want.Bytes()) {
				t.Fatalf("appendCSVSeen(%q) = %q, encoding/csv writes %q", rec, got, want.Bytes())
			}
		}
		prev = rec
		var want bytes.Buffer
		w := csv.NewWriter(&want)
		if err := w.Write(safe(rec)); err != nil {
			t.Fatal(err)
		}
		w.Flush()
		if got := appendCSV(nil, rec); !bytes.Equal(got, want.Bytes()) {
			t.Fatalf("appendCSV(%q) = %q, encoding/csv writes %q", rec, got, want.Bytes())
		}
	}
}
