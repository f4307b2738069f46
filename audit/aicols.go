package audit

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"strconv"
	"strings"

	"github.com/parquet-go/parquet-go"
	"github.com/robotstxt-go/robotstxt"
	"github.com/robotstxt-go/robotstxt/aiuse"
	"github.com/robotstxt-go/robotstxt/crawlers"
)

// The AI table (Config.AI) answers, for each answered capture × path (or
// each URL of a URL list), package aiuse's question: may operator O use
// the page for purpose P? Its columns are the capture's (AIPath, AIURL)
// and, for every operator × use that the crawler table documents
// (crawlers.AllGoverns, in its order), two columns named after them
// (AIColumn): the verdict, and the robots.txt line of the signal that
// decided it.

// AIPath is the capture part of a row of the AI table with paths: the
// columns of Row that say which capture answered, and the path asked.
type AIPath struct {
	Input       string `parquet:"input" json:"input"`
	Offset      int64  `parquet:"offset" json:"offset"`
	InMember    int64  `parquet:"in_member" json:"in_member"`
	URL         string `parquet:"url" json:"url"`
	Origin      string `parquet:"origin" json:"origin"`
	Date        string `parquet:"date" json:"date"`
	Captures    *int32 `parquet:"captures,optional" json:"captures"`
	Status      int32  `parquet:"status" json:"status"`
	FinalURL    string `parquet:"final_url" json:"final_url"`
	FinalStatus int32  `parquet:"final_status" json:"final_status"`
	Hops        int32  `parquet:"hops" json:"hops"`
	Rules       string `parquet:"rules" json:"rules"`
	Path        string `parquet:"path" json:"path"`
}

// AIURL is the capture part of a row of the AI table with a URL list: the
// columns of URLRow that say which URL and which capture.
type AIURL struct {
	URL       string `parquet:"url" json:"url"`
	RobotsURL string `parquet:"robots_url" json:"robots_url"`
	Input     string `parquet:"input" json:"input"`
	Offset    int64  `parquet:"offset" json:"offset"`
	InMember  int64  `parquet:"in_member" json:"in_member"`
	Captures  *int32 `parquet:"captures,optional" json:"captures"`
	Status    int32  `parquet:"status" json:"status"`
	Rules     string `parquet:"rules" json:"rules"`
}

// AIColumn names the verdict column of operator op's use u: "ai_", then
// the operator and the use in lower case, each run of other characters
// than letters and digits written "_": ai_google_training,
// ai_common_crawl_training, ai_openai_user_fetch. Its deciding line is
// the column of that name followed by "_line". The names need no quotes
// in SQL.
func AIColumn(op string, u crawlers.Use) string {
	return "ai_" + snake(op) + "_" + snake(string(u))
}

// snake writes s in lower case with each run of characters other than
// ASCII letters and digits as one "_", none at either end.
func snake(s string) string {
	var b strings.Builder
	gap := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'A' <= c && c <= 'Z':
			c += 'a' - 'A'
		case 'a' <= c && c <= 'z', '0' <= c && c <= '9':
		default:
			gap = true
			continue
		}
		if gap && b.Len() > 0 {
			b.WriteByte('_')
		}
		gap = false
		b.WriteByte(c)
	}
	return b.String()
}

// aiCell is a column pair of the AI table: an operator × use of the
// matrix, at (op, use) in aiuse.Matrix's Cells.
type aiCell struct {
	name    string
	op, use int
}

// aiCells returns the column pairs: the cells of the matrix whose
// operator documents the use, by operator then use, as crawlers.AllGoverns
// lists them. A cell whose operator documents no token for the use would
// say "no token" in every row, and has no column.
func aiCells() []aiCell {
	var out []aiCell
	for i, op := range crawlers.UseOperators() {
		for j, u := range crawlers.Uses {
			if _, ok := crawlers.GovernsFor(op, u); ok {
				out = append(out, aiCell{name: AIColumn(op, u), op: i, use: j})
			}
		}
	}
	return out
}

// aiTable writes the AI table in one format: the rows are a struct type
// made at run time (the capture part's fields, then a verdict and a line
// for each cell), which encoding/json and the Parquet writer read like a
// struct written in Go.
type aiTable struct {
	format string
	cells  []aiCell
	head   int // fields of the capture part
	typ    reflect.Type
	row    reflect.Value // reused
	bw     *bufio.Writer
	pq     *parquet.Writer
	rec    []string
	line   []byte
	seen   csvSeen
	verd   []string // the verdicts' names, by aiuse.Verdict
}

var (
	optString = reflect.TypeFor[*string]()
	int32Type = reflect.TypeFor[int32]()
)

