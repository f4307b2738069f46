package robotstxt

import (
	"strings"
	"testing"
)

// BenchmarkUsageLines compares queries on a file and on the same file with
// Content-Usage and Content-Signal lines in every group (usageBenchBody):
// Allowed and Decide never read the usage records, so they must cost the
// same on both; Usage costs Decide and then a test of each usage line of
// the agent's groups. Run it as
//
//	go test -run '^$' -bench UsageLines -benchmem -count 10 . | benchstat -col /lines -
var usageBenchCases = []struct {
	name, file string
	agent, url string
}{
	{"small/named", "small.txt", "Googlebot", "https://shop.example.com/products/blue-shoes-42"},
	{"small/global", "small.txt", "UnknownBot", "https://shop.example.com/blog/2024/a-post"},
	{"agents/named", "agents.txt", "GPTBot", "https://blog.example.com/2024/05/a-post/"},
	{"large/named", "large.txt", "Googlebot", "https://www.example.com/news/2024/05/a-story.html"},
	{"large/global", "large.txt", "UnknownBot", "https://www.example.com/news/2024/05/a-story.html"},
}

func BenchmarkUsageLines(b *testing.B) {
	for _, c := range usageBenchCases {
		plain := readTestdata(b, c.file)
		files := []struct {
			lines string
			r     *Robots
		}{{"without", Parse(plain)}, {"with", Parse(usageBenchBody(plain))}}
		if files[0].r.Allowed(c.agent, c.url) != files[1].r.Allowed(c.agent, c.url) {
			b.Fatalf("%s: the usage lines moved the answer", c.name)
		}
		for _, f := range files {
			b.Run("op=Allowed/case="+strings.ReplaceAll(c.name, "/", "-")+"/lines="+f.lines, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					boolSink = f.r.Allowed(c.agent, c.url)
				}
			})
			b.Run("op=Decide/case="+strings.ReplaceAll(c.name, "/", "-")+"/lines="+f.lines, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					decisionSink = f.r.Decide(c.agent, c.url)
				}
			})
			b.Run("op=Usage/case="+strings.ReplaceAll(c.name, "/", "-")+"/lines="+f.lines, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					usageSink = f.r.Usage(c.agent, c.url)
				}
			})
		}
	}
}
