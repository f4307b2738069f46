package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/http/httpguts"

	"github.com/robotstxt-go/robotstxt"
	"github.com/robotstxt-go/robotstxt/aiuse"
	"github.com/robotstxt-go/robotstxt/crawlers"
	"github.com/robotstxt-go/robotstxt/internal/grammar"
	"github.com/robotstxt-go/robotstxt/lint"
)

// This file is the JSON API of robotstxt serve: /api/check, /api/lint,
// /api/fetch and /api/ai. The page calls it, and so may any tool.

// checkRequest is the body of /api/check and /api/lint.
type checkRequest struct {
	Robots string   `json:"robots"`
	Agent  string   `json:"agent"`
	URLs   []string `json:"urls"`
}

// fetchRequest is the body of /api/fetch.
type fetchRequest struct {
	URL       string   `json:"url"`
	Agent     string   `json:"agent"`
	UserAgent string   `json:"user_agent"` // the User-Agent header to send
	URLs      []string `json:"urls"`
}

// checkResponse is what /api/check answers, and the "check" part of what
// /api/fetch answers.
type checkResponse struct {
	Agent        string        `json:"agent"`
	AgentWarning string        `json:"agent_warning,omitempty"`
	Rules        string        `json:"rules"`            // parsed, allow-all or disallow-all
	Reason       string        `json:"reason,omitempty"` // why, when no file was parsed
	Unreadable   bool          `json:"unreadable"`       // an HTML page, UTF-16 or binary data: no rules read
	Agents       []string      `json:"agents"`           // the product tokens the file names
	Group        groupJSON     `json:"group"`            // which groups decide for the agent
	Cut          int           `json:"cut,omitempty"`    // the size of a file cut at 500 KiB, as crawlers cut it
	Results      []resultJSON  `json:"results"`
	Errors       []findingJSON `json:"errors"` // the errors check prints before its answers, at most pageKeep of a kind
}

// groupJSON says which groups decide for an agent.
type groupJSON struct {
	// Applies is "named" when some user-agent line names the agent,
	// "global" when it falls back to the group for "*", "none" when no
	// group applies (every URL is allowed), and "status" when the rules
	// stand for an HTTP status, not a file.
	Applies    string   `json:"applies"`
	AgentLines []int    `json:"agent_lines"`    // the user-agent lines of the groups that decide
	Groups     []int    `json:"groups"`         // their 1-based numbers, as lines carry them
	Ranges     [][2]int `json:"ranges"`         // the first and last line of each
	Summary    string   `json:"summary"`        // the above in a sentence
	Note       string   `json:"note,omitempty"` // what the crawler documents beyond the parser
}

// resultJSON is one URL's answer.
type resultJSON struct {
	URL       string     `json:"url"`
	Allowed   *bool      `json:"allowed,omitempty"` // absent when Error is set
	Line      int        `json:"line,omitempty"`
	Directive string     `json:"directive,omitempty"` // "allow" or "disallow"
	Key       string     `json:"key,omitempty"`       // the key as written
	Rule      string     `json:"rule,omitempty"`      // the value as written
	Explain   string     `json:"explain,omitempty"`   // as robotstxt check prints it
	Error     string     `json:"error,omitempty"`     // the URL is neither an absolute URL nor a path
	Usage     *usageJSON `json:"usage,omitempty"`     // stated Content-Usage and Content-Signal preferences
}

// kindJSON counts the findings of one kind: a severity and a cause.
type kindJSON struct {
	Severity string `json:"severity"`
	Cause    string `json:"cause"`
	Count    int    `json:"count"`
	First    int    `json:"first"` // the line of the first
}

// pageKeep is how many findings of a kind the API answers with; a file of
// 250,000 one-letter lines has as many findings of one kind, which nobody
// reads one by one. The kinds' counts are exact.
const pageKeep = 200

