package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"time"
)

// table collects the rows of the Markdown table.
type table struct{ rows [][]string }

func (t *table) row(measure, temoto, grobot, ours, ratio, target string, met bool) {
	mark := " ✓"
	if !met {
		mark = " ✗"
	}
	if target == "reference for the rows below" {
		mark = ""
	}
	t.rows = append(t.rows, []string{measure, temoto, grobot, ours, ratio, target + mark})
}

func (t *table) print(w io.Writer) {
	fmt.Fprintln(w, "| measure | temoto | grobotstxt | ours | ours vs temoto | target |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|")
	for _, r := range t.rows {
		fmt.Fprintf(w, "| %s |\n", strings.Join(r, " | "))
	}
}

func printHeader(w io.Writer, nReal, nAll, nSynth, rounds int, batch time.Duration, every int) {
	fmt.Fprintf(w, "Machine: %d CPUs (GOMAXPROCS %d), %s, %s %s/%s.\n",
		runtime.NumCPU(), runtime.GOMAXPROCS(0), cpuModel(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
	fmt.Fprintf(w, "Libraries: %s.\n", versions())
	fmt.Fprintf(w, "Corpus: %d of %d real files (every %d), %d synthetic; %d timed rounds, batches ≥ %v.\n",
		nReal, nAll, every, nSynth, rounds, batch)
}

// loadAvg returns the 1-minute load average, which tells how much the
// machine was shared during the run.
func loadAvg() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	if f := strings.Fields(string(data)); len(f) > 0 {
		return f[0]
	}
	return "unknown"
}

func cpuModel() string {
	data, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return "unknown CPU"
	}
	for _, line := range strings.Split(string(data), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "unknown CPU"
}

// versions names the module versions in the build, and the commit of ours.
func versions() string {
	var out []string
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			if strings.HasSuffix(d.Path, "/temoto/robotstxt") || strings.HasSuffix(d.Path, "/grobotstxt") {
				out = append(out, d.Path+" "+d.Version)
			}
		}
	}
	ours := "ours from ../"
	if rev, err := exec.Command("git", "-C", "..", "rev-parse", "--short", "HEAD").Output(); err == nil {
		ours += " at " + strings.TrimSpace(string(rev))
		if st, err := exec.Command("git", "-C", "..", "status", "--porcelain", "--untracked-files=no").Output(); err == nil && len(st) > 0 {
			ours += " (with uncommitted changes)"
		}
	}
	return strings.Join(append(out, ours), ", ")
}

// f3 formats a number with three significant digits.
func f3(v float64) string {
	switch {
	case math.IsNaN(v):
		return "–"
	case v == 0:
		return "0"
	case math.Abs(v) >= 100:
		return fmt.Sprintf("%.0f", v)
	case math.Abs(v) >= 10:
		return fmt.Sprintf("%.1f", v)
	case math.Abs(v) >= 1:
		return fmt.Sprintf("%.2f", v)
	}
	return fmt.Sprintf("%.3g", v)
}

// fns formats nanoseconds with a unit.
func fns(ns float64) string {
	switch {
	case math.IsNaN(ns):
		return "–"
	case ns >= 1e9:
		return f3(ns/1e9) + " s"
	case ns >= 1e6:
		return f3(ns/1e6) + " ms"
	case ns >= 1e3:
		return f3(ns/1e3) + " µs"
	}
	return f3(ns) + " ns"
}

func fsize(n int) string {
	switch {
	case n >= 1<<20:
		return f3(float64(n)/(1<<20)) + " MiB"
	case n >= 1<<10:
		return f3(float64(n)/(1<<10)) + " KiB"
	}
	return fmt.Sprintf("%d B", n)
}

// higherBetter describes ours against temoto for a measure where more is
// better, such as throughput.
func higherBetter(ours, temoto float64, word string) string {
	if math.IsNaN(ours) || math.IsNaN(temoto) || ours <= 0 || temoto <= 0 {
		return "–"
	}
	return compare(ours/temoto, word)
}

// lowerBetter describes ours against temoto for a measure where less is
// better, such as time or memory.
func lowerBetter(ours, temoto float64, word string) string {
	if math.IsNaN(ours) || math.IsNaN(temoto) || ours <= 0 || temoto <= 0 {
		return "–"
	}
	return compare(temoto/ours, word)
}

func compare(x float64, word string) string {
	if x >= 1 {
		return f3(x) + "× " + word
	}
	opposite := map[string]string{"faster": "slower", "smaller": "larger"}[word]
	return f3(1/x) + "× " + opposite
}

// markdown prints a Markdown table with the given header.
func markdown(w io.Writer, header []string, rows [][]string) {
	fmt.Fprintf(w, "| %s |\n", strings.Join(header, " | "))
	fmt.Fprintf(w, "|%s\n", strings.Repeat("---|", len(header)))
	for _, r := range rows {
		fmt.Fprintf(w, "| %s |\n", strings.Join(r, " | "))
	}
}

// section starts a titled part of the report.
func section(w io.Writer, title string) {
	fmt.Fprintf(w, "\n### %s\n\n", title)
}

// spread formats the median of v and its range over the rounds.
func spread(v []float64, format func(float64) string) string {
	if len(v) == 0 {
		return "–"
	}
	lo, hi := slices.Min(v), slices.Max(v)
	return fmt.Sprintf("%s (%s–%s)", format(median(v)), format(lo), format(hi))
}

// pct formats a share as a percentage.
func pct(share float64) string {
	if math.IsNaN(share) {
		return "–"
	}
	return fmt.Sprintf("%.1f%%", 100*share)
}

// mark is the ✓ or ✗ after a target.
func mark(target string, met bool) string {
	if met {
		return target + " ✓"
	}
	return target + " ✗"
}

// commas formats a count with thousands separators.
func commas(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
