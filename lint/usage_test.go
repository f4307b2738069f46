package lint

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestDiagnoseUsage pins the findings on Content-Usage and Content-Signal
// lines (usage.go), each row on the section of
// draft-ietf-aipref-attach-05, draft-ietf-aipref-vocab-08 or the Content
// Signals Policy it checks.
func TestDiagnoseUsage(t *testing.T) {
	tests := []struct {
		reason string
		robots string
		want   []string
	}{
		{"clean lines draw no finding",
			"User-agent: *\nAllow: /\nContent-Usage: train-ai=n, search=y\nContent-Usage: /blog/ ai-use=y\nContent-Signal: search=yes, ai-train=no\n", nil},
		{"vocab §6.5.1: a value that does not parse states nothing",
			"User-agent: *\nAllow: /\nContent-Usage: train-ai=n,\n", []string{"3:error:malformed usage preference"}},
		{"vocab §6.5: a value that is not the Token y or n states nothing",
			"User-agent: *\nAllow: /\nContent-Usage: train-ai=no\n", []string{"3:warning:malformed usage preference"}},
		{"vocab §6.5: a key alone states nothing",
			"User-agent: *\nAllow: /\nContent-Usage: train-ai\n", []string{"3:warning:malformed usage preference"}},
		{"attach §3: a path without a preference states nothing",
			"User-agent: *\nAllow: /\nContent-Usage: /a\n", []string{"3:warning:malformed usage preference"}},
		{"vocab §6.4: unknown keys are ignored",
			"User-agent: *\nAllow: /\nContent-Usage: train-genai=n, train-ai=n\n", []string{"3:warning:unknown usage category"}},
		{"vocab §6.5.1: upper-case keys fail the whole parse",
			"User-agent: *\nAllow: /\nContent-Usage: Train-AI=n\n", []string{"3:error:usage key or value in the wrong case"}},
		{"vocab §6.2: the values are lower case",
			"User-agent: *\nAllow: /\nContent-Usage: train-ai=N\n", []string{"3:error:usage key or value in the wrong case"}},
		{"attach §3.2: a path must start with '/'",
			"User-agent: *\nAllow: /\nContent-Usage: images/ train-ai=n\n", []string{"3:error:usage path can never match"}},
		{"attach §3.2: a wildcard path without its '/'",
			"User-agent: *\nAllow: /\nContent-Usage: *.pdf train-ai=n\n", []string{"3:error:usage path can never match"}},
		{"attach §3.1: a preference on a path the group disallows applies nowhere",
			"User-agent: *\nDisallow: /private/\nContent-Usage: /private/ train-ai=n\n", []string{"3:warning:usage preference on a disallowed path"}},
		{"attach §3.1: a site-wide preference in a closed group",
			"User-agent: GPTBot\nDisallow: /\nContent-Usage: train-ai=n\n", []string{"3:warning:usage preference on a disallowed path"}},
		{"attach §3.1: an Allow that opens the path: no finding",
			"User-agent: *\nDisallow: /private/\nAllow: /private/press/\nContent-Usage: /private/press/ train-ai=y\n", nil},
		{"attach §3.1: another group's Disallow does not count",
			"User-agent: a\nDisallow: /x\nUser-agent: b\nAllow: /\nContent-Usage: /x train-ai=n\n", nil},
		{"attach §3: a Content-Usage line belongs to a group",
			"Content-Usage: train-ai=n\nUser-agent: *\nAllow: /\n", []string{"1:warning:usage line before any user-agent line"}},
		{"policy: a Content-Signal line before the first group is read by some only",
			"Content-Signal: ai-train=no\nUser-agent: *\nAllow: /\n", []string{"1:warning:usage line before any user-agent line"}},
		{"Cloudflare 2026-07-01: the use key of the managed robots.txt is known",
			"User-agent: *\nAllow: /\nContent-Signal: search=yes,ai-train=no,use=reference\n", nil},
		{"Cloudflare 2026-07-01: use has three values",
			"User-agent: *\nAllow: /\nContent-Signal: use=all\n", []string{"3:warning:malformed usage preference"}},
		{"Cloudflare 2026-07-01: use written as the policy writes it",
			"User-agent: *\nAllow: /\nContent-Signal: Use=Full\n", []string{"3:warning:usage key or value in the wrong case"}},
		{"policy: unknown signals",
			"User-agent: *\nAllow: /\nContent-Signal: ai-training=no\n", []string{"3:warning:unknown usage category"}},
		{"policy: values are yes and no",
			"User-agent: *\nAllow: /\nContent-Signal: ai-train=n\n", []string{"3:warning:malformed usage preference"}},
		{"policy: an entry without '='",
			"User-agent: *\nAllow: /\nContent-Signal: search\n", []string{"3:warning:malformed usage preference"}},
		{"policy: lower case is what the policy writes",
			"User-agent: *\nAllow: /\nContent-Signal: Search=Yes\n", []string{"3:warning:usage key or value in the wrong case"}},
		{"policy: an empty value",
			"User-agent: *\nAllow: /\nContent-Signal:\n", []string{"3:warning:malformed usage preference"}},
		{"a '$' inside a usage path is a literal",
			"User-agent: *\nAllow: /\nContent-Usage: /a$b train-ai=n\n", []string{"3:warning:'$' inside a pattern"}},
		{"a misspelled key is suggested",
			"User-agent: *\nAllow: /\nContent-Usages: train-ai=n\n", []string{"3:warning:unknown key"}},
	}
	for _, tt := range tests {
		rep := Diagnose([]byte(tt.robots))
		if diff := cmp.Diff(tt.want, findings(rep)); diff != "" {
			var msgs []string
			for _, e := range rep.Findings {
				msgs = append(msgs, e.Msg)
			}
			t.Errorf("%s\n%s\nfindings (-want +got):\n%s\n%s", tt.reason, tt.robots, diff, strings.Join(msgs, "\n"))
		}
	}
}

