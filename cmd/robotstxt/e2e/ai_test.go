package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var screenshotAI = flag.String("screenshot-ai", "", "also write the screenshot of the AI access tab to `FILE`")

// aiRobots states AI preferences in each way the matrix reads: a
// Content-Signal line for "*", a crawler's group that disallows all, a
// control token's group that disallows a directory.
const aiRobots = `User-agent: *
Content-Signal: search=yes,ai-train=no,use=reference
Allow: /
User-agent: GPTBot
Disallow: /
User-agent: Google-Extended
Disallow: /articles/
`

// apiAI asks the tester's /api/ai for the matrix of robots at url, and
// returns each cell as the page should show it: the verdict, then the
// deciding robots.txt line ("line 7") or the kind of signal that decided.
func apiAI(ctx context.Context, base, robots, url string) (map[string]string, error) {
	body, _ := json.Marshal(map[string]string{"robots": robots, "url": url})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+"api/ai", bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var m struct {
		Cells []struct {
			Operator, Use, Verdict string
			Decided                *struct {
				Kind string
				Line int
			}
		}
	}
	if err := json.NewDecoder(resp.Body).Decode(&m); err != nil || resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("/api/ai: status %d, %v", resp.StatusCode, err)
	}
	out := map[string]string{}
	for _, c := range m.Cells {
		cell := c.Verdict
		switch {
		case c.Decided != nil && c.Decided.Line > 0:
			cell += fmt.Sprintf(" line %d", c.Decided.Line)
		case c.Decided != nil:
			cell += " " + c.Decided.Kind
		}
		out[c.Operator+" "+c.Use] = cell
	}
	return out, nil
}