// fetchResponse is what /api/fetch answers.
type fetchResponse struct {
	fetchJSON
	Body     string        `json:"body"`      // the body read; bytes that are not UTF-8 become U+FFFD
	BodyUTF8 bool          `json:"body_utf8"` // the body is UTF-8, so Body is exact
	Text     []string      `json:"text"`      // the lines of Body, numbered as the findings are
	Check    checkResponse `json:"check"`
}

// readRequest decodes a JSON body into v, or, for another content type,
// hands the raw body to raw. A form body that starts with '{' is JSON
// (what curl -d '{...}' sends); a multipart form is refused (415). It writes the error response and returns false
// when the body is bad.
func readRequest(w http.ResponseWriter, r *http.Request, v any, raw func([]byte)) bool {
	body, err := readBody(r)
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		writeError(w, http.StatusRequestEntityTooLarge, tooLarge(tooBig.Limit))
		return false
	case err != nil:
		writeError(w, http.StatusBadRequest, "reading the request: "+err.Error())
		return false
	}
	switch ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); {
	case ct == "application/json":
	case ct == "application/x-www-form-urlencoded" && bytes.HasPrefix(bytes.TrimLeft(body, " \t\r\n"), []byte("{")):
		// curl -d and --data-binary send this type whatever the data:
		// a body that starts with '{', which no robots.txt line does,
		// is the JSON request it was meant to be.
	case ct == "multipart/form-data":
		// curl -F: the body is the form's parts, neither JSON nor a
		// robots.txt.
		writeError(w, http.StatusUnsupportedMediaType, fmt.Sprintf(
			"Content-Type %s (curl -F) is not read: send JSON (curl -H 'Content-Type: application/json' -d '{...}') "+
				"or the robots.txt itself, bytes and all (curl --data-binary @robots.txt)", ct))
		return false
	default:
		raw(body)
		return true
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		writeError(w, http.StatusBadRequest, "the request is not the JSON expected: "+err.Error())
		return false
	}
	if dec.More() || dec.InputOffset() < int64(len(bytes.TrimRight(body, " \t\r\n"))) {
		writeError(w, http.StatusBadRequest, fmt.Sprintf(
			"the request is not the JSON expected: content after the JSON object, from byte %d on", dec.InputOffset()+1))
		return false
	}
	return true
}

// readBody reads the body of r into a buffer of its declared length, so
// that it is held once, not in the doubling buffers of io.ReadAll.
func readBody(r *http.Request) ([]byte, error) {
	if r.ContentLength < 0 || r.ContentLength > maxRequestBody {
		return io.ReadAll(r.Body)
	}
	var b bytes.Buffer
	b.Grow(int(r.ContentLength) + bytes.MinRead)
	_, err := b.ReadFrom(r.Body)
	return b.Bytes(), err
}

// requestFile returns the robots.txt a request carries, cut as cutRobots
// cuts it: the raw body, or, when the request was JSON (body is nil), its
// robots field, which is emptied so that the file is held once.
func requestFile(body []byte, robots *string) ([]byte, int) {
	if body == nil {
		body, *robots = []byte(*robots), ""
	}
	return cutRobots(body)
}

// pastedSource diagnoses a robots.txt a request carries.
func pastedSource(body []byte) *source {
	rep := lint.Diagnose(body)
	return &source{name: "robots.txt", robots: rep.Robots, report: rep}
}

// cutRobots cuts a robots.txt at the 500 KiB that crawlers read, as Google
// does, and returns the size it had when it was longer.
func cutRobots(body []byte) ([]byte, int) {
	if len(body) <= grammar.MaxBodySize {
		return body, 0
	}
	// A copy, so that the rest of the body is not held while the file is
	// analysed.
	return bytes.Clone(body[:grammar.MaxBodySize]), len(body)
}

// emptyAgent answers a request that names no agent: an empty agent would
// match only user-agent lines that name no crawler, which nobody means.
func emptyAgent(w http.ResponseWriter, agent string) bool {
	if strings.TrimSpace(agent) != "" {
		return false
	}
	writeError(w, http.StatusBadRequest, `no agent: name a crawler by its product token, such as Googlebot, or give "*" for any crawler that no group names`)
	return true
}