// newAITable starts an AI table in format on out, with the capture part
// head (an AIPath or AIURL), and writes the CSV header.
func newAITable(format string, out io.Writer, head any) *aiTable {
	t := &aiTable{format: format, cells: aiCells()}
	ht := reflect.TypeOf(head)
	var fields []reflect.StructField
	for i := range ht.NumField() {
		fields = append(fields, ht.Field(i))
	}
	t.head = len(fields)
	for k, c := range t.cells {
		fields = append(fields,
			reflect.StructField{Name: "V" + strconv.Itoa(k), Type: optString, Tag: reflect.StructTag(`parquet:"` + c.name + `,optional" json:"` + c.name + `"`)},
			reflect.StructField{Name: "L" + strconv.Itoa(k), Type: int32Type, Tag: reflect.StructTag(`parquet:"` + c.name + `_line" json:"` + c.name + `_line"`)})
	}
	t.typ = reflect.StructOf(fields)
	t.row = reflect.New(t.typ).Elem()
	for v := aiuse.NotStated; v <= aiuse.NoToken; v++ {
		t.verd = append(t.verd, v.String())
	}
	if format == FormatParquet {
		t.pq = parquet.NewWriter(out, parquet.SchemaOf(reflect.New(t.typ).Interface()), parquet.Compression(&parquet.Snappy),
			parquet.MaxRowsPerRowGroup(rowsPerGroup), parquet.CreatedBy("robotsaudit", "", ""))
		return t
	}
	t.bw = bufio.NewWriterSize(out, 256<<10)
	if format == FormatCSV {
		var h []string
		for i := range t.typ.NumField() {
			name, _, _ := strings.Cut(t.typ.Field(i).Tag.Get("json"), ",")
			h = append(h, name)
		}
		t.bw.Write(appendCSV(nil, h))
	}
	return t
}

// write writes a row: the capture part head (of the table's type), and the
// matrix m, or none when the rules are unknown (null verdicts).
func (t *aiTable) write(head any, m *aiuse.Matrix) error {
	hv := reflect.ValueOf(head)
	for i := range t.head {
		t.row.Field(i).Set(hv.Field(i))
	}
	for k, c := range t.cells {
		v, l := t.row.Field(t.head+2*k), t.row.Field(t.head+2*k+1)
		if m == nil {
			v.SetZero()
			l.SetInt(0)
			continue
		}
		a := &m.Cells[c.op][c.use]
		v.Set(reflect.ValueOf(&t.verd[a.Verdict]))
		line := int32(0)
		if s, ok := a.Decider(); ok {
			line = s.Line
		}
		l.SetInt(int64(line))
	}
	switch t.format {
	case FormatParquet:
		return t.pq.Write(t.row.Addr().Interface())
	case FormatCSV:
		t.rec = t.rec[:0]
		for i := range t.typ.NumField() {
			t.rec = append(t.rec, fieldText(t.row.Field(i)))
		}
		t.line = appendCSVSeen(t.line[:0], t.rec, &t.seen)
		_, err := t.bw.Write(t.line)
		return err
	}
	b, err := json.Marshal(t.row.Addr().Interface())
	if err != nil {
		return err
	}
	t.bw.Write(b)
	return t.bw.WriteByte('\n')
}

// fieldText is a field of the AI table as CSV writes it: null (a nil
// pointer) is empty.
func fieldText(v reflect.Value) string {
	if v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return ""
		}
		v = v.Elem()
	}
	switch v.Kind() {
	case reflect.String:
		return v.String()
	case reflect.Int32, reflect.Int64:
		return itoa(v.Int())
	}
	panic("audit: no CSV text for " + v.Type().String())
}

func (t *aiTable) close() error {
	if t.pq != nil {
		return t.pq.Close()
	}
	return t.bw.Flush()
}

// aiMatrix answers the matrix for a capture's rules and a URL asked as
// recorded, or nil when the rules are unknown.
func aiMatrix(rs *resolved, asked string) *aiuse.Matrix {
	if rs.rules == nil {
		return nil
	}
	site := aiuse.Site{Robots: rs.rules}
	m := site.Matrix(asked)
	return &m
}

// runAIPaths writes the AI table of the paths: each input in turn, its
// captures answered in record order as they are read.
func (st *runState) runAIPaths(ctx context.Context, out io.Writer) error {
	cfg := st.cfg
	q := newQuestions(nil, cfg.Paths)
	t := newAITable(cfg.Format, out, AIPath{})
	var werr error
	for i, in := range cfg.Inputs {
		if ctx.Err() != nil {
			break
		}
		err := scanShard(ctx, in, &st.bytes, reading{workers: cfg.Workers, split: cfg.split}, nil, false, func(rs *resolved) {
			st.seen.Add(1)
			if werr != nil || !st.keep(i, rs) {
				return
			}
			rs.read(false)
			st.captures.Add(1)
			c := rs.c
			h := AIPath{Input: c.Input, Offset: c.Offset, InMember: c.InMember, URL: c.URL, Date: c.Date,
				Status: int32(c.Status), FinalURL: rs.final, FinalStatus: int32(rs.finalStatus), Hops: int32(rs.hops), Rules: rulesName(rs.rules)}
			h.Origin, _ = robotstxt.Origin(c.URL)
			if rs.captures > 0 {
				n := rs.captures
				h.Captures = &n
			}
			for j, p := range q.asked {
				h.Path = q.paths[j]
				if werr = t.write(h, aiMatrix(rs, p)); werr != nil {
					return
				}
				st.sum.Rows++
			}
		}, st.reporter(i))
		if werr != nil {
			return werr
		}
		if err != nil {
			if !errors.Is(err, context.Canceled) {
				return err
			}
			st.sum.Partial = in
			break
		}
		st.sum.Done++
	}
	return t.close()
}

// writeURL writes the AI table's row of URL u, whose robots.txt is
// robotsURL, answered by rs.
func (t *aiTable) writeURL(u, robotsURL string, rs *resolved) error {
	h := AIURL{URL: u, RobotsURL: robotsURL, Input: rs.c.Input, Offset: rs.c.Offset, InMember: rs.c.InMember,
		Status: int32(rs.c.Status), Rules: rulesName(rs.rules)}
	if rs.captures > 0 {
		n := rs.captures
		h.Captures = &n
	}
	return t.write(h, aiMatrix(rs, asRecorded(u)))
}
