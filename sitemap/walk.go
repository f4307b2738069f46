package sitemap

import (
	"context"
	"errors"
	"iter"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"time"

	"github.com/robotstxt-go/robotstxt"
	"github.com/robotstxt-go/robotstxt/fetch"
	"github.com/robotstxt-go/robotstxt/internal/redirect"
)

// Defaults of [WalkOptions].
const (
	// DefaultMaxSitemaps caps the sitemaps read in one walk, indexes
	// included.
	DefaultMaxSitemaps = 1000
	// DefaultTimeout bounds the fetch and reading of one sitemap.
	DefaultTimeout = 2 * time.Minute
	// DefaultMaxTracked bounds the URLs remembered to find duplicates
	// across a walk: a 64-bit hash of each, in a map ([Seen]).
	DefaultMaxTracked = 200000
	// DefaultMaxCrossHosts bounds the other hosts whose robots.txt is read
	// to see whether it names a sitemap (cross-submission).
	DefaultMaxCrossHosts = 16
)

// WalkOptions configure [Walk]. The zero value of each field picks its
// default.
type WalkOptions struct {
	// Cache holds the robots.txt rules: the Sitemap lines of each host,
	// and the decision for each entry. Nil means a new cache with default
	// Options, which has no identity: give the crawler's.
	Cache *fetch.Cache

	// Transport fetches the sitemaps: give the crawler's own, made with
	// the same Cache and paced as its pages are, so that sitemaps are
	// fetched under its identity, at its pace, and only where the
	// robots.txt of the sitemap's own host allows. Nil means
	// fetch.NewTransport(nil, Cache).
	Transport *fetch.Transport

	// Decide, when set, has each entry carry the crawler's decision for
	// its URL ([fetch.Cache.DecideNow]): allowed or not, and the deciding
	// line. An entry whose robots.txt is unreachable stops no walk: its
	// Decision says so by its Source, at once, where [fetch.Cache.Decide]
	// would wait and return a [*fetch.RetryError].
	Decide bool

	// MaxSitemaps caps the sitemaps read (default DefaultMaxSitemaps);
	// MaxRedirects caps the redirects followed for each (default
	// as many as [fetch.Fetch] follows for a robots.txt); Timeout bounds each sitemap's fetch and reading
	// (default DefaultTimeout).
	MaxSitemaps  int
	MaxRedirects int
	Timeout      time.Duration

	// MaxURLs and MaxBytes bound each file as [Options] does
	// (defaults MaxURLs and MaxBytes).
	MaxURLs  int
	MaxBytes int64

	// MaxTracked bounds the URLs remembered to find duplicates across
	// the walk (default DefaultMaxTracked); MaxCrossHosts bounds the
	// other hosts asked whether they name a sitemap (default
	// DefaultMaxCrossHosts).
	MaxTracked    int
	MaxCrossHosts int

	// OnFinding, when not nil, is called with each finding, of the files
	// and of the walk, as it is found.
	OnFinding func(Finding)

	// OnSitemap, when not nil, is called after each sitemap is read.
	OnSitemap func(Visit)
}

// WalkEntry is a page that a site's sitemaps list.
type WalkEntry struct {
	Entry
	// Decision is the crawler's decision for Loc when
	// WalkOptions.Decide is set, nil otherwise.
	Decision *fetch.Decision
}

// Visit tells what reading one sitemap gave.
type Visit struct {
	URL      string // the sitemap's URL, as listed
	Served   string // the URL it was read from, after redirects; "" when no answer came
	Parent   string // the index that listed it (its Served URL), or ""
	NamedBy  string // the robots.txt that names it (or its index), or ""
	Status   int    // the HTTP status, 0 when no answer came
	Kind     Kind   // the format read
	Entries  int    // the entries read: pages, or the sitemaps of an index
	Findings int    // the findings of the file
	Err      error  // why it could not be fetched or read to its end, if so
}