func (s *server) apiCheck(w http.ResponseWriter, r *http.Request) {
	var req checkRequest
	var body []byte
	ok := readRequest(w, r, &req, func(b []byte) {
		body = b
		q := r.URL.Query()
		req = checkRequest{Agent: q.Get("agent"), URLs: q["url"]}
	})
	if !ok || !validURLCount(w, req.URLs) || emptyAgent(w, req.Agent) {
		return
	}
	body, cut := requestFile(body, &req.Robots)
	s.work(w, r, body, func() {
		src := pastedSource(body)
		resp := checkWith(src, req.Agent, req.URLs)
		resp.Cut = cut
		writeJSON(w, http.StatusOK, resp)
	})
}

func (s *server) apiLint(w http.ResponseWriter, r *http.Request) {
	var req checkRequest
	var body []byte
	ok := readRequest(w, r, &req, func(b []byte) { body = b })
	if !ok {
		return
	}
	body, cut := requestFile(body, &req.Robots)
	s.work(w, r, body, func() {
		writeLint(w, body, cut, lint.Diagnose(body))
	})
}

// writeLint streams the answer of /api/lint (a lintJSON), so that
// the answer for a large file is never held whole in memory.
func writeLint(w http.ResponseWriter, body []byte, cut int, rep *lint.Report) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(http.StatusOK)
	j := lintJSON{Counts: newLintJSON("", rep, false).Counts}
	j.Errors, j.Warnings, j.Infos = severityCounts(rep)
	st := newJSONStream(w)
	st.field("file", "robots.txt")
	if cut > 0 {
		st.field("cut", cut)
	}
	st.field("errors", j.Errors)
	st.field("warnings", j.Warnings)
	st.field("infos", j.Infos)
	st.field("counts", j.Counts)
	st.field("kinds", findingKinds(rep.Findings))
	st.begin("findings")
	for _, f := range summarizeN(rep.Findings, pageKeep, pageKeep) {
		st.item(f.json())
	}
	st.end()
	st.begin("text")
	for _, l := range rep.Lines {
		st.item(l.Text)
	}
	st.end()
	st.close() // the client may be gone; nothing to do then
}

// findingKinds counts the findings of each kind, in the order of their
// first finding.
func findingKinds(findings lint.ErrorList) []kindJSON {
	out := []kindJSON{}
	at := map[findingKind]int{}
	for _, e := range findings {
		i, ok := at[kindOf(e)]
		if !ok {
			i = len(out)
			at[kindOf(e)] = i
			out = append(out, kindJSON{Severity: e.Severity.String(), Cause: e.Err.Error(), First: e.Line})
		}
		out[i].Count++
	}
	return out
}

