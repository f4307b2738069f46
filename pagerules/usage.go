package pagerules

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/robotstxt-go/robotstxt"
	"github.com/robotstxt-go/robotstxt/internal/grammar"
)

// This file joins the usage preferences of the Content-Usage response header
// (draft-ietf-aipref-attach-05 §2) with those the robots.txt file states for
// the same URL (§3). The drafts treat both as statements of preference
// about the same content, and vocab-08 §5.1 combines statements category by
// category: a disallow wins, then an allow, otherwise the preference is
// unknown. A URL that robots.txt disallows has no preferences (attach-05
// §3.1): it is not to be fetched at all.
//
// Only the IETF vocabulary is joined: robots.txt's Content-Signal lines
// (Cloudflare's policy) have no header form, and robotstxt.Usage.Combined
// reads them.

// Preference is one category's answer and where it came from.
type Preference struct {
	// Pref is the answer: the two statements below combined.
	Pref robotstxt.Pref
	// RobotsTxt is what the robots.txt file states, and its line; Pref is
	// PrefNotCrawlable when robots.txt disallows the URL.
	RobotsTxt robotstxt.Stated
	// Header is what the Content-Usage header states.
	Header robotstxt.Pref
}

// Source names where the answer came from: "robots.txt line 4",
// "Content-Usage header", both joined with " and ", or "" when nothing was
// stated.
func (p Preference) Source() string {
	var parts []string
	if p.RobotsTxt.Pref == robotstxt.PrefNotCrawlable || (p.RobotsTxt.Pref != robotstxt.PrefUnknown && p.RobotsTxt.Pref == p.Pref) {
		if p.RobotsTxt.Line > 0 {
			parts = append(parts, "robots.txt line "+strconv.Itoa(p.RobotsTxt.Line))
		} else {
			parts = append(parts, "robots.txt")
		}
	}
	if p.Pref != robotstxt.PrefNotCrawlable && p.Header != robotstxt.PrefUnknown && p.Header == p.Pref {
		parts = append(parts, "Content-Usage header")
	}
	return strings.Join(parts, " and ")
}

// Usage is the usage preferences for a fetched page, by category.
type Usage struct {
	Prefs [robotstxt.NumCategories]Preference
	// Header is the Content-Usage header as received, its lines joined
	// with ", "; "" when there was none.
	Header string
	// HeaderOK reports whether Header parsed; a header that does not parse
	// states nothing.
	HeaderOK bool
}

// Pref returns the answer for category c.
func (u *Usage) Pref(c robotstxt.Category) robotstxt.Pref {
	if c >= robotstxt.NumCategories {
		return robotstxt.PrefUnknown
	}
	return u.Prefs[c].Pref
}

// JoinUsage joins what robots.txt says about the use of a URL (from
// [robotstxt.Robots.Usage] for the crawler and the URL) with the
// Content-Usage header of the response h.
func JoinUsage(robots robotstxt.Usage, h http.Header) Usage {
	var u Usage
	var header [robotstxt.NumCategories]robotstxt.Pref
	if lines := h.Values("Content-Usage"); len(lines) > 0 {
		u.Header = strings.Join(lines, ", ")
		header, u.HeaderOK = robotstxt.ParseContentUsage(u.Header)
	}
	for c := range u.Prefs {
		p := Preference{RobotsTxt: robots.ContentUsage[c], Header: header[c]}
		if !robots.Decision.Allowed {
			p.RobotsTxt.Pref = robotstxt.PrefNotCrawlable
			p.RobotsTxt.Line = robots.Decision.Line
			p.Pref = robotstxt.PrefNotCrawlable
		} else {
			p.Pref = grammar.CombinePrefs(p.RobotsTxt.Pref, p.Header)
		}
		u.Prefs[c] = p
	}
	return u
}