// Walk returns an iterator over the pages that the sitemaps of a
// site list, read one file at a time as they stream in. start is a site
// ("https://example.com/": the sitemaps its robots.txt names, or
// /sitemap.xml when it names none) or a sitemap (any other URL).
//
// An index is followed one level down, as sitemaps.org allows: an index
// listed by an index is reported (NestedIndex), not read. Each sitemap is
// read at most once (Loop), at most MaxSitemaps in all. A sitemap may list
// the URLs of its own directory (InScope), and any URL of a host
// whose robots.txt names it or the index that listed it (sitemaps.org,
// "Sitemaps & Cross Submits"); other entries are reported (Outside) and
// dropped. A redirected sitemap is judged where it was served from: its
// directory there, and the hosts whose robots.txt names that URL or its
// index; after a redirect to another origin, the robots.txt that named the
// URL as listed grants it nothing, so that a redirect never lets another
// host list the URLs of the host that redirected. Its entries and
// findings name the URL that served it (Visit.Served). A URL listed
// twice in the walk is yielded once.
//
// Timeout bounds each sitemap, so that a server that drips its bytes
// costs at most that per sitemap; ctx bounds the whole walk. The
// robots.txt of at most MaxCrossHosts other hosts is read to check
// cross-submission, so that a sitemap listing a million hosts costs that
// many robots.txt requests, not a million; past them, entries on new hosts
// are outside.
//
// What is wrong is a [Finding] given to OnFinding; a sitemap that
// cannot be fetched is one of them. The iterator yields a non-nil error
// only when the walk cannot go on: ctx ended, start is no http(s) URL, or
// a decision failed (an [*fetch.AgentError]).
func Walk(ctx context.Context, start string, o *WalkOptions) iter.Seq2[WalkEntry, error] {
	return func(yield func(WalkEntry, error) bool) {
		w := newWalker(o)
		if err := w.walk(ctx, start, yield); err != nil {
			yield(WalkEntry{}, err)
		}
	}
}

// walker is one walk of Walk.
type walker struct {
	o      WalkOptions
	client *http.Client
	seen   *Seen               // page URLs yielded, and sitemaps listed by indexes
	read   map[string]bool     // sitemaps queued or read
	queue  []sitemapItem       // sitemaps to read, in order
	named  map[string][]string // host prefix → the sitemaps its robots.txt names
	capped bool                // TooManySitemaps was reported
}

// sitemapItem is a sitemap to read.
type sitemapItem struct {
	url     string
	parent  string // the index that listed it
	namedBy string // the prefix ("https://example.com/") of the host whose robots.txt names it or its index
	robots  string // that robots.txt
}

// Why a sitemap's redirects were not followed (a Redirects finding).
var (
	errSitemapLoop      = errors.New("redirect loop")
	errSitemapRedirects = errors.New("too many redirects")
)

func newWalker(o *WalkOptions) *walker {
	w := &walker{read: map[string]bool{}, named: map[string][]string{}}
	if o != nil {
		w.o = *o
	}
	if w.o.Cache == nil {
		w.o.Cache = fetch.NewCache(nil)
	}
	if w.o.Transport == nil {
		w.o.Transport = fetch.NewTransport(nil, w.o.Cache)
	}
	if w.o.MaxSitemaps <= 0 {
		w.o.MaxSitemaps = DefaultMaxSitemaps
	}
	if w.o.MaxRedirects <= 0 {
		w.o.MaxRedirects = redirect.Max
	}
	if w.o.Timeout <= 0 {
		w.o.Timeout = DefaultTimeout
	}
	if w.o.MaxTracked <= 0 {
		w.o.MaxTracked = DefaultMaxTracked
	}
	if w.o.MaxCrossHosts <= 0 {
		w.o.MaxCrossHosts = DefaultMaxCrossHosts
	}
	w.seen = NewSeen(w.o.MaxTracked)
	maxRedirects := w.o.MaxRedirects
	w.client = &http.Client{
		Transport: w.o.Transport,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if redirect.Looped(req, via) {
				return errSitemapLoop
			}
			if len(via) > maxRedirects {
				return errSitemapRedirects
			}
			return nil
		},
	}
	return w
}

// walk reads the sitemaps of start and yields their pages.
func (w *walker) walk(ctx context.Context, start string, yield func(WalkEntry, error) bool) error {
	u, err := url.Parse(start)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return errors.New("robotstxt: " + strconv.Quote(start) + " is no http or https URL")
	}
	if err := w.begin(ctx, u); err != nil {
		return err
	}
	for len(w.queue) > 0 {
		it := w.queue[0]
		w.queue[0] = sitemapItem{}
		w.queue = w.queue[1:]
		more, err := w.readSitemap(ctx, it, yield)
		if err != nil || !more {
			return err
		}
	}
	return nil
}

