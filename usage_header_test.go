package robotstxt

import (
	"math/rand/v2"
	"strings"
	"testing"
)

func TestParseContentUsage(t *testing.T) {
	tests := []struct {
		why, value string
		want       [NumCategories]Pref
		ok         bool
	}{
		{"attach-05 §1.2 example", "train-ai=n", [NumCategories]Pref{TrainAI: PrefNo}, true},
		{"vocab-08 §6: several labels", "search=y, train-ai=n", [NumCategories]Pref{TrainAI: PrefNo, Search: PrefYes}, true},
		{"vocab-08 §6.5.1: the last member counts", "train-ai=y, train-ai=n", [NumCategories]Pref{TrainAI: PrefNo}, true},
		{"vocab-08 §6.5: unknown labels state nothing", "foo=n, ai-use=y", [NumCategories]Pref{AIUse: PrefYes}, true},
		{"vocab-08 §6.2: labels and values are case-sensitive", "train-ai=N", [NumCategories]Pref{}, true},
		{"RFC 9651: a value that does not parse states nothing", "train-ai=n,", [NumCategories]Pref{}, false},
		{"RFC 9651: an empty field is an empty Dictionary", "", [NumCategories]Pref{}, true},
	}
	for _, tt := range tests {
		got, ok := ParseContentUsage(tt.value)
		if got != tt.want || ok != tt.ok {
			t.Errorf("%s\nParseContentUsage(%q) = %v, %v, want %v, %v", tt.why, tt.value, got, ok, tt.want, tt.ok)
		}
	}
}

// The header reads as a robots.txt Content-Usage line without a path
// states, for random values: one reader serves both.
func TestContentUsageHeaderEqualsLine(t *testing.T) {
	parts := []string{"train-ai", "ai-use", "search", "=", "y", "n", "?1", ", ", ";q=1", "foo", " ", "(y n)", `"s"`, "Y"}
	rng := rand.New(rand.NewPCG(31, 31))
	for range 3000 {
		var b strings.Builder
		for range rng.IntN(8) {
			b.WriteString(parts[rng.IntN(len(parts))])
		}
		v := b.String()
		if strings.ContainsAny(v, "#") {
			continue
		}
		got, ok := ParseContentUsage(v)
		u := Parse([]byte("User-agent: *\nContent-Usage: "+v+"\n")).Usage("Foobot", "/x")
		for c := range got {
			want := u.ContentUsage[c].Pref
			if !ok {
				want = PrefUnknown
			}
			if got[c] != want {
				t.Fatalf("%q: header %v (ok %v), robots.txt line %v", v, got, ok, u.ContentUsage)
			}
		}
	}
}

func TestParseContentSignal(t *testing.T) {
	tests := []struct {
		why, value string
		want       [NumSignals]Pref
		use        Use
	}{
		{"Cloudflare's managed default as a header", "search=yes,ai-train=no,use=reference", [NumSignals]Pref{SignalSearch: PrefYes, SignalAITrain: PrefNo}, UseReference},
		{"Markdown for Agents' permissive header", "ai-train=yes, search=yes, ai-input=yes", [NumSignals]Pref{PrefYes, PrefYes, PrefYes}, UseUnstated},
		{"case ignored, as the robots.txt line", "AI-Input=No, Use=FULL", [NumSignals]Pref{SignalAIInput: PrefNo}, UseFull},
		{"no grammar error: a bad entry states nothing, the others count", "search, ai-train=maybe, ai-input=no", [NumSignals]Pref{SignalAIInput: PrefNo}, UseUnstated},
		{"empty", "", [NumSignals]Pref{}, UseUnstated},
	}
	for _, tt := range tests {
		got, use := ParseContentSignal(tt.value)
		if got != tt.want || use != tt.use {
			t.Errorf("%s\nParseContentSignal(%q) = %v, %v, want %v, %v", tt.why, tt.value, got, use, tt.want, tt.use)
		}
	}
}

// The Content-Signal header reads as a robots.txt Content-Signal line
// without a path states, for random values: one reader serves both.
func TestContentSignalHeaderEqualsLine(t *testing.T) {
	parts := []string{"search", "ai-input", "ai-train", "use", "=", "yes", "no", "immediate", "reference", "full", ", ", ",", "YES", " ", "foo", "=="}
	rng := rand.New(rand.NewPCG(37, 37))
	for range 3000 {
		var b strings.Builder
		for range rng.IntN(10) {
			b.WriteString(parts[rng.IntN(len(parts))])
		}
		v := b.String()
		got, use := ParseContentSignal(v)
		u := Parse([]byte("User-agent: *\nContent-Signal: "+v+"\n")).Usage("Foobot", "/x")
		for s := range got {
			if got[s] != u.ContentSignal[s].Pref {
				t.Fatalf("%q: header %v, robots.txt line %v", v, got, u.ContentSignal)
			}
		}
		if use != u.ContentUse {
			t.Fatalf("%q: header use %v, robots.txt line %v", v, use, u.ContentUse)
		}
	}
}
