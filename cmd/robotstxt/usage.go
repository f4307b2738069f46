package main

import (
	"fmt"
	"strings"

	"github.com/robotstxt-go/robotstxt"
)

// This file shows the usage preferences of a URL (Content-Usage and
// Content-Signal lines, see robotstxt.Usage) for check and the tester
// page.

// usageJSON is the usage preferences of one URL: each stated preference
// by its label, with its line. It is nil when nothing is stated.
type usageJSON struct {
	ContentUsage  map[string]statedJSON `json:"content_usage,omitempty"`
	ContentSignal map[string]statedJSON `json:"content_signal,omitempty"`
}

type statedJSON struct {
	Pref string `json:"pref"` // "y" or "n"
	Line int    `json:"line"`
}

// usageOf returns the stated preferences of u, or nil when it states none
// (or the URL may not be fetched, when none applies).
func usageOf(u robotstxt.Usage) *usageJSON {
	var j usageJSON
	for c := range robotstxt.NumCategories {
		if s := u.ContentUsage[c]; s.Line > 0 {
			if j.ContentUsage == nil {
				j.ContentUsage = map[string]statedJSON{}
			}
			j.ContentUsage[c.String()] = statedJSON{s.Pref.String(), s.Line}
		}
	}
	for k := range robotstxt.NumSignals {
		if s := u.ContentSignal[k]; s.Line > 0 {
			if j.ContentSignal == nil {
				j.ContentSignal = map[string]statedJSON{}
			}
			j.ContentSignal[k.String()] = statedJSON{s.Pref.String(), s.Line}
		}
	}
	if j.ContentUsage == nil && j.ContentSignal == nil {
		return nil
	}
	return &j
}

// usageText returns the stated preferences of u as check and fetch print
// them after a verdict, "  [content-usage: train-ai=n (line 4);
// content-signal: ai-train=n (line 5)]", or "" when none is stated. Each
// value is spelt by Pref.String, y or n, in both vocabularies, as -json,
// the tester page and the audit spell it.
func usageText(u robotstxt.Usage) string {
	var parts []string
	var prefs []string
	for c := range robotstxt.NumCategories {
		if s := u.ContentUsage[c]; s.Line > 0 {
			prefs = append(prefs, fmt.Sprintf("%s=%s (line %d)", c, s.Pref, s.Line))
		}
	}
	if len(prefs) > 0 {
		parts = append(parts, "content-usage: "+strings.Join(prefs, ", "))
	}
	prefs = prefs[:0]
	for k := range robotstxt.NumSignals {
		if s := u.ContentSignal[k]; s.Line > 0 {
			prefs = append(prefs, fmt.Sprintf("%s=%s (line %d)", k, s.Pref, s.Line))
		}
	}
	if len(prefs) > 0 {
		parts = append(parts, "content-signal: "+strings.Join(prefs, ", "))
	}
	if len(parts) == 0 {
		return ""
	}
	return "  [" + strings.Join(parts, "; ") + "]"
}
