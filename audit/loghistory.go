package audit

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/robotstxt-go/robotstxt"
)

// RobotsVersion is one robots.txt of a site's history: what the site served
// at /robots.txt from From on.
type RobotsVersion struct {
	From   time.Time // when it went live; the zero Time for a file that was live all along
	Status int       // the HTTP status it was served with
	Source string    // where it was read: the file, or the input and offset of its capture
	Rules  *robotstxt.Robots

	always bool  // live all along
	nanos  int64 // From in Unix nanoseconds, math.MinInt64 when always
	sum    [32]byte
}

// Label names the version in outputs: its RFC 3339 time, or "always".
func (v *RobotsVersion) Label() string {
	if v.always {
		return "always"
	}
	return v.From.UTC().Format(time.RFC3339)
}

// RobotsHistory is what a site served at /robots.txt over time, oldest
// first. Each version's rules are robotstxt.FromStatus of its status and
// body (RFC 9309 §2.3.1: 2xx parsed, 4xx allow all, 5xx and 429 disallow
// all).
type RobotsHistory struct {
	Site     string // the origin the captures were of, when read from captures
	Versions []RobotsVersion
}

// ReadRobotsHistory reads a site's robots.txt history from path:
//
//   - a manifest, a file named *.tsv: one version a line, "time<TAB>status<TAB>file",
//     the time in RFC 3339 (or as a log writes it: see LogFields.Time), the
//     file relative to the manifest ("-" or nothing for a response
//     without a body, such as a 404 or a 503); '#' lines and a first line
//     starting "time" are skipped;
//   - a WARC file or the audit's JSON Lines of captures: each capture of a
//     robots.txt URL with a date (WARC-Date, "date") is a version from that
//     date. When the captures are of several sites, site (an origin such as
//     "https://example.com") says which; a redirect (3xx) is not a version
//     (the version before it stays in force: give the capture of its
//     target) and is reported as a problem;
//   - any other file: the body of a robots.txt served with status 200 all
//     along.
//
// Versions are sorted by time; a version identical to the one before it
// (same status and body) is dropped, and of two with the same time the one
// read last is kept.
func ReadRobotsHistory(ctx context.Context, path, site string) (*RobotsHistory, []Problem, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, nil, err
	}
	if st.IsDir() {
		return nil, nil, fmt.Errorf("%s: a directory; give a manifest (.tsv), captures (.warc, .jsonl) or one robots.txt file", path)
	}
	h := &RobotsHistory{}
	var problems []Problem
	lower := strings.ToLower(path)
	switch kind, _ := Kind(path); {
	case strings.HasSuffix(lower, ".tsv"):
		if err := h.readManifest(path); err != nil {
			return nil, nil, err
		}
	case kind == "warc" || kind == "jsonl":
		if problems, err = h.readCaptures(ctx, path, site); err != nil {
			return nil, problems, err
		}
	default:
		body, err := os.ReadFile(path)
		if err != nil {
			return nil, nil, err
		}
		h.add(RobotsVersion{Status: 200, Source: path, always: true, nanos: math.MinInt64}, body)
	}
	if len(h.Versions) == 0 {
		return nil, problems, fmt.Errorf("%s: no robots.txt version", path)
	}
	h.settle()
	return h, problems, nil
}

func (h *RobotsHistory) add(v RobotsVersion, body []byte) {
	v.Rules = robotstxt.FromStatus(v.Status, body)
	s := sha256.New()
	// What of a status decides the rules (robotstxt.FromStatus): a 2xx's
	// body is read, every other 4xx allows all, and the rest disallows all.
	fmt.Fprintf(s, "%d\n", v.Rules.Kind())
	if v.Rules.Kind() == robotstxt.Parsed {
		s.Write(body)
	}
	copy(v.sum[:], s.Sum(nil))
	if !v.always {
		v.From = time.Unix(0, v.nanos)
	}
	h.Versions = append(h.Versions, v)
}

// settle sorts the versions and drops repeats.
func (h *RobotsHistory) settle() {
	sort.SliceStable(h.Versions, func(i, j int) bool { return h.Versions[i].nanos < h.Versions[j].nanos })
	out := h.Versions[:0]
	for _, v := range h.Versions {
		if n := len(out); n > 0 && out[n-1].nanos == v.nanos {
			out[n-1] = v // same time: the one read last
			if n > 1 && out[n-2].sum == v.sum {
				out = out[:n-1]
			}
			continue
		}
		if n := len(out); n > 0 && out[n-1].sum == v.sum {
			continue // unchanged
		}
		out = append(out, v)
	}
	h.Versions = out
}

