package robotstxt_test

import (
	"fmt"

	"github.com/robotstxt-go/robotstxt"
)

// The example of draft-ietf-aipref-attach-05 §3.4, with a Content-Signal
// line: what a crawler may fetch, and what it may use it for.
func ExampleRobots_Usage() {
	r := robotstxt.Parse([]byte(`User-Agent: *
Allow: /
Disallow: /never/
Content-Usage: train-ai=n
Content-Usage: /ai-ok/ train-ai=y
Content-Signal: search=yes, ai-train=no

User-Agent: ExampleBot
Allow: /
Content-Usage: train-ai=y
`))
	for _, q := range []struct{ agent, url string }{
		{"OtherBot", "https://example.com/test"},
		{"OtherBot", "https://example.com/never/test"},
		{"OtherBot", "https://example.com/ai-ok/test"},
		{"ExampleBot", "https://example.com/never/test"},
	} {
		u := r.Usage(q.agent, q.url)
		train := u.ContentUsage[robotstxt.TrainAI]
		fmt.Printf("%s %s: fetch %v, train-ai %v (line %d), ai-train signal %v, combined %v\n",
			q.agent, q.url, u.Decision.Allowed, train.Pref, train.Line, u.Signal(robotstxt.SignalAITrain), u.Combined(robotstxt.TrainAI))
	}
	// Output:
	// OtherBot https://example.com/test: fetch true, train-ai n (line 4), ai-train signal n, combined n
	// OtherBot https://example.com/never/test: fetch false, train-ai not crawlable (line 0), ai-train signal not crawlable, combined not crawlable
	// OtherBot https://example.com/ai-ok/test: fetch true, train-ai y (line 5), ai-train signal n, combined n
	// ExampleBot https://example.com/never/test: fetch true, train-ai y (line 10), ai-train signal unknown, combined y
}