// begin queues the first sitemaps: those the robots.txt of a site names,
// or the sitemap given.
func (w *walker) begin(ctx context.Context, u *url.URL) error {
	root := u.Scheme + "://" + u.Host + "/"
	if (u.Path == "" || u.Path == "/") && u.RawQuery == "" {
		file, err := w.o.Cache.File(ctx, root)
		if err != nil {
			return err
		}
		robots := rootRobots(file, root)
		names := file.Sitemaps()
		w.rememberNamed(root, names)
		prefix, _ := Prefix(root)
		for _, s := range names {
			w.enqueue(sitemapItem{url: s, namedBy: prefix, robots: robots})
		}
		if len(names) == 0 {
			w.find(Finding{Sitemap: robots, Code: NoSitemaps, Message: "robots.txt names no sitemap: " + root + "sitemap.xml is tried"})
			w.enqueue(sitemapItem{url: root + "sitemap.xml"})
		}
		return nil
	}
	it := sitemapItem{url: u.String()}
	if by, robots, err := w.namedIn(ctx, it.url, it.url); err != nil {
		return err
	} else if by != "" {
		it.namedBy, it.robots = by, robots
	}
	w.enqueue(it)
	return nil
}

// rootRobots returns the URL of the robots.txt the rules came from.
func rootRobots(r fetch.File, root string) string {
	if r.Result != nil && r.Result.RobotsURL != "" {
		return r.Result.RobotsURL
	}
	return root + "robots.txt"
}

// enqueue queues a sitemap unless it was queued before or the cap is
// reached; it reports whether the sitemap was queued or is a loop.
func (w *walker) enqueue(it sitemapItem) bool {
	if w.read[it.url] {
		what := "already read in this walk"
		if it.url == it.parent {
			what = "an index listing itself"
		}
		w.find(Finding{Sitemap: it.parent, Code: Loop, Message: what + ": not read again", URL: it.url})
		return true
	}
	if len(w.read) >= w.o.MaxSitemaps {
		if !w.capped {
			w.capped = true
			w.find(Finding{Sitemap: it.parent, Code: TooManySitemaps,
				Message: "more than " + strconv.Itoa(w.o.MaxSitemaps) + " sitemaps: the rest are not read", URL: it.url})
		}
		return false
	}
	w.read[it.url] = true
	w.queue = append(w.queue, it)
	return true
}

func (w *walker) find(f Finding) {
	if w.o.OnFinding != nil {
		w.o.OnFinding(f)
	}
}

// readSitemap fetches one sitemap and yields its pages, or queues the
// sitemaps of an index. It reports whether the walk goes on.
func (w *walker) readSitemap(ctx context.Context, it sitemapItem, yield func(WalkEntry, error) bool) (bool, error) {
	visit := Visit{URL: it.url, Parent: it.parent, NamedBy: it.robots}
	defer func() {
		if w.o.OnSitemap != nil {
			w.o.OnSitemap(visit)
		}
	}()
	fctx, cancel := context.WithTimeout(ctx, w.o.Timeout)
	defer cancel()
	resp, err := w.get(fctx, it.url)
	if err != nil {
		visit.Err = err
		if ctx.Err() != nil {
			return false, ctx.Err()
		}
		w.fetchFailed(it, err)
		return true, nil
	}
	defer resp.Body.Close()
	doc := served(it, resp)
	visit.Status, visit.Served = resp.StatusCode, doc.url
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		w.find(Finding{Sitemap: it.url, Code: Status, Message: "answered " + resp.Status + ": not read"})
		return true, nil
	}
	dir, _ := Prefix(doc.url) // once per sitemap; "" when none, and Under refuses every loc
	r := NewReader(resp.Body, &Options{
		URL:         doc.url,
		ContentType: resp.Header.Get("Content-Type"),
		MaxURLs:     w.o.MaxURLs,
		MaxBytes:    w.o.MaxBytes,
		Allow:       func(loc string) bool { return w.allowed(ctx, doc, dir, loc) },
		Seen:        w.seen,
		OnFinding:   func(f Finding) { visit.Findings++; w.find(f) },
	})
	more, err := w.entries(ctx, doc, r, yield)
	visit.Kind, visit.Entries = r.Kind(), r.Count()
	var rerr *readError
	if errors.As(err, &rerr) {
		visit.Err = rerr.err
		if ctx.Err() != nil {
			return false, ctx.Err()
		}
		w.find(Finding{Sitemap: it.url, Code: Unreachable,
			Message: "reading stopped after " + strconv.Itoa(r.Count()) + " entries: " + rerr.err.Error()})
		return true, nil
	}
	return more, err
}

