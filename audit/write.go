package audit

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/parquet-go/parquet-go"
)

// The output formats.
const (
	FormatCSV     = "csv"
	FormatJSONL   = "jsonl"
	FormatParquet = "parquet"
	FormatTable   = "table"
)

// formatRows is no file format: the rows are handed to a function
// (Config.sink), for the change table.
const formatRows = "rows"

// Formats lists the output formats.
var Formats = []string{FormatCSV, FormatJSONL, FormatParquet, FormatTable}

// FormatOf returns the format an output file name implies, or "".
func FormatOf(name string) string {
	n := strings.ToLower(name)
	switch {
	case strings.HasSuffix(n, ".csv"):
		return FormatCSV
	case strings.HasSuffix(n, ".jsonl"), strings.HasSuffix(n, ".ndjson"), strings.HasSuffix(n, ".json"):
		return FormatJSONL
	case strings.HasSuffix(n, ".parquet"):
		return FormatParquet
	case strings.HasSuffix(n, ".txt"):
		return FormatTable
	}
	return ""
}

// rowsPerGroup bounds what a Parquet writer buffers.
const rowsPerGroup = 1 << 14

// writer writes rows of type T in one format. Parts are written without a
// header; join writes the header and the parts.
type writer[T any] struct {
	format string
	bw     *bufio.Writer
	pq     *parquet.GenericWriter[T]
	enc    func(*T, []string) []string
	rec    []string
	line   []byte // a CSV line, reused
	seen   csvSeen
	buf    []T
	sink   func(*T) error // formatRows
}

func newWriter[T any](format string, w io.Writer, enc func(*T, []string) []string) *writer[T] {
	wr := &writer[T]{format: format, enc: enc}
	switch format {
	case FormatParquet:
		wr.pq = parquet.NewGenericWriter[T](w, parquet.Compression(&parquet.Snappy), parquet.MaxRowsPerRowGroup(rowsPerGroup), parquet.CreatedBy("robotsaudit", "", ""))
		wr.buf = make([]T, 1)
	default:
		wr.bw = bufio.NewWriterSize(w, 256<<10)
	}
	return wr
}

func (w *writer[T]) write(r *T) error {
	switch w.format {
	case formatRows:
		return w.sink(r)
	case FormatParquet:
		w.buf[0] = *r
		_, err := w.pq.Write(w.buf)
		var zero T
		w.buf[0] = zero
		return err
	case FormatCSV, FormatTable:
		w.rec = w.enc(r, w.rec[:0])
		if w.format == FormatCSV {
			w.line = appendCSVSeen(w.line[:0], w.rec, &w.seen)
			_, err := w.bw.Write(w.line)
			return err
		}
		_, err := w.bw.WriteString(strings.Join(w.rec, "  ") + "\n")
		return err
	}
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	w.bw.Write(b)
	return w.bw.WriteByte('\n')
}

// flush writes out what a text writer buffers.
func (w *writer[T]) flush() error {
	if w.bw != nil && w.format != formatRows {
		return w.bw.Flush()
	}
	return nil
}

// writeRaw writes rows that another writer of the same text format
// encoded.
func (w *writer[T]) writeRaw(b []byte) error {
	_, err := w.bw.Write(b)
	return err
}

func (w *writer[T]) close() error {
	switch w.format {
	case FormatParquet:
		return w.pq.Close()
	case formatRows:
		return nil
	}
	return w.bw.Flush()
}

// join writes the header of a format and the parts, in order.
func join[T any](format string, out io.Writer, header []string, parts []string) error {
	if format == FormatParquet {
		pw := parquet.NewGenericWriter[T](out, parquet.Compression(&parquet.Snappy), parquet.MaxRowsPerRowGroup(rowsPerGroup), parquet.CreatedBy("robotsaudit", "", ""))
		for _, p := range parts {
			if err := copyRowGroups(pw, p); err != nil {
				return err
			}
		}
		return pw.Close()
	}
	bw := bufio.NewWriterSize(out, 256<<10)
	switch format {
	case FormatCSV:
		bw.Write(appendCSV(nil, header))
	case FormatTable:
		bw.WriteString(strings.TrimRight(strings.Join(header, "  "), " ") + "\n")
	}
	// Copied a MiB at a time: io.Copy would hand the file to the
	// destination's ReadFrom, which for some writers (io.Discard) reads
	// 8 KiB at a time, and this copy is the one part of a run that no
	// other work overlaps.
	buf := make([]byte, 1<<20)
	for _, p := range parts {
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		_, err = io.CopyBuffer(struct{ io.Writer }{bw}, struct{ io.Reader }{f}, buf)
		f.Close()
		if err != nil {
			return err
		}
	}
	return bw.Flush()
}

func copyRowGroups[T any](pw *parquet.GenericWriter[T], part string) error {
	f, err := os.Open(part)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	if st.Size() == 0 {
		return nil
	}
	pf, err := parquet.OpenFile(f, st.Size())
	if err != nil {
		return fmt.Errorf("%s: %w", part, err)
	}
	for _, rg := range pf.RowGroups() {
		if rg.NumRows() == 0 {
			continue
		}
		if _, err := pw.WriteRowGroup(rg); err != nil {
			return err
		}
	}
	return nil
}