// testAI opens the AI access tab, enters a file and a URL, and checks that
// the matrix shown is what /api/ai answers, that a cell's line number
// highlights its line in the file when clicked or hovered, that text from
// the file and the user is shown as text, and that the page reports no
// error to its console.
func testAI(t *testing.T, b *browser, base string, chromeLog *bytes.Buffer) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	fail := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%v\nchromium's output:\n%s", err, chromeLog.String())
		}
	}
	p, err := b.newPage(ctx, 1280, 1100)
	fail(err)
	defer p.close(context.Background())
	fail(p.watch(ctx))
	fail(p.navigate(ctx, base))
	fail(p.waitFor(ctx, `document.body.dataset.runs === "1" && document.body.dataset.state === "done"`))

	fail(p.replaceText(ctx, "#robots", aiRobots))
	fail(p.click(ctx, "#tab-ai"))
	fail(p.replaceText(ctx, "#ai-url", "/articles/1"))
	fail(run(ctx, p))
	aiDone := `document.body.dataset.aiRuns && document.body.dataset.aiStarted === document.body.dataset.aiRuns`
	fail(p.waitFor(ctx, aiDone))

	var shown map[string]string
	fail(p.eval(ctx, `Object.fromEntries([...document.querySelectorAll("#ai-matrix td.ai-cell")].map(td => [
		td.dataset.operator + " " + td.dataset.use,
		[td.querySelector(".ai-verdict").textContent, td.querySelector(".line-link, .source")?.textContent].filter(Boolean).join(" ")]))`, &shown))
	want, err := apiAI(ctx, base, aiRobots, "/articles/1")
	fail(err)
	if fmt.Sprint(shown) != fmt.Sprint(want) || len(want) == 0 {
		t.Errorf("the AI matrix shown:\n got %q\nwant %q (from /api/ai)", shown, want)
	}
	for cell, w := range map[string]string{
		"Google training": "not allowed line 7", // Google-Extended's Disallow: /articles/
		"OpenAI training": "not crawlable line 5",
		"Google search":   "allowed line 2", // search=yes for "*", Googlebot's group
	} {
		if shown[cell] != w {
			t.Errorf("%s shows %q, want %q", cell, shown[cell], w)
		}
	}

	// A click on a cell's line number highlights that line, scrolled to.
	fail(p.click(ctx, `#ai-matrix td[data-operator="Google"][data-use="training"] .line-link`))
	num, text, err := highlighted(ctx, p)
	fail(err)
	var detail string
	fail(p.eval(ctx, `document.querySelector("#ai-detail").textContent`, &detail))
	if num != "7" || text != "Disallow: /articles/" || !strings.Contains(detail, "robots.txt line 7 (Google-Extended): Disallow: /articles/") {
		t.Errorf("after clicking Google training's line: highlighted %s %q, detail %q; want line 7 and its signal", num, text, detail)
	}
	// Hovering another cell's line number shows its line; leaving it goes
	// back to the selected cell's.
	x, y, err := p.center(ctx, `#ai-matrix td[data-operator="OpenAI"][data-use="training"] .line-link`)
	fail(err)
	fail(p.call(ctx, "Input.dispatchMouseEvent", map[string]any{"type": "mouseMoved", "x": x, "y": y, "button": "none"}, nil))
	num, _, err = highlighted(ctx, p)
	fail(err)
	if num != "5" {
		t.Errorf("hovering OpenAI training's line: highlighted %s, want 5", num)
	}
	fail(p.call(ctx, "Input.dispatchMouseEvent", map[string]any{"type": "mouseMoved", "x": 5, "y": 5, "button": "none"}, nil))
	if num, _, err = highlighted(ctx, p); err != nil || num != "7" {
		t.Errorf("after the mouse left: highlighted %s (%v), want 7 again", num, err)
	}

	shot, err := p.screenshot(ctx)
	fail(err)
	path := filepath.Join(t.TempDir(), "tester-ai.png")
	fail(os.WriteFile(path, shot, 0o644))
	t.Logf("screenshot: %s (%d bytes)", path, len(shot))
	if *screenshotAI != "" {
		fail(os.WriteFile(*screenshotAI, shot, 0o644))
	}
	var link string
	fail(p.eval(ctx, `location.hash`, &link))
	if !strings.Contains(link, "view=ai") || !strings.Contains(link, "aiurl=%2Farticles%2F1") {
		t.Errorf("the page's link %q does not keep the AI tab and its URL", link)
	}

	// The arrow keys move between the results' tabs.
	fail(p.eval(ctx, `document.querySelector("#tab-ai").focus()`, nil))
	fail(p.press(ctx, "ArrowLeft", false))
	var tabs string
	fail(p.eval(ctx, `document.activeElement.id + " " + document.querySelector("#verdicts-pane").hidden + " " + document.querySelector("#ai-pane").hidden`, &tabs))
	if tabs != "tab-verdicts false true" {
		t.Errorf("ArrowLeft on the AI tab: focus, verdicts hidden, AI hidden = %q", tabs)
	}
	fail(p.press(ctx, "ArrowRight", false))
	fail(p.waitFor(ctx, aiDone))

	// Markup and control bytes in a rule and in the URL are shown as the
	// text they are: no element is made of them.
	hostile := "/<img src=x onerror=alert(1)>\x01\x1b[2J"
	rule := "Disallow: /<script>alert(1)</script>\x01\x1b[2J"
	fail(paste(ctx, p, "#robots", aiRobots+rule+"\n"))
	fail(paste(ctx, p, "#ai-url", hostile))
	fail(run(ctx, p))
	fail(p.waitFor(ctx, aiDone))
	var got struct {
		For, Line string
		Elements  int
	}
	fail(p.eval(ctx, `({For: document.querySelector("#ai-for").textContent,
		Line: document.querySelector("#L8 .text").textContent,
		Elements: document.querySelectorAll("#output img, #output script, script:not([src])").length})`, &got))
	if got.For != "for "+hostile || got.Line != rule || got.Elements != 0 {
		t.Errorf("hostile text: caption %q, line 8 %q, %d elements made of it; want the text as written and none", got.For, got.Line, got.Elements)
	}
	if errs := p.errors(); len(errs) > 0 {
		t.Errorf("the page reported errors to its console:\n%s", strings.Join(errs, "\n"))
	}
}
