package audit

import (
	"context"
	"fmt"
	"io"
	"strings"
)

// Change is an origin × agent whose label or the verdict of a path
// (allowed, deciding line) differs between two input sets: the earlier
// crawl (Config.Before) and the later one (Config.Inputs).
type Change struct {
	Origin       string       `parquet:"origin" json:"origin"`
	Agent        string       `parquet:"agent" json:"agent"`
	BeforeLabel  string       `parquet:"before_label" json:"before_label"`
	AfterLabel   string       `parquet:"after_label" json:"after_label"`
	BeforeRules  string       `parquet:"before_rules" json:"before_rules"`
	AfterRules   string       `parquet:"after_rules" json:"after_rules"`
	BeforeDate   string       `parquet:"before_date" json:"before_date"`
	AfterDate    string       `parquet:"after_date" json:"after_date"`
	BeforeInput  string       `parquet:"before_input" json:"before_input"`
	BeforeOffset int64        `parquet:"before_offset" json:"before_offset"`
	BeforeIn     int64        `parquet:"before_in_member" json:"before_in_member"` // as Row.InMember
	AfterInput   string       `parquet:"after_input" json:"after_input"`
	AfterOffset  int64        `parquet:"after_offset" json:"after_offset"`
	AfterIn      int64        `parquet:"after_in_member" json:"after_in_member"`
	Paths        []PathChange `parquet:"paths,list" json:"paths"`
}

// PathChange is the verdict of one path in both sets, whether or not it
// changed.
type PathChange struct {
	Path          string `parquet:"path" json:"path"`
	BeforeAllowed *bool  `parquet:"before_allowed,optional" json:"before_allowed"`
	BeforeLine    int32  `parquet:"before_line" json:"before_line"`
	BeforeRule    string `parquet:"before_rule" json:"before_rule"`
	AfterAllowed  *bool  `parquet:"after_allowed,optional" json:"after_allowed"`
	AfterLine     int32  `parquet:"after_line" json:"after_line"`
	AfterRule     string `parquet:"after_rule" json:"after_rule"`
}

// ChangeCounts tells what a change table compared.
type ChangeCounts struct {
	Compared   int64 // origin × agent answered in both sets
	Changed    int64 // of those, rows written
	OnlyBefore int64 // origin × agent answered only in the earlier set
	OnlyAfter  int64 // only in the later set
}

// answered is what the earlier set said for an origin × agent.
type answered struct {
	label, rules, date, input string
	offset, inMember          int64
	verdicts                  []Verdict // rules cloned: nothing of the body is kept
}

