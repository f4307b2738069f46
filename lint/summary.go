package lint

// This file holds what [Summarize] returns: the counts of a [Report]
// without its messages and line records. Diagnose and Summarize run the
// same checks (lint.go); the one difference is in diagnoser.addFile,
// which for Summarize counts a finding instead of building it.

// Summary is what [Summarize] found in a file: the counts of the [Report]
// that [Diagnose] returns, and how many of its findings there are of each
// cause and severity.
type Summary struct {
	Counts   Counts
	Findings []FindingCount // one per cause and severity found, ordered by the cause's text, then by severity

	Errors, Warnings, Infos int // findings of each severity
}

// FindingCount is how many findings of a file share a cause and a severity.
type FindingCount struct {
	Err      error // one of the ErrXxx values
	Severity Severity
	Count    int
}

// Summary counts r's findings by cause and severity, as [Summarize] does.
func (r *Report) Summary() Summary {
	s := Summary{Counts: r.Counts}
	for _, e := range r.Findings {
		s.add(e.Err, e.Severity)
	}
	return s
}

// add counts one finding, keeping Findings in order.
func (s *Summary) add(err error, sev Severity) {
	switch sev {
	case SeverityError:
		s.Errors++
	case SeverityWarning:
		s.Warnings++
	default:
		s.Infos++
	}
	for i := range s.Findings {
		if f := &s.Findings[i]; f.Err == err && f.Severity == sev {
			f.Count++
			return
		}
	}
	s.Findings = append(s.Findings, FindingCount{Err: err, Severity: sev, Count: 1})
	for i := len(s.Findings) - 1; i > 0 && s.Findings[i].less(&s.Findings[i-1]); i-- {
		s.Findings[i], s.Findings[i-1] = s.Findings[i-1], s.Findings[i]
	}
}

func (f *FindingCount) less(g *FindingCount) bool {
	a, b := errText(f.Err), errText(g.Err)
	if a != b {
		return a < b
	}
	return f.Severity < g.Severity
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// lazy is a part of a message that is worked out only when the message is
// built: never by Summarize, nor for findings that a file-level one drops.
type lazy func() string

func (f lazy) String() string { return f() }