func (s *server) apiFetch(w http.ResponseWriter, r *http.Request) {
	var req fetchRequest
	ok := readRequest(w, r, &req, func([]byte) {
		q := r.URL.Query()
		req = fetchRequest{URL: q.Get("url"), Agent: q.Get("agent"), UserAgent: q.Get("user_agent"), URLs: q["check"]}
	})
	if !ok || !validURLCount(w, req.URLs) || emptyAgent(w, req.Agent) {
		return
	}
	if !httpguts.ValidHeaderFieldValue(req.UserAgent) {
		writeError(w, http.StatusBadRequest, fmt.Sprintf(
			"user_agent %q cannot be sent as a User-Agent header: it holds a line break or another control character", req.UserAgent))
		return
	}
	// One identity, as robotstxt fetch and check -url take it: the token
	// the header names when the agent is "*", and no answer when the two
	// name different crawlers. An agent that is no token is answered for
	// "*" with a warning, as /api/check does.
	token, header, err := identity(req.Agent, req.UserAgent)
	switch {
	case err != nil && req.UserAgent != "":
		writeError(w, http.StatusBadRequest, err.Error())
		return
	case err != nil:
		header = ""
	default:
		req.Agent = token
	}
	ctx, cancel := context.WithTimeout(r.Context(), serveFetchLimit)
	defer cancel()
	select {
	case s.fetches <- struct{}{}:
		defer func() { <-s.fetches }()
	case <-ctx.Done():
		writeError(w, http.StatusServiceUnavailable, "too many fetches at once; try again")
		return
	}
	res, err := s.fetcher.Fetch(ctx, header, req.URL)
	if err != nil {
		writeError(w, http.StatusBadRequest, describeURLError(err))
		return
	}
	var np *notPublicError
	if errors.As(res.Err, &np) {
		writeError(w, http.StatusForbidden, fmt.Sprintf("refused to fetch %s: %v", res.RobotsURL, np))
		return
	}
	src := res.source()
	text := src.report // the lines of the body, whatever its status
	if text == nil {
		text = lint.Diagnose(res.Body)
	}
	urls := req.URLs
	if len(urls) == 0 {
		urls = []string{req.URL}
	}
	g, _ := crawlers.Group(res.Robots, req.Agent) // as checkWith selects it
	s.work(w, r, res.Body, func() {
		resp := fetchResponse{
			fetchJSON: newFetchJSON(req.URL, req.Agent, res, src, g, g.Usage(robotstxt.NormalizeURL(req.URL))),
			Body:      string(res.Body),
			BodyUTF8:  utf8.Valid(res.Body),
			Text:      textLines(text),
			Check:     checkWith(src, req.Agent, urls),
		}
		if src.report != nil {
			resp.Findings = findingsOf(summarizeN(src.report.Findings, pageKeep, pageKeep))
		}
		writeJSON(w, http.StatusOK, resp)
	})
}

func validURLCount(w http.ResponseWriter, urls []string) bool {
	if len(urls) > maxURLs {
		writeError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("%d URLs: at most %d a request", len(urls), maxURLs))
		return false
	}
	return true
}

// checkWith answers for each URL from src, as robotstxt check does.
func checkWith(src *source, agent string, urls []string) checkResponse {
	resp := checkResponse{
		Agent:        agent,
		AgentWarning: agentWarning(agent, ""),
		Rules:        src.robots.Kind().String(),
		Reason:       src.why,
		Agents:       []string{},
		Results:      []resultJSON{},
		Errors:       []findingJSON{},
	}
	if src.report != nil {
		resp.Unreadable = unreadable(src.report)
		resp.Agents = fileAgents(src.report)
		resp.Errors = findingsOf(summarizeN(answerFindings(src.report), pageKeep, pageKeep))
	}
	g, note := crawlers.Group(src.robots, agent)
	resp.Group = groupOf(src, g, agent, note)
	for _, u := range urls {
		if u = strings.TrimSpace(u); u == "" {
			continue
		}
		if err := checkableURL(u); err != nil {
			resp.Results = append(resp.Results, resultJSON{URL: u, Error: err.Error()})
			continue
		}
		us := g.Usage(robotstxt.NormalizeURL(u)) // as a crawler sends it, as check and package fetch ask
		d := us.Decision
		j := src.decisionJSON(u, d)
		resp.Results = append(resp.Results, resultJSON{
			URL: u, Allowed: &d.Allowed, Line: j.Line, Directive: j.Directive, Key: j.Key, Rule: j.Rule,
			Explain: src.explain(u, d), Usage: usageOf(us),
		})
	}
	return resp
}