// TestDiagnoseUsageGaps pins the findings on usage lines that say what a
// crawler does with a line that seems to say something else: a
// Content-Signal path, a usage line inside a run of User-agent lines,
// preferences that conflict, a raw space in a Content-Usage path. Each
// message must say what the crawler does (the phrase in want).
func TestDiagnoseUsageGaps(t *testing.T) {
	tests := []struct {
		reason string
		robots string
		want   []string
		phrase string // in the message of the first finding
	}{
		{"policy: Content-Signal has no path form; a crawler that follows it reads the path as part of an unknown signal",
			"User-agent: *\nAllow: /\nContent-Signal: /blog/ ai-train=no\n",
			[]string{"3:warning:content-signal line with a path"}, "states nothing"},
		{"policy: a Content-Signal path without a signal",
			"User-agent: *\nAllow: /\nContent-Signal: /blog/\n",
			[]string{"3:warning:content-signal line with a path", "3:warning:malformed usage preference"}, "no path"},
		{"RFC 9309 §2.2.4: a Content-Usage line does not end a run of User-agent lines",
			"User-agent: a\nContent-Usage: train-ai=n\nUser-agent: b\nDisallow: /x\n",
			[]string{"2:warning:usage line inside a run of user-agent lines"}, "line 3"},
		{"RFC 9309 §2.2.4: nor does a Content-Signal line",
			"User-agent: a\nContent-Signal: ai-train=no\nUser-agent: b\nDisallow: /x\n",
			[]string{"2:warning:usage line inside a run of user-agent lines"}, "\"b\""},
		{"a usage line after a rule: the next User-agent line starts a group",
			"User-agent: a\nDisallow: /x\nContent-Usage: train-ai=n\nUser-agent: b\nDisallow: /y\n", nil, ""},
		{"vocab §5.1: two lines on one path combine, a disallow winning",
			"User-agent: *\nAllow: /\nContent-Usage: /a train-ai=n\nContent-Usage: /a train-ai=y\n",
			[]string{"4:warning:conflicting usage preferences"}, "train-ai=n"},
		{"attach §3.2: a line without a path is a line on \"/\"",
			"User-agent: *\nAllow: /\nContent-Usage: train-ai=y\nContent-Usage: / train-ai=n\n",
			[]string{"4:warning:conflicting usage preferences"}, "line 3"},
		{"vocab §6.5.1: the same key twice in a line, the last counts",
			"User-agent: *\nAllow: /\nContent-Usage: train-ai=y, train-ai=n\n",
			[]string{"3:warning:conflicting usage preferences"}, "the last"},
		{"policy: the same signal twice in a line, the last counts",
			"User-agent: *\nAllow: /\nContent-Signal: ai-train=yes, search=yes, AI-Train=no\n",
			[]string{"3:warning:usage key or value in the wrong case", "3:warning:conflicting usage preferences"}, ""},
		{"two Content-Signal lines on one path",
			"User-agent: *\nAllow: /\nContent-Signal: ai-train=yes\nContent-Signal: ai-train=no\n",
			[]string{"4:warning:conflicting usage preferences"}, "ai-train=no"},
		{"lines on different paths do not conflict",
			"User-agent: *\nAllow: /\nContent-Usage: /a train-ai=n\nContent-Usage: /b train-ai=y\n", nil, ""},
		{"the same preference twice is no conflict",
			"User-agent: *\nAllow: /\nContent-Usage: /a train-ai=n\nContent-Usage: /a train-ai=n, search=y\n", nil, ""},
		{"lines of two groups do not conflict",
			"User-agent: a\nAllow: /\nContent-Usage: train-ai=n\nUser-agent: b\nAllow: /\nContent-Usage: train-ai=y\n", nil, ""},
		{"attach §3.2: a path ends at the first space",
			"User-agent: *\nAllow: /\nContent-Usage: /my docs/ train-ai=n\n",
			[]string{"3:error:pattern holds a byte crawlers send escaped"}, "%20"},
	}
	for _, tt := range tests {
		rep := Diagnose([]byte(tt.robots))
		var msgs []string
		for _, e := range rep.Findings {
			msgs = append(msgs, e.Msg)
		}
		if diff := cmp.Diff(tt.want, findings(rep)); diff != "" {
			t.Errorf("%s\n%s\nfindings (-want +got):\n%s\n%s", tt.reason, tt.robots, diff, strings.Join(msgs, "\n"))
			continue
		}
		if tt.phrase != "" && !strings.Contains(msgs[0], tt.phrase) {
			t.Errorf("%s: message %q does not say %q", tt.reason, msgs[0], tt.phrase)
		}
	}
}
