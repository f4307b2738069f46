package pagerules_test

import (
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/robotstxt-go/robotstxt/pagerules"
)

// The X-Robots-Tag lines of a response add up for a crawler: those for
// every crawler, and those addressed to it by name.
func ExampleRules_AddHeader() {
	h := http.Header{}
	h.Add("X-Robots-Tag", "max-snippet:50, noimageindex")
	h.Add("X-Robots-Tag", "googlebot: nofollow, max-snippet:20")
	h.Add("X-Robots-Tag", "otherbot: noindex")

	var r pagerules.Rules
	r.AddHeader(h, "Googlebot")
	fmt.Println("index:", r.MayIndex(time.Now()))
	fmt.Println("follow:", r.MayFollow(), "because of", r.Origin(pagerules.NoFollow))
	fmt.Println("snippet:", r.SnippetLimit(), "because of", r.Origin(pagerules.MaxSnippet).Text)
	fmt.Println("noimageindex:", r.Has(pagerules.NoImageIndex))
	// Output:
	// index: true
	// follow: false because of X-Robots-Tag line 2 (googlebot)
	// snippet: 20 because of max-snippet:20
	// noimageindex: true
}

// AddMeta reads the robots meta tags of a page's head, and no further.
func ExampleRules_AddMeta() {
	page := `<!DOCTYPE html><html><head>
<meta name="robots" content="max-snippet:50, nosnippet">
<meta name="foobot" content="noindex, unavailable_after: 2030-01-01">
</head><body>` + strings.Repeat("<p>text</p>", 100000) + `</body></html>`

	var r pagerules.Rules
	scan, err := r.AddMeta(strings.NewReader(page), "Foobot", 0)
	if err != nil {
		fmt.Println(err)
		return
	}
	t, _ := r.UnavailableAfter()
	fmt.Println("snippet:", r.SnippetLimit(), "(nosnippet beats max-snippet:50)")
	fmt.Println("noindex:", r.Has(pagerules.NoIndex), "in", r.Origin(pagerules.NoIndex))
	fmt.Println("unavailable after:", t.Format(time.DateOnly))
	fmt.Printf("read %d of %d bytes, head ended: %v\n", scan.Read, len(page), scan.Ended)
	// Output:
	// snippet: 0 (nosnippet beats max-snippet:50)
	// noindex: true in meta tag 2 (foobot)
	// unavailable after: 2030-01-01
	// read 4096 of 1100182 bytes, head ended: true
}
