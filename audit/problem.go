package audit

import (
	"fmt"
)

// The kinds of [Problem].
const (
	ProblemGzip     = "gzip"     // a gzip member is truncated or corrupt
	ProblemLength   = "length"   // a record's Content-Length does not match its content
	ProblemRecord   = "record"   // a WARC record that cannot be read
	ProblemHTTP     = "http"     // a response record that is not an HTTP response
	ProblemURL      = "url"      // a capture or URL-list URL that is not an absolute http(s) URL
	ProblemJSON     = "json"     // a JSON line that does not parse, or is too long
	ProblemEmpty    = "empty"    // an input without a single response
	ProblemZero     = "zero"     // an input of 0 bytes (a download that failed?): nothing read, nothing skipped
	ProblemInput    = "input"    // an input that cannot be opened or read
	ProblemHTML     = "html"     // note: an HTML page or other markup served as robots.txt (lint.NotRobots), answered as Google's parser reads it
	ProblemBinary   = "binary"   // note: binary data or UTF-16 text served as robots.txt (lint.NotRobots), answered as Google's parser reads it
	ProblemOversize = "oversize" // note: a body longer than 500 KiB, answered on its first 500 KiB
)

// Problem is something wrong in an input, at a byte offset (and, inside a
// gzip member, at an offset in its decompressed bytes: see
// [Capture.InMember]).
type Problem struct {
	Input    string `json:"input"`
	Offset   int64  `json:"offset"`
	InMember int64  `json:"in_member"`
	Kind     string `json:"kind"`
	Detail   string `json:"detail"`
	Skipped  bool   `json:"skipped"` // the record or line was not answered; false for notes
}

func (p Problem) String() string {
	what := "note"
	if p.Skipped {
		what = "skipped"
	}
	if p.InMember != 0 {
		return fmt.Sprintf("%s@%d+%d: %s (%s): %s", p.Input, p.Offset, p.InMember, p.Kind, what, p.Detail)
	}
	return fmt.Sprintf("%s@%d: %s (%s): %s", p.Input, p.Offset, p.Kind, what, p.Detail)
}
