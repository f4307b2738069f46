package audit

import (
	"fmt"
	"html/template"
	"io"
	"sort"
	"strconv"
	"strings"
	"time"
)

// This file writes what RunLogs found for the people who run the site: one
// HTML file that needs nothing else to be read (its style, script and charts
// are inline; it loads nothing), and a table for the terminal.

// reportData is what the report's template shows.
type reportData struct {
	Site      string
	Generated string
	Inputs    []string
	Lines     int64
	Malformed int64
	Other     int64
	Versions  []reportVersion
	Columns   []string
	Crawlers  []reportCrawler
	Problems  []LogProblem
	Time      chart
	Rules     []ruleBar
	RulesH    int
}

type reportVersion struct {
	From, Status, Rules, Source string
}

type reportCrawler struct {
	ID     string
	Name   string
	Cells  []string
	Rules  []BrokenRule
	Latest []LogRow
}

type chart struct {
	W, H       int
	Lines      []chartLine
	XFrom, XTo string
	YMax       int64
	Unit       string
	Empty      bool
}

type chartLine struct {
	Name, Color, Points string
	Total               int64
	LegendY             int
}

type ruleBar struct {
	Label string
	Count int64
	Y, W  int
}

var chartColors = []string{"#c0392b", "#2471a3", "#229954", "#b9770e", "#7d3c98", "#17a589", "#a04000", "#5d6d7e"}

// WriteLogReport writes the report: the robots.txt versions, a table of
// every crawler (the numbers of the summary, column for column), a chart of
// the violations over time per crawler, the rules broken most, and a
// section per crawler. Every text from the log or the site is escaped.
func WriteLogReport(w io.Writer, r *LogResult) error {
	d := reportData{Site: r.Site, Generated: time.Now().UTC().Format(time.RFC3339), Inputs: r.Inputs, Lines: r.Lines,
		Malformed: r.Malformed, Other: r.Other, Columns: logSummaryHeader(), Problems: r.Problems}
	if d.Site == "" {
		d.Site = "the site"
	}
	for i := range r.Versions {
		v := &r.Versions[i]
		d.Versions = append(d.Versions, reportVersion{From: v.Label(), Status: strconv.Itoa(v.Status), Rules: v.Rules.Kind().String(), Source: v.Source})
	}
	for i, c := range r.Crawlers {
		rc := reportCrawler{ID: "crawler-" + strconv.Itoa(i), Name: c.Crawler, Cells: encodeLogSummary(&c, nil)}
		rc.Rules = r.CrawlerRules[c.Crawler]
		rc.Latest = r.Latest[c.Crawler]
		d.Crawlers = append(d.Crawlers, rc)
	}
	d.Time = timeChart(r)
	top := r.Broken
	if len(top) > 15 {
		top = top[:15]
	}
	var most int64 = 1
	for _, b := range top {
		most = max(most, b.Violations)
	}
	for i, b := range top {
		d.Rules = append(d.Rules, ruleBar{Label: fmt.Sprintf("%s line %d: %s", b.Version, b.Line, b.Rule), Count: b.Violations,
			Y: i * 26, W: int(1 + 460*b.Violations/most)})
	}
	d.RulesH = len(d.Rules)*26 + 4
	return reportTemplate.Execute(w, d)
}