// runChanges answers both sets, one origin once in each (the latest
// capture), and writes the changes in the later set's order. The earlier
// set's answers are held in memory: origins × agents × paths.
func (st *runState) runChanges(ctx context.Context, out io.Writer) error {
	cfg := st.cfg
	key := func(r *Row) string { return r.Origin + "\x00" + r.Agent }
	before := map[string]*answered{}
	bcfg := *cfg
	bcfg.Inputs, bcfg.Before, bcfg.URLs, bcfg.Format, bcfg.Progress = cfg.Before, nil, nil, formatRows, nil
	bcfg.AllCaptures = false
	bcfg.sink = func(r *Row) error {
		a := &answered{label: r.Label, rules: r.Rules, date: r.Date, input: r.Input, offset: r.Offset, inMember: r.InMember,
			verdicts: make([]Verdict, len(r.Verdicts))}
		for i, v := range r.Verdicts {
			a.verdicts[i] = Verdict{Path: v.Path, Allowed: v.Allowed, Line: v.Line, Rule: strings.Clone(v.Rule)}
		}
		before[key(r)] = a
		return nil
	}
	bsum, err := Run(ctx, bcfg, nil)
	if err != nil {
		return err
	}
	if bsum.Interrupted {
		*st.sum = *bsum
		return nil
	}

	w := newWriter[Change](cfg.Format, out, encodeChange)
	if cfg.Format != FormatParquet {
		// The header first, through the same buffered writer.
		var hdr strings.Builder
		if err := join[Change](cfg.Format, &hdr, changeHeader(cfg.Format, cfg.Paths), nil); err != nil {
			return err
		}
		if err := w.writeRaw([]byte(hdr.String())); err != nil {
			return err
		}
	}
	counts := &ChangeCounts{}
	seen := map[string]bool{}
	var ch Change
	acfg := *cfg
	acfg.Before, acfg.URLs, acfg.Format, acfg.AllCaptures = nil, nil, formatRows, false
	acfg.sink = func(r *Row) error {
		k := key(r)
		b := before[k]
		if b == nil {
			counts.OnlyAfter++
			return nil
		}
		seen[k] = true
		counts.Compared++
		changed := b.label != r.Label
		ch = Change{Origin: r.Origin, Agent: r.Agent, BeforeLabel: b.label, AfterLabel: r.Label,
			BeforeRules: b.rules, AfterRules: r.Rules, BeforeDate: b.date, AfterDate: r.Date,
			BeforeInput: b.input, BeforeOffset: b.offset, BeforeIn: b.inMember, AfterInput: r.Input, AfterOffset: r.Offset, AfterIn: r.InMember, Paths: ch.Paths[:0]}
		for i, v := range r.Verdicts {
			bv := b.verdicts[i]
			changed = changed || bv.Line != v.Line || optBool(bv.Allowed) != optBool(v.Allowed)
			ch.Paths = append(ch.Paths, PathChange{Path: v.Path, BeforeAllowed: bv.Allowed, BeforeLine: bv.Line, BeforeRule: bv.Rule,
				AfterAllowed: v.Allowed, AfterLine: v.Line, AfterRule: v.Rule})
		}
		if !changed {
			return nil
		}
		counts.Changed++
		return w.write(&ch)
	}
	asum, err := Run(ctx, acfg, nil)
	if err != nil {
		return err
	}
	*st.sum = *asum // problems: the later set's, then the earlier set's
	st.sum.Inputs += bsum.Inputs
	st.sum.Done += bsum.Done
	st.sum.Captures += bsum.Captures
	st.sum.Seen += bsum.Seen
	st.sum.Bytes += bsum.Bytes
	st.sum.Rows = counts.Changed
	st.sum.Changes = counts
	st.sum.Problems = append(st.sum.Problems, bsum.Problems...)
	st.sum.count()
	for k := range before {
		if !seen[k] {
			counts.OnlyBefore++
		}
	}
	return w.close()
}

// changeHeader returns the CSV and table columns of Changes.
func changeHeader(format string, paths []string) []string {
	h := []string{"origin", "agent", "before_label", "after_label", "before_rules", "after_rules", "before_date", "after_date",
		"before_input", "before_offset", "before_in_member", "after_input", "after_offset", "after_in_member"}
	for _, p := range paths {
		h = append(h, "before_allowed "+p, "before_line "+p, "before_rule "+p, "after_allowed "+p, "after_line "+p, "after_rule "+p)
	}
	return h
}

func encodeChange(c *Change, rec []string) []string {
	rec = append(rec, c.Origin, c.Agent, c.BeforeLabel, c.AfterLabel, c.BeforeRules, c.AfterRules, c.BeforeDate, c.AfterDate,
		c.BeforeInput, itoa(c.BeforeOffset), itoa(c.BeforeIn), c.AfterInput, itoa(c.AfterOffset), itoa(c.AfterIn))
	for _, p := range c.Paths {
		rec = append(rec, optBool(p.BeforeAllowed), itoa(int64(p.BeforeLine)), p.BeforeRule, optBool(p.AfterAllowed), itoa(int64(p.AfterLine)), p.AfterRule)
	}
	return rec
}

// String describes the counts for the summary line.
func (c *ChangeCounts) String() string {
	return fmt.Sprintf("%d origin × agent compared, %d changed; %d only before, %d only after", c.Compared, c.Changed, c.OnlyBefore, c.OnlyAfter)
}