// served returns the sitemap as the document that resp carries: its URL
// is where it was served from, after redirects, since sitemaps.org's
// location rule ("Sitemap file location") is about the location of the
// document. A redirect to another origin also drops namedBy: a host's
// robots.txt named the URL as listed, not the document another origin
// serves, so that a redirect never lets another host list the URLs of the
// host that redirected. The cross-submissions that name the served URL, or
// the index that listed it, still hold (allowed asks for them). Without a
// redirect, the sitemap keeps the URL it was listed under, byte for byte,
// as the robots.txt lines that name it are written.
func served(it sitemapItem, resp *http.Response) sitemapItem {
	final := resp.Request
	if final == nil || final.URL == nil || final.Response == nil {
		return it // not redirected: Request.Response is the redirect that made a request
	}
	u := final.URL.String()
	from, err1 := robotstxt.Origin(it.url)
	to, err2 := robotstxt.Origin(u)
	if err1 != nil || err2 != nil || from != to {
		it.namedBy, it.robots = "", ""
	}
	it.url = u
	return it
}

// readError is a failure to read a sitemap's body.
type readError struct{ err error }

func (e *readError) Error() string { return e.err.Error() }

// entries reads the entries of one sitemap, it as served.
func (w *walker) entries(ctx context.Context, it sitemapItem, r *Reader, yield func(WalkEntry, error) bool) (bool, error) {
	for e, err := range r.All() {
		if err != nil {
			return true, &readError{err}
		}
		if r.Kind() == Index {
			if it.parent != "" {
				w.find(Finding{Sitemap: it.url, Code: NestedIndex,
					Message: "an index listed by the index " + it.parent + ": sitemaps.org allows one level, its sitemaps are not read"})
				return true, nil
			}
			if !w.enqueue(sitemapItem{url: e.Loc, parent: it.url, namedBy: it.namedBy, robots: it.robots}) {
				return true, nil
			}
			continue
		}
		se := WalkEntry{Entry: e}
		if w.o.Decide {
			d, err := w.o.Cache.DecideNow(ctx, e.Loc)
			if err != nil {
				return false, err
			}
			se.Decision = &d
		}
		if !yield(se, nil) {
			return false, nil
		}
	}
	return true, nil
}

// get fetches a sitemap through the crawler's Transport.
func (w *walker) get(ctx context.Context, u string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	return w.client.Do(req)
}

// fetchFailed reports a sitemap that could not be fetched.
func (w *walker) fetchFailed(it sitemapItem, err error) {
	f := Finding{Sitemap: it.url, Code: Unreachable, Message: "not fetched: " + err.Error()}
	var d *fetch.DisallowedError
	switch {
	case errors.As(err, &d):
		f.Code = Disallowed
		f.Message = "disallowed by " + d.RobotsURL
		if d.Line > 0 {
			f.Message += " line " + strconv.Itoa(d.Line) + " (Disallow: " + d.Rule + ")"
		}
		f.Message += ": not fetched"
	case errors.Is(err, errSitemapLoop), errors.Is(err, errSitemapRedirects):
		f.Code = Redirects
	}
	w.find(f)
}

// allowed reports whether the sitemap it, as served, may list loc: loc is
// in the sitemap's directory dir (Prefix of it.url, "" for none),
// or under the host whose robots.txt named the sitemap or its index, or on
// another host whose robots.txt names the sitemap or its index
// (cross-submission).
func (w *walker) allowed(ctx context.Context, it sitemapItem, dir, loc string) bool {
	if Under(dir, loc) || it.namedBy != "" && Under(it.namedBy, loc) {
		return true
	}
	by, _, err := w.namedIn(ctx, loc, it.url, it.parent)
	return err == nil && by != ""
}

// namedIn reports the host prefix and robots.txt of loc's host when that
// robots.txt names one of sitemaps. Past MaxCrossHosts hosts asked, it
// asks no more and reports "".
func (w *walker) namedIn(ctx context.Context, loc string, sitemaps ...string) (by, robots string, err error) {
	u, err := url.Parse(loc)
	if err != nil || u.Host == "" {
		return "", "", nil
	}
	root := u.Scheme + "://" + u.Host + "/"
	prefix, ok := Prefix(root)
	if !ok {
		return "", "", nil
	}
	names, asked := w.named[prefix]
	if !asked {
		if len(w.named) >= w.o.MaxCrossHosts {
			return "", "", nil
		}
		file, err := w.o.Cache.File(ctx, root)
		if err != nil {
			return "", "", err
		}
		names = file.Sitemaps()
		w.rememberNamed(root, names)
	}
	for _, s := range sitemaps {
		if s != "" && slices.Contains(names, s) {
			return prefix, root + "robots.txt", nil
		}
	}
	return "", "", nil
}

// rememberNamed keeps the sitemaps that the robots.txt of root names.
func (w *walker) rememberNamed(root string, names []string) {
	if prefix, ok := Prefix(root); ok {
		w.named[prefix] = names
	}
}