// groupOf says which groups of src decide for agent: g, the group that
// answers for it as the crawler documents it (and note, from
// crawlers.Group), and the user-agent lines that chose them, as the report
// tells them.
func groupOf(src *source, g robotstxt.Group, agent, note string) groupJSON {
	j := groupJSON{AgentLines: []int{}, Groups: []int{}, Ranges: [][2]int{}, Note: note}
	followed := ""
	switch {
	case src.robots.Kind() != robotstxt.Parsed:
		j.Applies = "status"
		j.Summary = fmt.Sprintf("No file was read (%s): the same rules bind every crawler.", src.robots.Kind())
		return j
	case src.report == nil || unreadable(src.report):
		j.Applies = "none"
		j.Summary = "Crawlers read no rules from this file, so no group applies: every URL is allowed."
		return j
	case note != "":
		// The crawler obeys another token's group (Googlebot-Image obeys
		// Googlebot's), or none (AdsBot ignores "*").
		if c, ok := crawlers.Lookup(agent); ok {
			if f := c.Follows(src.robots); f != "" && f != c.Token {
				followed = f
				break
			}
		}
		j.Applies = "none"
		j.Summary = fmt.Sprintf("No group names %s, and it does not obey the group for \"*\": no group applies, every URL is allowed.", agent)
		return j
	}
	asked := agent
	if followed != "" {
		asked = followed
	}
	lines, global := src.report.AgentLines(asked)
	j.AgentLines = append(j.AgentLines, lines...)
	j.Groups = append(j.Groups, g.Numbers()...)
	j.Ranges = make([][2]int, len(j.Groups))
	for _, l := range src.report.Lines {
		if i := slices.Index(j.Groups, l.Group); l.Group > 0 && i >= 0 {
			if j.Ranges[i][0] == 0 {
				j.Ranges[i][0] = l.Num
			}
			j.Ranges[i][1] = l.Num
		}
	}
	on := "line " + joinInts(lines)
	if len(lines) > 1 {
		on = "lines " + joinInts(lines)
	}
	switch {
	case followed != "":
		j.Applies = "named"
		j.Summary = fmt.Sprintf("No group names %s: it obeys the group for %s (user-agent %s), as its operator documents.", agent, followed, on)
	case agent == "*":
		j.Applies = "global"
		j.Summary = fmt.Sprintf("The group for \"*\" (user-agent %s) decides for any crawler that no group names.", on)
		if !global {
			j.Applies, j.Summary = "none", "There is no group for \"*\": every URL is allowed to a crawler that no group names."
		}
	case !global && len(lines) > 0:
		j.Applies = "named"
		j.Summary = fmt.Sprintf("%s is named on user-agent %s: only those groups decide, and the group for \"*\" does not apply.", agent, on)
	case global:
		j.Applies = "global"
		j.Summary = fmt.Sprintf("No group names %s: it falls back to the group for \"*\" (user-agent %s).", agent, on)
	default:
		j.Applies = "none"
		j.Summary = fmt.Sprintf("No group names %s and there is no group for \"*\": no group applies, every URL is allowed.", agent)
	}
	return j
}

// joinInts writes 1, 2 and 3.
func joinInts(n []int) string {
	s := make([]string, len(n))
	for i, v := range n {
		s[i] = strconv.Itoa(v)
	}
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

// fileAgents returns the product tokens that the user-agent lines of a file
// name, in file order, each once.
func fileAgents(rep *lint.Report) []string {
	out := []string{}
	for _, l := range rep.Lines {
		if l.Kind != lint.LineUserAgent {
			continue
		}
		n := 0
		for n < len(l.Value) && isTokenByte(l.Value[n]) {
			n++
		}
		if tok := l.Value[:n]; tok != "" && !slices.ContainsFunc(out, func(s string) bool { return grammar.EqualFold(s, tok) }) {
			out = append(out, tok)
		}
	}
	return out
}

// textLines returns the text of each line of rep's file, numbered as its
// findings are.
func textLines(rep *lint.Report) []string {
	out := make([]string, 0, len(rep.Lines))
	for _, l := range rep.Lines {
		out = append(out, l.Text)
	}
	return out
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.Encode(v) // the client may be gone; nothing to do then
}

// errorJSON is the body of an error response.
type errorJSON struct {
	Error string `json:"error"`
}

func writeError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, errorJSON{Error: msg})
}

// jsonStream writes one JSON object field by field, and arrays item by
// item, through a buffer: what it writes is never held whole. The first
// write error stops it.
type jsonStream struct {
	w     *bufio.Writer
	err   error
	comma bool // a field or item has been written at this level
}

func newJSONStream(w io.Writer) *jsonStream {
	st := &jsonStream{w: bufio.NewWriterSize(w, 32<<10)}
	st.raw("{")
	return st
}

