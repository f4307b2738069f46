package lint

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/robotstxt-go/robotstxt"
)

// TestUsageConflictAgreesWithParse holds the conflict finding for two usage
// lines on one path to the core's reading of each line. For random pairs
// of lines, each line is first read alone by Parse; where the two lines
// alone give a label different answers, both yes or no, Diagnose must
// report the conflict on the second line and Parse of both must answer
// no; where they do not, Diagnose must not report a conflict between the
// lines for that label.
func TestUsageConflictAgreesWithParse(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 28))
	type vocab struct {
		key    string
		labels []string
		values []string
		answer func(u robotstxt.Usage, i int) robotstxt.Pref
	}
	vocabs := []vocab{
		{"Content-Usage", []string{"train-ai", "ai-use", "search"}, []string{"y", "n", "x", `"n"`, "?1"},
			func(u robotstxt.Usage, i int) robotstxt.Pref { return u.Pref(robotstxt.Category(i)) }},
		{"Content-Signal", []string{"search", "ai-input", "ai-train"}, []string{"yes", "no", "No", "maybe", ""},
			func(u robotstxt.Usage, i int) robotstxt.Pref { return u.Signal(robotstxt.Signal(i)) }},
	}
	line := func(v vocab) string {
		var members []string
		for range 1 + rng.IntN(3) {
			members = append(members, v.labels[rng.IntN(len(v.labels))]+"="+v.values[rng.IntN(len(v.values))])
		}
		return v.key + ": " + strings.Join(members, ", ")
	}
	answers := func(v vocab, lines ...string) []robotstxt.Pref {
		r := robotstxt.Parse([]byte("User-agent: *\nAllow: /\n" + strings.Join(lines, "\n") + "\n"))
		u := r.Usage("foobot", "/x")
		out := make([]robotstxt.Pref, len(v.labels))
		for i := range v.labels {
			out[i] = v.answer(u, i)
		}
		return out
	}
	for n := range 3000 {
		v := vocabs[n%len(vocabs)]
		a, b := line(v), line(v)
		first, second, both := answers(v, a), answers(v, b), answers(v, a, b)
		body := "User-agent: *\nAllow: /\n" + a + "\n" + b + "\n"
		report := Diagnose([]byte(body))
		for i, label := range v.labels {
			conflict := first[i] != second[i] && first[i] != robotstxt.PrefUnknown && second[i] != robotstxt.PrefUnknown
			reported := false
			for _, e := range report.Findings {
				if e.Line == 4 && errors.Is(e, ErrUsageConflict) && strings.Contains(e.Msg, "line 3 states "+label+"=") {
					reported = true
				}
			}
			if conflict != reported {
				t.Fatalf("%q: label %s: alone the lines answer %v and %v, and lint reports a conflict: %v\nfindings: %v",
					body, label, first[i], second[i], reported, report.Findings)
			}
			if conflict && both[i] != robotstxt.PrefNo {
				t.Fatalf("%q: label %s: the lines conflict and Parse answers %v, want no", body, label, both[i])
			}
		}
	}
}
