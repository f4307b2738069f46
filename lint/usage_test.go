package lint

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestDiagnoseUsage pins the findings on Content-Usage and Content-Signal
// lines (diag_usage.go), each row on the section of
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
