package e2e

import (
	"bytes"
	"fmt"
	"testing"
)

// testUsage pastes a file with Content-Usage and Content-Signal lines and
// reads, beside each verdict, the preferences the page shows for the URL:
// none for a URL that may not be fetched.
func testUsage(t *testing.T, b *browser, bin string, chromeLog *bytes.Buffer) {
	ctx, p, fail := open(t, b, startServe(t, bin), chromeLog)
	fail(p.replaceText(ctx, "#robots", "User-agent: *\nDisallow: /private/\nContent-Usage: train-ai=n, search=y\nContent-Usage: /blog/ train-ai=y\nContent-Signal: ai-input=no\n"))
	fail(p.replaceText(ctx, "#agent", "ExampleBot"))
	fail(p.replaceText(ctx, "#urls", "/a\n/blog/x\n/private/x\n"))
	fail(run(ctx, p))
	var got []string
	fail(p.eval(ctx, `[...document.querySelectorAll("#verdicts tbody tr")].map(tr => tr.cells[0].textContent + " | " + tr.querySelector("td.usage").textContent)`, &got))
	want := []string{
		"allowed | content-usage: search=y (line 3), train-ai=n (line 3); content-signal: ai-input=n (line 5)",
		"allowed | content-usage: train-ai=y (line 4); content-signal: ai-input=n (line 5)",
		"disallowed | ",
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("verdicts with usage:\n got %q\nwant %q", got, want)
	}
}