// rowHeader returns the CSV and table columns of Rows for the paths.
func rowHeader(format string, paths []string) []string {
	if format == FormatTable {
		h := []string{pad("origin", 34), pad("agent", 22), pad("label", 8), pad("rules", 12), pad("delay", 5)}
		for _, p := range paths {
			h = append(h, pad(p, 12))
		}
		return h
	}
	h := []string{"input", "offset", "in_member", "url", "origin", "date", "captures", "status", "final_url", "final_status", "hops", "rules",
		"agent", "operator", "purpose", "own_group", "documented", "label", "crawl_delay"}
	for _, p := range paths {
		h = append(h, "allowed "+p, "line "+p, "rule "+p, "content_usage "+p, "content_signal "+p)
	}
	return append(h, "lint_errors", "lint_warnings", "lint")
}

func pad(s string, n int) string {
	if len(s) >= n {
		return s
	}
	return s + strings.Repeat(" ", n-len(s))
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func optBool(b *bool) string {
	if b == nil {
		return ""
	}
	return strconv.FormatBool(*b)
}

func optInt(n *int32) string {
	if n == nil {
		return ""
	}
	return itoa(int64(*n))
}

func optFloat(f *float64) string {
	if f == nil {
		return ""
	}
	return strconv.FormatFloat(*f, 'f', -1, 64)
}

// encodeRow writes a Row as CSV fields.
func encodeRow(r *Row, rec []string) []string {
	return new(rowEncoder).encode(r, rec)
}

// rowEncoder writes Rows as CSV fields, as encodeRow does, keeping the
// text of what the rows of one capture share: one row an agent has the
// capture's offset, status and lint counts.
type rowEncoder struct {
	off, status int64
	offText     string
	statusText  string
	lint        []Lint
	lintText    string
}

func (e *rowEncoder) encode(r *Row, rec []string) []string {
	if e.offText == "" || e.off != r.Offset {
		e.off, e.offText = r.Offset, itoa(r.Offset)
	}
	if e.statusText == "" || e.status != int64(r.Status) {
		e.status, e.statusText = int64(r.Status), itoa(int64(r.Status))
	}
	status := e.statusText
	final := status
	if r.FinalStatus != r.Status {
		final = itoa(int64(r.FinalStatus))
	}
	rec = append(rec, r.Input, e.offText, itoa(r.InMember), r.URL, r.Origin, r.Date, optInt(r.Captures), status, r.FinalURL,
		final, itoa(int64(r.Hops)), r.Rules, r.Agent, r.Operator, r.Purpose,
		strconv.FormatBool(r.OwnGroup), r.Documented, r.Label, optFloat(r.CrawlDelay))
	for _, v := range r.Verdicts {
		rec = append(rec, optBool(v.Allowed), itoa(int64(v.Line)), v.Rule, v.ContentUsage, v.ContentSignal)
	}
	if len(r.Lint) == 0 {
		e.lint, e.lintText = nil, ""
	} else if len(e.lint) != len(r.Lint) || &e.lint[0] != &r.Lint[0] {
		e.lint, e.lintText = r.Lint, lintText(r.Lint)
	}
	return append(rec, optInt(r.LintErrors), optInt(r.LintWarnings), e.lintText)
}

// lintText writes lint counts as "kind (severity)=count; ...".
func lintText(lint []Lint) string {
	var b strings.Builder
	for i, l := range lint {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(l.Kind) // "%s (%s)=%d", without fmt's cost on every row
		b.WriteString(" (")
		b.WriteString(l.Severity)
		b.WriteString(")=")
		b.WriteString(strconv.Itoa(int(l.Count)))
	}
	return b.String()
}

// tableRow writes a Row as the columns of the table format.
func tableRow(r *Row, rec []string) []string {
	delay := optFloat(r.CrawlDelay)
	if delay == "" {
		delay = "-"
	}
	rec = append(rec, pad(r.Origin, 34), pad(r.Agent, 22), pad(r.Label, 8), pad(r.Rules, 12), pad(delay, 5))
	for _, v := range r.Verdicts {
		s := "?"
		if v.Allowed != nil {
			s = "allow"
			if !*v.Allowed {
				s = "disallow"
			}
			if v.Line > 0 {
				s += "@" + itoa(int64(v.Line))
			}
		}
		rec = append(rec, pad(s, 12))
	}
	rec[len(rec)-1] = strings.TrimRight(rec[len(rec)-1], " ")
	return rec
}

func urlHeader(format string) []string {
	if format == FormatTable {
		return []string{pad("url", 50), pad("agent", 22), pad("allowed", 8), "line"}
	}
	return []string{"url", "robots_url", "input", "offset", "in_member", "captures", "status", "rules", "agent", "documented", "allowed", "line", "rule", "content_usage", "content_signal"}
}

func encodeURLRow(r *URLRow, rec []string) []string {
	return append(rec, r.URL, r.RobotsURL, r.Input, itoa(r.Offset), itoa(r.InMember), optInt(r.Captures), itoa(int64(r.Status)), r.Rules, r.Agent, r.Documented,
		optBool(r.Allowed), itoa(int64(r.Line)), r.Rule, r.ContentUsage, r.ContentSignal)
}

func tableURLRow(r *URLRow, rec []string) []string {
	a := optBool(r.Allowed)
	if a == "" {
		a = "?"
	}
	return append(rec, pad(r.URL, 50), pad(r.Agent, 22), pad(a, 8), itoa(int64(r.Line)))
}
