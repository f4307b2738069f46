package audit

import (
	"bufio"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"sync/atomic"
	"testing"
	"time"
)

// genUAs are the User-Agents of the generated big log: browsers and tools
// (most of a real log) and crawlers.
var genUAs = []string{
	"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36",
	"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Safari/605.1.15",
	"Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0",
	"Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1",
	"curl/8.5.0",
	"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/119.0.0.0 Safari/537.36 Edg/119.0.0.0",
	"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
	"Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
	"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.1; +https://openai.com/gptbot)",
	"Mozilla/5.0 (compatible; Bytespider; spider-feedback@bytedance.com)",
	"CCBot/2.0 (https://commoncrawl.org/faq/)",
	"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)",
}

var genPaths = []string{"/", "/index.html", "/blog/2026/03/a-post", "/static/app.js", "/static/style.css", "/images/logo.png",
	"/search?q=robots", "/private/report.pdf", "/api/v1/items?page=2", "/new-secret/plan", "/robots.txt", "/products/42"}

// writeGenLog writes n lines of Combined Log Format over ten days from
// siteStart, in time order, from the generated site's crawlers and
// browsers (80% of the lines).
func writeGenLog(w io.Writer, n int, seed uint64) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	rng := rand.New(rand.NewPCG(seed, 11))
	span := int64(10 * 24 * 3600)
	var line []byte
	lastSec := int64(-1)
	var stamp []byte
	for i := range n {
		sec := int64(i) * span / int64(n)
		if sec != lastSec {
			lastSec = sec
			stamp = siteStart.Add(time.Duration(sec)*time.Second).In(time.FixedZone("", 3600)).AppendFormat(stamp[:0], "02/Jan/2006:15:04:05 -0700")
		}
		ua := rng.IntN(len(genUAs))
		if rng.IntN(10) < 8 {
			ua = rng.IntN(6) // a browser or a tool
		}
		line = line[:0]
		line = strconv.AppendInt(line, int64(10+rng.IntN(200)), 10)
		line = append(line, '.')
		line = strconv.AppendInt(line, int64(rng.IntN(256)), 10)
		line = append(line, ".0."...)
		line = strconv.AppendInt(line, int64(rng.IntN(256)), 10)
		line = append(line, " - - ["...)
		line = append(line, stamp...)
		line = append(line, "] \"GET "...)
		line = append(line, genPaths[rng.IntN(len(genPaths))]...)
		line = append(line, " HTTP/1.1\" 200 "...)
		line = strconv.AppendInt(line, int64(rng.IntN(50000)), 10)
		line = append(line, " \"https://example.com/\" \""...)
		line = append(line, genUAs[ua]...)
		line = append(line, "\"\n"...)
		if _, err := bw.Write(line); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// TestWriteGenLog writes the generated big log and its history when
// ROBOTSAUDIT_GENLOG names a directory (ROBOTSAUDIT_GENLOG_LINES lines,
// default 10,000,000): access.log, access.log.gz and history/ (a manifest
// of the generated site's four versions). audit/README.md measures with
// them.
func TestWriteGenLog(t *testing.T) {
	dir := os.Getenv("ROBOTSAUDIT_GENLOG")
	if dir == "" {
		t.Skip("set ROBOTSAUDIT_GENLOG to a directory to write the generated log there")
	}
	n := 10_000_000
	if s := os.Getenv("ROBOTSAUDIT_GENLOG_LINES"); s != "" {
		var err error
		if n, err = strconv.Atoi(s); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(dir, "history"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeManifest(t, filepath.Join(dir, "history"))
	f, err := os.Create(filepath.Join(dir, "access.log"))
	if err != nil {
		t.Fatal(err)
	}
	if err := writeGenLog(f, n, 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	g, err := os.Create(filepath.Join(dir, "access.log.gz"))
	if err != nil {
		t.Fatal(err)
	}
	zw := gzip.NewWriter(g)
	if err := writeGenLog(zw, n, 1); err != nil {
		t.Fatal(err)
	}
	zw.Close()
	g.Close()
}

// writeManifest writes the generated site's history as a manifest in dir
// and returns its path.
func writeManifest(t testing.TB, dir string) string {
	t.Helper()
	var m []byte
	m = append(m, "time\tstatus\tfile\n"...)
	for i, v := range siteVersions {
		file := "-"
		if v.body != "" {
			file = fmt.Sprintf("v%d.txt", i)
			if err := os.WriteFile(filepath.Join(dir, file), []byte(v.body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		m = fmt.Appendf(m, "%s\t%d\t%s\n", siteStart.Add(v.at).Format(time.RFC3339), v.status, file)
	}
	p := filepath.Join(dir, "history.tsv")
	if err := os.WriteFile(p, m, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// BenchmarkLogsCLF replays a generated Combined Log Format log (plain) with
// one worker; its MB/s is of log bytes, and lines/s is reported beside.
// identity=none checks no identity; identity=verify-offline checks each
// crawler request's identity with a verify.Verifier given the site's
// prefix files (siteSnapshot), as robotsaudit logs -ranges does. The log's
// addresses are nearly all distinct, so no answer is reused.
func BenchmarkLogsCLF(b *testing.B) {
	dir := b.TempDir()
	p := filepath.Join(dir, "access.log")
	f, err := os.Create(p)
	if err != nil {
		b.Fatal(err)
	}
	const lines = 500_000
	if err := writeGenLog(f, lines, 1); err != nil {
		b.Fatal(err)
	}
	f.Close()
	st, _ := os.Stat(p)
	h := siteHistory(b)
	agents, err := Agents("crawlers,ai.robots.txt")
	if err != nil {
		b.Fatal(err)
	}
	for _, identity := range []string{"none", "verify-offline"} {
		b.Run("identity="+identity, func(b *testing.B) {
			cfg := LogConfig{Logs: []string{p}, History: h, Agents: agents, Workers: 1}
			if identity != "none" {
				cfg.Identifier = VerifierIdentifier(context.Background(), siteVerifier(b, false))
			}
			b.SetBytes(st.Size())
			b.ResetTimer()
			for range b.N {
				res, err := RunLogs(context.Background(), cfg, io.Discard)
				if err != nil || res.Lines != lines {
					b.Fatal(err, res.Lines)
				}
			}
			b.ReportMetric(float64(lines)*float64(b.N)/b.Elapsed().Seconds(), "lines/s")
		})
	}
}

// TestLogsMemoryBounded replays generated logs of 1 and 4 million lines
// and checks that the peak heap does not grow with the log: what a run
// holds is per crawler and per robots.txt version (and per hour of
// violations), not per line.
func TestLogsMemoryBounded(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's shadow memory makes heap sizes meaningless; run without -race")
	}
	if testing.Short() {
		t.Skip("writes 4 million lines")
	}
	dir := t.TempDir()
	h := siteHistory(t)
	var peaks []uint64
	for _, n := range []int{1_000_000, 4_000_000} {
		p := filepath.Join(dir, fmt.Sprintf("access%d.log", n))
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := writeGenLog(f, n, 5); err != nil {
			t.Fatal(err)
		}
		f.Close()
		runtime.GC()
		var peak atomic.Uint64
		stop, done := make(chan struct{}), make(chan struct{})
		go func() {
			defer close(done)
			var ms runtime.MemStats
			for {
				runtime.ReadMemStats(&ms)
				if ms.HeapInuse > peak.Load() {
					peak.Store(ms.HeapInuse)
				}
				select {
				case <-stop:
					return
				case <-time.After(5 * time.Millisecond):
				}
			}
		}()
		res, err := RunLogs(context.Background(), LogConfig{Logs: []string{p}, History: h, Workers: 2, RowsFormat: FormatParquet}, io.Discard)
		close(stop)
		<-done
		if err != nil || res.Lines != int64(n) {
			t.Fatal(err, res.Lines)
		}
		os.Remove(p)
		t.Logf("%d lines: %d rows, peak heap in use %.1f MB", n, res.Rows, float64(peak.Load())/1e6)
		peaks = append(peaks, peak.Load())
	}
	if peaks[1] > peaks[0]*3/2+8<<20 {
		t.Errorf("peak heap grew with the log: %d then %d bytes for four times the lines", peaks[0], peaks[1])
	}
}
