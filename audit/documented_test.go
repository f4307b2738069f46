package audit

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestRecordedURLs asks the ebay-like case of #32: the rule on line 21,
// "Disallow: /b/*?*|", matches the URL as recorded, with its '|', in both
// modes (Google's parser disallows it; NormalizeURL's "%7C" would not
// match).
func TestRecordedURLs(t *testing.T) {
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	for i := 2; i < 21; i++ {
		b.WriteString("Disallow: /filler" + itoa(int64(i)) + "\n")
	}
	b.WriteString("Disallow: /b/*?*|\n")
	body := b.String()
	p := t.TempDir() + "/e.warc.gz"
	writeWARC(t, p, []capture{{url: "https://www.ebay.ie/robots.txt", status: 200, body: body}})
	agents, _ := ReadAgents(strings.NewReader("GPTBot\n"))

	out, _ := run(t, Config{Inputs: []string{p}, Paths: []string{"/b/x?x|", "/b/x?x"}, Format: FormatJSONL, Agents: agents})
	rows := decodeRows(t, out)
	if len(rows) != 1 {
		t.Fatalf("%d rows", len(rows))
	}
	if v := rows[0].Verdicts[0]; *v.Allowed || v.Line != 21 || v.Rule != "/b/*?*|" {
		t.Errorf("-paths /b/x?x|: %+v, want disallowed by line 21", v)
	}
	if v := rows[0].Verdicts[1]; !*v.Allowed {
		t.Errorf("-paths /b/x?x: %+v, want allowed", v)
	}

	out, _ = run(t, Config{Inputs: []string{p}, URLs: strings.NewReader("https://www.ebay.ie/b/x?x|\n"), Format: FormatJSONL, Agents: agents})
	var u URLRow
	if err := json.Unmarshal([]byte(strings.TrimSpace(string(out))), &u); err != nil {
		t.Fatal(err, string(out))
	}
	if u.Allowed == nil || *u.Allowed || u.Line != 21 {
		t.Errorf("-urls: %+v, want disallowed by line 21", u)
	}
}

// TestDocumentedLabels is the case of #32: with "User-agent: Googlebot" +
// "Disallow: /x" and "User-agent: *" + "Disallow: /", Googlebot-Image and
// Applebot follow Googlebot's group (partial, with the note), GPTBot the
// "*" group (full), AdsBot-Google none (ignores *).
func TestDocumentedLabels(t *testing.T) {
	body := "User-agent: Googlebot\nDisallow: /x\n\nUser-agent: *\nDisallow: /\n"
	p := t.TempDir() + "/d.warc.gz"
	writeWARC(t, p, []capture{{url: "https://d.example/robots.txt", status: 200, body: body}})
	agents, _ := ReadAgents(strings.NewReader("Googlebot-Image\nApplebot\nGPTBot\nAdsBot-Google\nGooglebot\n"))
	out, _ := run(t, Config{Inputs: []string{p}, Paths: []string{"/", "/x"}, Format: FormatJSONL, Agents: agents})
	want := map[string][2]string{
		"Googlebot-Image": {LabelPartial, "obeys Googlebot"},
		"Applebot":        {LabelPartial, "obeys Googlebot"},
		"GPTBot":          {LabelFull, ""},
		"AdsBot-Google":   {LabelNone, "ignores *"},
		"Googlebot":       {LabelPartial, ""},
	}
	rows := decodeRows(t, out)
	for _, r := range rows {
		if w := want[r.Agent]; r.Label != w[0] || r.Documented != w[1] {
			t.Errorf("%s: label %s documented %q, want %s %q", r.Agent, r.Label, r.Documented, w[0], w[1])
		}
	}
	if len(rows) != len(want) {
		t.Errorf("%d rows", len(rows))
	}
}

// TestURLRowsUsage: -urls rows carry the Content-Usage and Content-Signal
// columns, the same values as -paths mode's verdict for the same path
// (both from verdict).
func TestURLRowsUsage(t *testing.T) {
	body := "Content-Signal: ai-train=no\nUser-agent: *\nContent-Usage: train-ai=n\nContent-Usage: /open/ train-ai=y\nDisallow: /private/\n"
	p := t.TempDir() + "/u.warc.gz"
	writeWARC(t, p, []capture{{url: "https://u.example/robots.txt", status: 200, body: body}})
	agents, _ := ReadAgents(strings.NewReader("GPTBot\nAdsBot-Google\n"))
	paths := []string{"/", "/open/x", "/private/x"}
	out, _ := run(t, Config{Inputs: []string{p}, Paths: paths, Format: FormatJSONL, Agents: agents})
	rows := decodeRows(t, out)
	var list strings.Builder
	for _, path := range paths {
		list.WriteString("https://u.example" + path + "\n")
	}
	out, _ = run(t, Config{Inputs: []string{p}, URLs: strings.NewReader(list.String()), Format: FormatJSONL, Agents: agents})
	n, stated := 0, 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var u URLRow
		if err := json.Unmarshal([]byte(line), &u); err != nil {
			t.Fatal(err)
		}
		path := strings.TrimPrefix(u.URL, "https://u.example")
		for _, r := range rows {
			if r.Agent != u.Agent {
				continue
			}
			for _, v := range r.Verdicts {
				if v.Path == path {
					n++
					if v.ContentUsage != u.ContentUsage || v.ContentSignal != u.ContentSignal || *v.Allowed != *u.Allowed || v.Line != u.Line {
						t.Errorf("%s %s: -urls %+v; -paths %+v", u.Agent, path, u, v)
					}
					if u.ContentUsage != "" && u.ContentSignal != "" {
						stated++
					}
				}
			}
		}
	}
	if n != len(paths)*len(agents) || stated == 0 {
		t.Errorf("%d rows compared (want %d), %d with both preferences stated", n, len(paths)*len(agents), stated)
	}
}