// timeChart draws the violations per crawler over time, by day when the
// log spans more than three days and by hour otherwise, for the eight
// crawlers with the most.
func timeChart(r *LogResult) chart {
	c := chart{W: 900, H: 260}
	type series struct {
		name  string
		total int64
		hours map[int64]int64
	}
	var all []series
	lo, hi := int64(1<<62), int64(-1<<62)
	for name, hours := range r.Series {
		s := series{name: name, hours: hours}
		for h, n := range hours {
			s.total += n
			lo, hi = min(lo, h), max(hi, h)
		}
		all = append(all, s)
	}
	if len(all) == 0 {
		c.Empty = true
		return c
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].total != all[j].total {
			return all[i].total > all[j].total
		}
		return all[i].name < all[j].name
	})
	if len(all) > len(chartColors) {
		all = all[:len(chartColors)]
	}
	step := int64(1)
	c.Unit = "hour"
	if hi-lo > 72 {
		step, c.Unit = 24, "day"
	}
	first, last := floorDiv(lo, step), floorDiv(hi, step)
	n := last - first + 1
	var ymax int64 = 1
	buckets := make([][]int64, len(all))
	for i, s := range all {
		buckets[i] = make([]int64, n)
		for h, v := range s.hours {
			buckets[i][floorDiv(h, step)-first] += v
		}
		for _, v := range buckets[i] {
			ymax = max(ymax, v)
		}
	}
	c.YMax = ymax
	const left, top, plotW, plotH = 50, 10, 640, 210
	for i, s := range all {
		var pts strings.Builder
		for k, v := range buckets[i] {
			x := left + plotW/2
			if n > 1 {
				x = left + int(int64(plotW)*int64(k)/(n-1))
			}
			y := top + plotH - int(int64(plotH)*v/ymax)
			fmt.Fprintf(&pts, "%d,%d ", x, y)
		}
		c.Lines = append(c.Lines, chartLine{Name: s.name, Color: chartColors[i], Points: strings.TrimSpace(pts.String()), Total: s.total, LegendY: 20 + 22*i})
	}
	layout := "2006-01-02 15:00"
	if step == 24 {
		layout = "2006-01-02"
	}
	c.XFrom = time.Unix(first*step*3600, 0).UTC().Format(layout)
	c.XTo = time.Unix(last*step*3600, 0).UTC().Format(layout)
	return c
}