func (st *jsonStream) raw(s string) {
	if st.err == nil {
		_, st.err = st.w.WriteString(s)
	}
}

func (st *jsonStream) value(v any) {
	if st.err != nil {
		return
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if st.err = enc.Encode(v); st.err == nil {
		_, st.err = st.w.Write(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
	}
}

func (st *jsonStream) sep() {
	if st.comma {
		st.raw(",")
	}
	st.comma = true
}

// field writes "name": v.
func (st *jsonStream) field(name string, v any) {
	st.sep()
	st.value(name)
	st.raw(":")
	st.value(v)
}

// begin starts the array field name; item adds to it, end closes it.
func (st *jsonStream) begin(name string) {
	st.sep()
	st.value(name)
	st.raw(":[")
	st.comma = false
}

func (st *jsonStream) item(v any) {
	st.sep()
	st.value(v)
}

func (st *jsonStream) end() {
	st.raw("]")
	st.comma = true
}

// close ends the object and flushes it.
func (st *jsonStream) close() error {
	st.raw("}\n")
	if st.err == nil {
		st.err = st.w.Flush()
	}
	return st.err
}

// aiRequest is the body of /api/ai: the robots.txt, the URL to answer
// for, and the headers of the page's response, as typed in (each may
// hold several lines: one header field a line, as a response that
// repeats the header sends them).
type aiRequest struct {
	Robots        string `json:"robots"`
	URL           string `json:"url"`
	ContentUsage  string `json:"content_usage"`
	ContentSignal string `json:"content_signal"`
	XRobotsTag    string `json:"x_robots_tag"`
}

// aiResponse is what /api/ai answers: what robotstxt ai -json prints, and
// the size of a file cut at 500 KiB.
type aiResponse struct {
	matrixJSON
	Cut int `json:"cut,omitempty"`
}

// pageHeader builds the page's response header from the values typed in,
// one field a line; it answers the error and returns false for a value
// that no header field can carry.
func (req *aiRequest) pageHeader(w http.ResponseWriter) (http.Header, bool) {
	h := http.Header{}
	for _, f := range []struct{ field, name, value string }{
		{"content_usage", "Content-Usage", req.ContentUsage},
		{"content_signal", "Content-Signal", req.ContentSignal},
		{"x_robots_tag", "X-Robots-Tag", req.XRobotsTag},
	} {
		for line := range strings.Lines(f.value) {
			line = strings.TrimSpace(line)
			if line == "" {
				continue
			}
			if !httpguts.ValidHeaderFieldValue(line) {
				writeError(w, http.StatusBadRequest, fmt.Sprintf(
					"%s %q cannot be the value of a %s header: it holds a control character", f.field, line, f.name))
				return nil, false
			}
			h.Add(f.name, line)
		}
	}
	return h, true
}

func (s *server) apiAI(w http.ResponseWriter, r *http.Request) {
	var req aiRequest
	var body []byte
	ok := readRequest(w, r, &req, func(b []byte) {
		body = b
		q := r.URL.Query()
		req = aiRequest{URL: q.Get("url"), ContentUsage: q.Get("content_usage"),
			ContentSignal: q.Get("content_signal"), XRobotsTag: q.Get("x_robots_tag")}
	})
	if !ok {
		return
	}
	target := strings.TrimSpace(req.URL)
	if target == "" {
		writeError(w, http.StatusBadRequest, "no url: give the URL or path to answer for, such as /articles/1")
		return
	}
	if err := checkableURL(target); err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	h, ok := req.pageHeader(w)
	if !ok {
		return
	}
	body, cut := requestFile(body, &req.Robots)
	s.work(w, r, body, func() {
		src := pastedSource(body)
		site := aiuse.Site{Robots: src.robots}
		if len(h) > 0 {
			site.Page = aiuse.ReadPage(h, nil)
		}
		m := site.Matrix(robotstxt.NormalizeURL(target)) // as a crawler sends it, as /api/check asks
		m.URL = target
		writeJSON(w, http.StatusOK, aiResponse{matrixJSON: newMatrixJSON(src, &m), Cut: cut})
	})
}
