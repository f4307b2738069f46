// Package lint explains robots.txt files to people: what each line was read
// as, and what looks wrong, with line numbers and advice, as a compiler
// reports errors. It is for tools (the robotstxt command, its tester page,
// the audit); a crawler needs only package robotstxt.
//
// [Diagnose] watches the parser's own pass over the lines: package
// robotstxt reports each line, with what it kept of it, to an observer, so
// a finding always describes what [robotstxt.Parse] read, and
// [Report.Robots] is the file it built. [Summarize] and [ParseWithSummary]
// count the findings without building them, for many files. [NotRobots]
// tells from a body's first bytes whether it is no robots.txt at all (an
// HTML page, UTF-16 text, binary data), as a fetcher asks of every body.
package lint
