package robotstxt

import "github.com/robotstxt-go/robotstxt/internal/grammar"

// This file holds everything about usage preferences that depends on a
// revision of the drafts or of Cloudflare's policy: the categories and
// signals, and how the two vocabularies map onto each other; the names of
// the lines, the labels and the values are in internal/grammar/usage.go,
// which package lint reads too. A new revision changes the two files and
// their tests; the parsing (usage_parse.go), the stored form
// (usage_layout.go) and the answers (usage.go) work from these tables.
//
// Implemented:
//
//   - draft-ietf-aipref-attach-05, "Associating AI Usage Preferences with
//     Content in HTTP" (§3: the Content-Usage rule of robots.txt, with an
//     optional path);
//   - draft-ietf-aipref-vocab-08, "A Vocabulary For Expressing AI Usage
//     Preferences" (§4: the categories train-ai, ai-use and search; §5.1:
//     combining; §6: the exemplary format, an RFC 9651 Dictionary of the
//     Tokens y and n). attach-05 cites the combining section as "Section 7.1
//     of VOCAB"; it is §5.1 of vocab-08;
//   - Cloudflare's Content Signals Policy (contentsignals.org, September
//     2025): the Content-Signal line with the signals search, ai-input and
//     ai-train, each yes or no; and the use key Cloudflare added on
//     2026-07-01, whose values immediate, reference and full say how much
//     of the content may be kept and reproduced (see Use).

// Category is a category of use of the IETF vocabulary
// (draft-ietf-aipref-vocab-08 §4), as stated by Content-Usage lines.
type Category uint8

// The categories of draft-ietf-aipref-vocab-08 §4.
const (
	TrainAI       Category = iota // §4.1 "train-ai": training a generative AI model
	AIUse                         // §4.2 "ai-use": input to a generative AI model
	Search                        // §4.3 "search": search applications
	NumCategories                 // the number of categories
)

// grammar.CategoryLabels are the labels of §6.1 of the vocabulary, by
// Category, and grammar.SignalLabels the signals' names, by Signal: one of
// each for every value, checked here when the package compiles.
const (
	_ = uint(len(grammar.CategoryLabels) - int(NumCategories))
	_ = uint(int(NumCategories) - len(grammar.CategoryLabels))
	_ = uint(len(grammar.SignalLabels) - int(NumSignals))
	_ = uint(int(NumSignals) - len(grammar.SignalLabels))
)

// String returns the category's label, as Content-Usage writes it. Labels
// are case-sensitive (§6.1, §6.5.1).
func (c Category) String() string {
	if c < NumCategories {
		return grammar.CategoryLabels[c]
	}
	return "unknown"
}

// Signal is a signal of Cloudflare's Content Signals Policy, as stated by
// Content-Signal lines.
type Signal uint8

// The signals of the Content Signals Policy.
const (
	SignalSearch  Signal = iota // "search": building a search index and showing links and excerpts
	SignalAIInput               // "ai-input": input to AI models (grounding, retrieval)
	SignalAITrain               // "ai-train": training or fine-tuning AI models
	NumSignals                  // the number of signals
)

// String returns the signal's name, as Content-Signal writes it.
func (s Signal) String() string {
	if s < NumSignals {
		return grammar.SignalLabels[s]
	}
	return "unknown"
}

// signalCategory maps each signal onto the category of the IETF vocabulary
// that covers the same use, for [Usage.Combined]. The two are close, not
// equal: Cloudflare's search leaves out AI-generated summaries, and ai-input
// covers any input to a model where ai-use covers input to a generative
// model that the user did not provide.
var signalCategory = [NumSignals]Category{
	SignalSearch:  Search,
	SignalAIInput: AIUse,
	SignalAITrain: TrainAI,
}

// Use is the content-use level a Content-Signal value states with its use
// key (Cloudflare's Content Signals Policy, as extended on 2026-07-01 and
// sent by its managed robots.txt as "search=yes,ai-train=no,use=reference";
// contentsignals.org). The levels are ordered from the least reuse to the
// most; when lines of the same path state different levels, the least
// reuse wins, as a disallow wins among preferences.
type Use uint8

// The content-use levels.
const (
	UseUnstated  Use = iota // no use key, or a value that is none of the three
	UseImmediate            // "immediate": interact with the content, store and reuse none of it
	UseReference            // "reference": index it, quote excerpts and link back
	UseFull                 // "full": summarise and reproduce it
)

// String returns the level's value as Content-Signal writes it, or
// "unstated".
func (u Use) String() string {
	if u > UseUnstated && int(u) <= len(grammar.UseLabels) {
		return grammar.UseLabels[u-1]
	}
	return "unstated"
}

// Meaning returns what the level allows, in a few words.
func (u Use) Meaning() string {
	switch u {
	case UseImmediate:
		return "interact with the content; store and reuse none of it"
	case UseReference:
		return "index the content, quote excerpts and link back"
	case UseFull:
		return "summarise and reproduce the content"
	}
	return "no content-use level stated"
}
