package audit

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/robotstxt-go/robotstxt/internal/grammar"
)

// SetInfo describes a bundled agent set.
type SetInfo struct {
	Name    string // as -agents names it
	Agents  int
	Version string // the upstream commit, or "" for the crawler table
	Date    string
	Source  string
	License string // the licence notice the data comes with, or ""
}

// The ai.robots.txt list, bundled unchanged (agentsets/README.md).
var (
	//go:embed agentsets/ai.robots.txt.json
	aiRobotsJSON []byte
	//go:embed agentsets/ai.robots.txt.LICENSE
	aiRobotsLicense string
)

const (
	setCrawlers = "crawlers"
	setAIRobots = "ai.robots.txt"
)

// AgentSets describes the agent sets that [AgentSet] knows.
func AgentSets() []SetInfo {
	ai, _ := aiRobotsAgents()
	return []SetInfo{
		{Name: setCrawlers, Agents: len(BuiltinAgents()), Source: "https://pkg.go.dev/github.com/robotstxt-go/robotstxt/crawlers"},
		{Name: setAIRobots, Agents: len(ai), Version: "738c80df2169027ce0e07c9976fd3f2f57dd8f7b", Date: "2026-08-22",
			Source: "https://github.com/ai-robots-txt/ai.robots.txt", License: aiRobotsLicense},
	}
}

// AgentSet returns a bundled set of crawlers by name: "crawlers" (package
// crawlers' table, as BuiltinAgents) or "ai.robots.txt" (the ai.robots.txt
// project's robots.json, in its order). A name of that list that is in
// the crawler table is that crawler, answered as it documents. A name that
// is not a product token ("AI2Bot", "Brightbot 1.0") is asked as the
// token Google's parser reads from a User-agent line naming it (the
// longest prefix of letters, '-' and '_': "AI", "Brightbot"), since that is
// what a site's group for it is found by; the output names it as listed.
func AgentSet(name string) ([]Agent, error) {
	switch name {
	case setCrawlers:
		return BuiltinAgents(), nil
	case setAIRobots:
		return aiRobotsAgents()
	}
	var names []string
	for _, s := range AgentSets() {
		names = append(names, s.Name)
	}
	return nil, fmt.Errorf("%q is neither a file nor an agent set (%s)", name, strings.Join(names, ", "))
}

func aiRobotsAgents() ([]Agent, error) {
	dec := json.NewDecoder(bytes.NewReader(aiRobotsJSON))
	if _, err := dec.Token(); err != nil { // {
		return nil, err
	}
	var out []Agent
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		listed := t.(string)
		var v struct {
			Operator string `json:"operator"`
			Function string `json:"function"`
		}
		if err := dec.Decode(&v); err != nil {
			return nil, fmt.Errorf("ai.robots.txt %s: %w", listed, err)
		}
		token := lineToken(listed)
		if token == "" {
			continue // no token: no group can name it
		}
		a := tokenAgent([]string{token})
		if a.crawler == nil {
			a.Operator, a.Purpose, a.Source = v.Operator, v.Function, "https://github.com/ai-robots-txt/ai.robots.txt"
		}
		if token != listed {
			a.Listed = listed
		}
		out = append(out, a)
	}
	return out, nil
}

// lineToken returns the product token that Google's parser reads from a
// User-agent line with value v (grammar.AgentToken, as the parser calls it):
// its longest prefix of [A-Za-z_-]. TestLineTokenSeam holds it to the parser.
func lineToken(v string) string {
	return string(grammar.AgentToken([]byte(v)))
}
