package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/robotstxt-go/robotstxt"
)

// This file is the JSON API of robotstxt serve: /api/check, /api/lint and
// /api/fetch. The page calls it, and so may any tool.

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
	Results      []resultJSON  `json:"results"`
	Errors       []findingJSON `json:"errors"` // the errors check prints before its answers
}

// resultJSON is one URL's answer.
type resultJSON struct {
	URL       string `json:"url"`
	Allowed   *bool  `json:"allowed,omitempty"` // absent when Error is set
	Line      int    `json:"line,omitempty"`
	Directive string `json:"directive,omitempty"` // "allow" or "disallow"
	Key       string `json:"key,omitempty"`       // the key as written
	Rule      string `json:"rule,omitempty"`      // the value as written
	Explain   string `json:"explain,omitempty"`   // as robotstxt check prints it
	Error     string `json:"error,omitempty"`     // the URL is neither an absolute URL nor a path
}

// lintResponse is what /api/lint answers: lint -json -lines, and the text
// of each line, numbered as the findings are.
type lintResponse struct {
	lintJSON
	Text []string `json:"text"`
}

// fetchResponse is what /api/fetch answers.
type fetchResponse struct {
	fetchJSON
	Body     string        `json:"body"`      // the body read; bytes that are not UTF-8 become U+FFFD
	BodyUTF8 bool          `json:"body_utf8"` // the body is UTF-8, so Body is exact
	Text     []string      `json:"text"`      // the lines of Body, numbered as the findings are
	Check    checkResponse `json:"check"`
}

// readRequest decodes a JSON body into v, or, for another content type,
// hands the raw body to raw. It writes the error response and returns false
// when the body is bad.
func readRequest(w http.ResponseWriter, r *http.Request, v any, raw func([]byte)) bool {
	body, err := io.ReadAll(r.Body)
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		writeError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf(
			"request body over %d bytes: crawlers read only the first 500 KiB of a robots.txt; lint a larger file with robotstxt lint", tooBig.Limit))
		return false
	case err != nil:
		writeError(w, http.StatusBadRequest, "reading the request: "+err.Error())
		return false
	}
	if ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); ct != "application/json" {
		raw(body)
		return true
	}
	dec := json.NewDecoder(strings.NewReader(string(body)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		writeError(w, http.StatusBadRequest, "the request is not the JSON expected: "+err.Error())
		return false
	}
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
	if !ok || !validURLCount(w, req.URLs) {
		return
	}
	if body == nil {
		body = []byte(req.Robots)
	}
	src := &source{name: "robots.txt", robots: robotstxt.Parse(body), report: robotstxt.Diagnose(body)}
	writeJSON(w, http.StatusOK, checkWith(src, req.Agent, req.URLs))
}

func (s *server) apiLint(w http.ResponseWriter, r *http.Request) {
	var req checkRequest
	var body []byte
	ok := readRequest(w, r, &req, func(b []byte) { body = b })
	if !ok {
		return
	}
	if body == nil {
		body = []byte(req.Robots)
	}
	rep := robotstxt.Diagnose(body)
	writeJSON(w, http.StatusOK, lintResponse{lintJSON: newLintJSON("robots.txt", rep, true), Text: textLines(body)})
}

func (s *server) apiFetch(w http.ResponseWriter, r *http.Request) {
	var req fetchRequest
	ok := readRequest(w, r, &req, func([]byte) {
		q := r.URL.Query()
		req = fetchRequest{URL: q.Get("url"), Agent: q.Get("agent"), UserAgent: q.Get("user_agent"), URLs: q["check"]}
	})
	if !ok || !validURLCount(w, req.URLs) {
		return
	}
	if req.Agent == "" {
		req.Agent = "*"
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
	res, err := s.fetcher.Fetch(ctx, headerFor(req.Agent, req.UserAgent), req.URL)
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
	urls := req.URLs
	if len(urls) == 0 {
		urls = []string{req.URL}
	}
	resp := fetchResponse{
		fetchJSON: newFetchJSON(req.URL, req.Agent, res, src, res.Robots.Decide(req.Agent, robotstxt.NormalizeURL(req.URL))),
		Body:      string(res.Body),
		BodyUTF8:  utf8.Valid(res.Body),
		Text:      textLines(res.Body),
		Check:     checkWith(src, req.Agent, urls),
	}
	writeJSON(w, http.StatusOK, resp)
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
	if agent == "" {
		agent = "*"
	}
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
		for _, e := range answerFindings(src.report) {
			resp.Errors = append(resp.Errors, findingJSON{e.Line, e.Severity.String(), e.Err.Error(), e.Msg})
		}
	}
	g := src.robots.Group(agent)
	for _, u := range urls {
		if u = strings.TrimSpace(u); u == "" {
			continue
		}
		if err := checkableURL(u); err != nil {
			resp.Results = append(resp.Results, resultJSON{URL: u, Error: err.Error()})
			continue
		}
		d := g.Decide(robotstxt.NormalizeURL(u)) // as a crawler sends it, as check and package fetch ask
		j := src.decisionJSON(u, d)
		resp.Results = append(resp.Results, resultJSON{
			URL: u, Allowed: &d.Allowed, Line: j.Line, Directive: j.Directive, Key: j.Key, Rule: j.Rule,
			Explain: src.explain(u, d),
		})
	}
	return resp
}

// fileAgents returns the product tokens that the user-agent lines of a file
// name, in file order, each once.
func fileAgents(rep *robotstxt.Report) []string {
	out := []string{}
	for _, l := range rep.Lines {
		if l.Kind != robotstxt.LineUserAgent {
			continue
		}
		n := 0
		for n < len(l.Value) && isTokenByte(l.Value[n]) {
			n++
		}
		if tok := l.Value[:n]; tok != "" && !slices.ContainsFunc(out, func(s string) bool { return strings.EqualFold(s, tok) }) {
			out = append(out, tok)
		}
	}
	return out
}

// textLines splits a robots.txt into lines as Diagnose numbers them: a
// leading UTF-8 byte order mark (or a prefix of one) is no text, CR, LF and
// CR LF each end a line, and no empty line follows a final line break.
func textLines(data []byte) []string {
	const bom = "\xef\xbb\xbf"
	n := 0
	for n < len(bom) && n < len(data) && data[n] == bom[n] {
		n++
	}
	data = data[n:]
	out := []string{}
	for {
		end := bytes.IndexAny(data, "\r\n")
		if end < 0 {
			if len(data) > 0 || len(out) == 0 {
				out = append(out, string(data))
			}
			return out
		}
		out = append(out, string(data[:end]))
		if data[end] == '\r' && end+1 < len(data) && data[end+1] == '\n' {
			end++
		}
		data = data[end+1:]
	}
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
