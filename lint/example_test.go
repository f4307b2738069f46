package lint_test

import (
	"errors"
	"fmt"

	"github.com/robotstxt-go/robotstxt/lint"
)

// Diagnose explains what Parse made of each line. Here a misspelt key is
// read anyway, a pattern without a leading '/' can never match, and the
// agent's version is dropped.
func ExampleDiagnose() {
	robots := []byte(`User-agent: Googlebot/2.1
Dissallow: /tmp/
Disallow: private/
Crawl-delay: soon
`)
	report := lint.Diagnose(robots)
	for _, e := range report.Findings {
		fmt.Println(e.Render("robots.txt"))
	}
	for _, l := range report.Lines[:2] {
		fmt.Printf("line %d: %s %q (typo: %v)\n", l.Num, l.Kind, l.Value, l.Typo)
	}
	c := report.Counts
	fmt.Printf("groups: %d, rules: %d used, %d never matching\n", c.Groups, c.Allow+c.Disallow, c.NeverMatch)
	// Output:
	// robots.txt:1: info: user-agent "Googlebot/2.1" is read as "Googlebot": the version is ignored
	// robots.txt:2: warning: key "Dissallow" read as disallow: write "disallow", as other crawlers may not accept it
	// robots.txt:3: error: pattern "private/" can never match: a pattern starts with '/' or '*'; did you mean "/private/"?
	// robots.txt:4: warning: crawl-delay "soon" is ignored: it must be a number of seconds, such as 10 or 0.5
	// line 1: user-agent "Googlebot/2.1" (typo: false)
	// line 2: disallow "/tmp/" (typo: true)
	// groups: 1, rules: 1 used, 1 never matching
}

// Report.Err keeps the findings of severity error; each one unwraps to its
// cause.
func ExampleReport_Err() {
	report := lint.Diagnose([]byte("Disallow: /a\nUser-agent: *\nDisallow: /b\n"))
	err := report.Err()
	fmt.Println(err)
	fmt.Println(errors.Is(report.Findings[0], lint.ErrNoGroup))
	// Output:
	// robotstxt: line 1: error: disallow rule before any user-agent line belongs to no group and is ignored
	// true
}

// Diagnose explains mistakes that crawlers pass over in silence: a group
// for MJ12bot is a group for "MJ", no search engine reads Noindex, and a
// sitemap needs an absolute URL.
func ExampleDiagnose_mistakes() {
	robots := []byte(`User-agent: MJ12bot
Disallow: /

User-agent: *
Noindex: /drafts/
Disallow: /tmp/

Sitemap: /sitemap.xml
`)
	for _, e := range lint.Diagnose(robots).Findings {
		fmt.Printf("line %d: %s: %v\n", e.Line, e.Severity, e.Err)
	}
	// Output:
	// line 1: warning: user-agent value reduced to its product token
	// line 5: error: noindex or nofollow line
	// line 8: error: sitemap is not an absolute URL
}

// Summarize counts what Diagnose would report, for linting many files at
// once: the numbers only, without messages.
func ExampleSummarize() {
	robots := []byte(`User-agent: MJ12bot
Disallow: /

User-agent: *
Noindex: /drafts/
Disallow: /tmp/
Disallow: tmp

Sitemap: /sitemap.xml
`)
	s := lint.Summarize(robots)
	fmt.Println(s.Counts.Groups, "groups,", s.Counts.Disallow, "disallow rules")
	fmt.Println(s.Errors, "errors,", s.Warnings, "warnings,", s.Infos, "infos")
	for _, f := range s.Findings {
		fmt.Printf("%d × %v (%s)\n", f.Count, f.Err, f.Severity)
	}
	// Output:
	// 2 groups, 2 disallow rules
	// 3 errors, 1 warnings, 0 infos
	// 1 × noindex or nofollow line (error)
	// 1 × pattern can never match (error)
	// 1 × sitemap is not an absolute URL (error)
	// 1 × user-agent value reduced to its product token (warning)
}
