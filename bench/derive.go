package main

import (
	"bytes"
	"path/filepath"
	"slices"
	"strings"
)

// corpus.tsv has questions about half of the real files only (the other
// half is kept back for evaluation), and the half it lacks holds some of
// the costliest files to query. For those files the harness makes its own
// questions from the file's content, in the spirit of corpus.tsv's (see
// ../../shared/conformance/README.md): its rules made into URLs, asked by
// the agents it names and by a few it does not. Their answers are not
// known; they are for timing only.

const (
	derivedRules  = 10 // rules sampled per file
	derivedAgents = 4  // agents named in the file that are asked
)

// addDerived gives each file without corpus.tsv questions its derived
// questions.
func addDerived(files []*file) {
	for _, f := range files {
		if len(f.questions) == 0 {
			f.derived = deriveQuestions(f)
		}
	}
}

// deriveQuestions makes about 35 questions about f: the root, /robots.txt
// and /index.html, then for up to derivedRules rules spread over the file
// the rule's path (each '*' made an 'x', a final '$' dropped), a page
// below it and the path with a query, asked in turn by the agents.
func deriveQuestions(f *file) []question {
	site := "https://" + strings.TrimSuffix(filepath.Base(f.name), ".txt")
	var named, rules []string
	seen := map[string]bool{}
	for _, line := range bytes.FieldsFunc(f.data, func(r rune) bool { return r == '\n' || r == '\r' }) {
		key, value, ok := strings.Cut(string(line), ":")
		if !ok {
			continue
		}
		if i := strings.IndexByte(value, '#'); i >= 0 {
			value = value[:i]
		}
		value = strings.TrimSpace(value)
		switch strings.ToLower(strings.TrimSpace(key)) {
		case "user-agent":
			if token := productToken(value); token != "" && !seen[strings.ToLower(token)] && len(named) < derivedAgents {
				seen[strings.ToLower(token)] = true
				named = append(named, token)
			}
		case "allow", "disallow":
			if value != "" {
				rules = append(rules, value)
			}
		}
	}
	agents := slices.Clone(named)
	for _, a := range []string{"Googlebot", "bingbot", "UnknownBot"} {
		if !seen[strings.ToLower(a)] {
			agents = append(agents, a)
		}
	}
	var qs []question
	ask := func(agent, path string) {
		qs = append(qs, question{agent: agent, url: site + path})
	}
	for _, p := range []string{"/", "/robots.txt", "/index.html"} {
		ask("Googlebot", p)
	}
	for _, a := range named {
		ask(a, "/")
	}
	k := 0
	for i := range min(len(rules), derivedRules) {
		path := strings.TrimSuffix(strings.ReplaceAll(rules[i*len(rules)/min(len(rules), derivedRules)], "*", "x"), "$")
		if !strings.HasPrefix(path, "/") {
			path = "/" + path
		}
		for _, p := range []string{path, strings.TrimSuffix(path, "/") + "/page.html", path + "?q=1"} {
			ask(agents[k%len(agents)], p)
			k++
		}
	}
	return qs
}

// productToken returns the leading run of letters, '_' and '-' of a
// User-agent value, or "" for "*" and values without one.
func productToken(v string) string {
	n := 0
	for n < len(v) && (v[n] >= 'a' && v[n] <= 'z' || v[n] >= 'A' && v[n] <= 'Z' || v[n] == '_' || v[n] == '-') {
		n++
	}
	return v[:n]
}
