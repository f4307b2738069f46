package lint

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestDiagnoseAITokens pins the findings that read the crawler table's
// uses, each row on the operator's page that makes it a finding.
func TestDiagnoseAITokens(t *testing.T) {
	tests := []struct {
		reason string
		robots string
		want   []string
	}{
		{"Google's Google-Extended page: no crawler of that name, Googlebot fetches",
			"User-agent: Google-Extended\nCrawl-delay: 10\nDisallow: /\n",
			[]string{"2:warning:line that means nothing for a control token"}},
		{"Apple's page: Applebot-Extended fetches nothing either",
			"User-agent: Applebot-Extended\nUser-agent: Google-Extended\nCrawl-delay: 5\nDisallow: /\n",
			[]string{"3:warning:line that means nothing for a control token"}},
		{"a group that also names a crawler paces it: no finding",
			"User-agent: Google-Extended\nUser-agent: Googlebot\nCrawl-delay: 5\nDisallow: /x\n", nil},
		{"OpenAI's bots page: the settings are independent; search blocked, training open",
			"User-agent: OAI-SearchBot\nDisallow: /\nUser-agent: *\nAllow: /\n",
			[]string{"2:warning:search crawler blocked, training crawler allowed"}},
		{"both blocked: no finding",
			"User-agent: OAI-SearchBot\nUser-agent: GPTBot\nDisallow: /\n", nil},
		{"search blocked only by *: a closed site, not a mistake of this kind",
			"User-agent: *\nDisallow: /\nUser-agent: GPTBot\nAllow: /\n", nil},
		{"a control token's operator is left out: its fetcher blocked, it governs nothing",
			"User-agent: Googlebot\nDisallow: /\n", nil},
	}
	for _, tt := range tests {
		rep := Diagnose([]byte(tt.robots))
		var got []string
		for _, f := range rep.Findings {
			if f.Err == ErrControlTokenLine || f.Err == ErrSearchNotTrain {
				got = append(got, fmt.Sprintf("%d:%s:%s", f.Line, f.Severity, f.Err))
			}
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s\n%s\n(-want +got):\n%s", tt.reason, tt.robots, diff)
		}
	}
}