var reportTemplate = template.Must(template.New("report").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Which crawlers ignored robots.txt: {{.Site}}</title>
<style>
body { font: 15px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 1100px; padding: 0 1em; color: #222; }
h1 { font-size: 1.6em; } h2 { margin-top: 2em; border-bottom: 1px solid #ddd; } h3 { margin-top: 1.5em; }
table { border-collapse: collapse; margin: .5em 0; font-size: 14px; }
th, td { border: 1px solid #ccc; padding: 3px 7px; text-align: left; vertical-align: top; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
th[data-sort] { cursor: pointer; background: #f4f4f4; } th[data-sort]:hover { background: #e8e8e8; }
tr.bad td.violations { background: #fdecea; font-weight: bold; }
code { font-size: 13px; overflow-wrap: anywhere; }
.note { color: #555; }
svg text { font: 12px system-ui, sans-serif; fill: #333; }
</style>
</head>
<body>
<h1>Which crawlers ignored robots.txt on <span id="site">{{.Site}}</span></h1>
<p class="note">From {{.Lines}} log lines ({{.Malformed}} did not parse, {{.Other}} requests named no known crawler and were not judged).
A request is a <b>violation</b> when every robots.txt a crawler could hold at its time disallowed it (RFC 9309 §2.4 lets a crawler keep a copy up to 24 hours),
<b>grace</b> when the file live then disallowed it but one of the day before allowed it. Made {{.Generated}}.</p>

<h2>robots.txt versions</h2>
<table id="versions"><thead><tr><th>live from</th><th>status</th><th>rules</th><th>source</th></tr></thead><tbody>
{{range .Versions}}<tr><td>{{.From}}</td><td class="n">{{.Status}}</td><td>{{.Rules}}</td><td><code>{{.Source}}</code></td></tr>
{{end}}</tbody></table>

<h2>Crawlers</h2>
<table id="summary" class="sortable"><thead><tr>{{range .Columns}}<th data-sort>{{.}}</th>{{end}}</tr></thead><tbody>
{{range .Crawlers}}{{$cr := .}}<tr data-crawler="{{.Name}}">{{range $i, $c := .Cells}}<td data-col="{{index $.Columns $i}}" class="{{index $.Columns $i}}{{if and (ge $i 2) (le $i 14)}} n{{end}}">{{if eq $i 0}}<a href="#{{$cr.ID}}">{{$c}}</a>{{else}}{{$c}}{{end}}</td>{{end}}</tr>
{{end}}</tbody></table>

<h2>Violations over time</h2>
{{with .Time}}{{if .Empty}}<p id="time-chart-empty">No violations.</p>{{else}}
<svg id="time-chart" width="{{.W}}" height="{{.H}}" viewBox="0 0 {{.W}} {{.H}}" role="img" aria-label="violations per {{.Unit}} per crawler">
<line x1="50" y1="220" x2="690" y2="220" stroke="#888"/><line x1="50" y1="10" x2="50" y2="220" stroke="#888"/>
<text x="44" y="16" text-anchor="end">{{.YMax}}</text><text x="44" y="224" text-anchor="end">0</text>
<text x="50" y="240">{{.XFrom}}</text><text x="690" y="240" text-anchor="end">{{.XTo}}</text>
<text x="370" y="256" text-anchor="middle">violations per {{.Unit}} (UTC)</text>
{{range .Lines}}<polyline fill="none" stroke="{{.Color}}" stroke-width="2" points="{{.Points}}" data-crawler="{{.Name}}" data-total="{{.Total}}"/>
<rect x="710" y="{{.LegendY}}" width="12" height="12" fill="{{.Color}}"/><text x="728" y="{{.LegendY}}" dy="11">{{.Name}} ({{.Total}})</text>
{{end}}</svg>{{end}}{{end}}

<h2>Rules broken most</h2>
{{if .Rules}}<svg id="rules-chart" width="900" height="{{.RulesH}}" viewBox="0 0 900 {{.RulesH}}" role="img" aria-label="violations per rule">
{{range .Rules}}<rect x="0" y="{{.Y}}" width="{{.W}}" height="20" fill="#c0392b" data-count="{{.Count}}"/><text x="{{.W}}" dx="6" y="{{.Y}}" dy="15">{{.Count}} · {{.Label}}</text>
{{end}}</svg>{{else}}<p>No rule was broken.</p>{{end}}

{{range .Crawlers}}<h3 id="{{.ID}}">{{.Name}}</h3>
<table class="crawler"><tbody>{{range $i, $c := .Cells}}<tr><th>{{index $.Columns $i}}</th><td>{{$c}}</td></tr>{{end}}</tbody></table>
{{if .Rules}}<table class="rules"><thead><tr><th>version</th><th>line</th><th>rule</th><th>violations</th></tr></thead><tbody>
{{range .Rules}}<tr><td>{{.Version}}</td><td class="n">{{.Line}}</td><td><code>{{.Rule}}</code></td><td class="n">{{.Violations}}</td></tr>
{{end}}</tbody></table>{{end}}
{{if .Latest}}<p>Its last violations:</p><table class="latest"><thead><tr><th>time</th><th>address</th><th>request</th><th>user-agent</th><th>rule</th></tr></thead><tbody>
{{range .Latest}}<tr><td>{{.Time}}</td><td>{{.IP}}</td><td><code>{{.Method}} {{.Target}}</code></td><td><code>{{.UserAgent}}</code></td><td>{{.RobotsVersion}} line {{.RobotsLine}}: <code>{{.RobotsRule}}</code></td></tr>
{{end}}</tbody></table>{{end}}
{{end}}

{{if .Problems}}<h2>Lines that do not parse (first {{len .Problems}} of {{.Malformed}})</h2>
<table id="problems"><thead><tr><th>input</th><th>line</th><th>why</th><th>text</th></tr></thead><tbody>
{{range .Problems}}<tr><td>{{.Input}}</td><td class="n">{{.Line}}</td><td>{{.Reason}}</td><td><code>{{.Text}}</code></td></tr>
{{end}}</tbody></table>{{end}}
<p class="note">Inputs: {{range $i, $in := .Inputs}}{{if $i}}, {{end}}<code>{{$in}}</code>{{end}}.</p>
<script>
// Click a column's heading to sort the table by it.
document.querySelectorAll("table.sortable").forEach(function (table) {
  table.querySelectorAll("th[data-sort]").forEach(function (th, col) {
    var down = true;
    th.addEventListener("click", function () {
      var body = table.tBodies[0];
      var rows = Array.prototype.slice.call(body.rows);
      rows.sort(function (a, b) {
        var x = a.cells[col].textContent, y = b.cells[col].textContent;
        var nx = Number(x), ny = Number(y);
        var c = (x !== "" && y !== "" && !isNaN(nx) && !isNaN(ny)) ? nx - ny : x.localeCompare(y);
        return down ? -c : c;
      });
      down = !down;
      rows.forEach(function (r) { body.appendChild(r); });
    });
  });
});
document.querySelectorAll("#summary tbody tr").forEach(function (tr) {
  var v = tr.querySelector("td.violations");
  if (v && Number(v.textContent) > 0) tr.classList.add("bad");
});
document.body.dataset.ready = "1";
</script>
</body>
</html>
`))
