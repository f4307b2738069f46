package audit_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/robotstxt-go/robotstxt/audit"
)

// A site disallowed /private/ all along; Googlebot fetched robots.txt and
// kept out, GPTBot never fetched it and went in.
func ExampleRunLogs() {
	dir, _ := os.MkdirTemp("", "logs")
	defer os.RemoveAll(dir)
	robots := filepath.Join(dir, "robots.txt")
	os.WriteFile(robots, []byte("User-agent: *\nDisallow: /private/\n"), 0o644)
	log := filepath.Join(dir, "access.log")
	os.WriteFile(log, []byte(strings.Join([]string{
		`66.249.66.1 - - [02/Mar/2026:10:00:00 +0100] "GET /robots.txt HTTP/1.1" 200 35 "-" "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"`,
		`66.249.66.1 - - [02/Mar/2026:10:00:02 +0100] "GET /about HTTP/1.1" 200 512 "-" "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"`,
		`20.171.207.1 - - [02/Mar/2026:10:01:00 +0100] "GET /private/plans HTTP/1.1" 200 512 "-" "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.1; +https://openai.com/gptbot"`,
		`192.0.2.7 - - [02/Mar/2026:10:02:00 +0100] "GET /private/plans HTTP/1.1" 200 512 "-" "Mozilla/5.0 (X11; Linux x86_64) Firefox/120.0"`,
	}, "\n")+"\n"), 0o644)

	hist, _, err := audit.ReadRobotsHistory(context.Background(), robots, "")
	if err != nil {
		panic(err)
	}
	res, err := audit.RunLogs(context.Background(), audit.LogConfig{Logs: []string{log}, History: hist}, io.Discard)
	if err != nil {
		panic(err)
	}
	for _, c := range res.Crawlers {
		fmt.Printf("%s: %d requests, %d violations, %d without a robots.txt fetch\n", c.Crawler, c.Requests, c.Violations, c.NoRobotsFetch)
	}
	fmt.Println("not judged:", res.Other)
	// Output:
	// GPTBot: 1 requests, 1 violations, 1 without a robots.txt fetch
	// Googlebot: 2 requests, 0 violations, 0 without a robots.txt fetch
	// not judged: 1
}