func (h *RobotsHistory) readManifest(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	dir := filepath.Dir(path)
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") || (n == 1 && strings.HasPrefix(strings.ToLower(line), "time")) {
			continue
		}
		fields := strings.Split(line, "\t")
		if len(fields) < 2 || len(fields) > 3 {
			return fmt.Errorf("%s:%d: want time<TAB>status<TAB>file", path, n)
		}
		nanos, _, err := parseAnyTime(strings.TrimSpace(fields[0]))
		if err != nil {
			return fmt.Errorf("%s:%d: %v", path, n, err)
		}
		status, err := strconv.Atoi(strings.TrimSpace(fields[1]))
		if err != nil || status < 100 || status > 999 {
			return fmt.Errorf("%s:%d: the status %q is not an HTTP status", path, n, fields[1])
		}
		var body []byte
		src := path + ":" + strconv.Itoa(n)
		if len(fields) == 3 {
			if file := strings.TrimSpace(fields[2]); file != "" && file != "-" {
				if !filepath.IsAbs(file) {
					file = filepath.Join(dir, file)
				}
				if body, err = os.ReadFile(file); err != nil {
					return fmt.Errorf("%s:%d: %v", path, n, err)
				}
				if len(body) > maxBody {
					body = body[:maxBody] // as Google's crawler reads it
				}
				src = file
			}
		}
		h.add(RobotsVersion{Status: status, Source: src, nanos: nanos}, body)
	}
	return sc.Err()
}

func (h *RobotsHistory) readCaptures(ctx context.Context, path, site string) ([]Problem, error) {
	var problems []Problem
	report := func(p Problem) { problems = append(problems, p) }
	origins := map[string]bool{}
	if site != "" {
		o, err := robotstxt.Origin(strings.TrimSuffix(site, "/") + "/robots.txt")
		if err != nil {
			return nil, fmt.Errorf("-site %q: %v", site, err)
		}
		site = o
	}
	type capture struct {
		v    RobotsVersion
		body []byte
	}
	var caps []capture
	emit := func(c *Capture) {
		key, err := urlKey(c.URL) // the reader has reported a URL with no origin
		if err != nil || !isRobotsURL(key) {
			return
		}
		origin, err := robotstxt.Origin(key)
		if err != nil {
			return
		}
		if site != "" && origin != site {
			return
		}
		origins[origin] = true
		if c.Status >= 300 && c.Status <= 399 {
			report(Problem{Input: c.Input, Offset: c.Offset, Kind: ProblemHTTP, Detail: fmt.Sprintf("a redirect (%d) to %s: not a version; the version before it stays in force", c.Status, quoteShort(c.Location)), Skipped: true})
			return
		}
		nanos, _, err := parseAnyTime(strings.TrimSpace(c.Date))
		if err != nil {
			report(Problem{Input: c.Input, Offset: c.Offset, Kind: ProblemRecord, Detail: "a capture without a usable date: " + err.Error(), Skipped: true})
			return
		}
		caps = append(caps, capture{RobotsVersion{Status: c.Status, Source: c.Input + "@" + strconv.FormatInt(c.Offset, 10), nanos: nanos}, bytes.Clone(c.Body)})
	}
	if err := scanInput(ctx, path, nil, reading{workers: 1}, func(string) bool { return true }, emit, report); err != nil {
		return problems, err
	}
	if len(origins) > 1 {
		var list []string
		for o := range origins {
			list = append(list, o)
		}
		sort.Strings(list)
		return problems, fmt.Errorf("%s holds the robots.txt of %d sites (%s): name one with -site", path, len(list), strings.Join(list, ", "))
	}
	for o := range origins {
		h.Site = o
	}
	for _, c := range caps {
		h.add(c.v, c.body)
	}
	return problems, nil
}

// window returns the versions in force at t (Unix nanoseconds), as RFC 9309
// §2.4 lets a crawler keep a robots.txt up to 24 hours: live is the index
// of the version live at t, and the versions in force are first..live, the
// one live at t−24h and every one that went live in (t−24h, t]. live is -1
// before the first version.
func (h *RobotsHistory) window(t int64) (first, live int) {
	vs := h.Versions
	live = sort.Search(len(vs), func(i int) bool { return vs[i].nanos > t }) - 1
	if live < 0 {
		return 0, -1
	}
	old := t - int64(robotsCacheLimit)
	first = sort.Search(live+1, func(i int) bool { return vs[i].nanos > old }) - 1
	if first < 0 {
		first = 0
	}
	return first, live
}

// robotsCacheLimit is how long a crawler may keep a robots.txt: "crawlers
// SHOULD NOT use the cached version for more than 24 hours" (RFC 9309
// §2.4).
const robotsCacheLimit = 24 * time.Hour
