// Package grammar holds the facts of the robots.txt grammar that the parser
// (package robotstxt) and the diagnostics (package lint) both need: the
// one ASCII case fold, the keys and the misspellings Google's parser
// accepts, the bytes of a product token, the Crawl-delay syntax, how a
// pattern is normalised, and how Content-Usage and Content-Signal values
// are read. Each fact is one function here; neither package keeps a copy.
package grammar
