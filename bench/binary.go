package main

import (
	"bytes"
	"encoding"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/robotstxt-go/robotstxt"
)

// codec is ours' binary form: *robotstxt.Robots as an
// encoding.BinaryMarshaler and encoding.BinaryUnmarshaler. It is looked up
// at run time, so that the harness builds against a package without it and
// measures it as soon as the package has it.
type codec struct {
	marshal   func(r *robotstxt.Robots) ([]byte, error)
	unmarshal func(data []byte) (*robotstxt.Robots, error)
}

// oursCodec returns ours' codec, or nil when *robotstxt.Robots lacks
// MarshalBinary or UnmarshalBinary.
func oursCodec() *codec {
	var r any = new(robotstxt.Robots)
	if _, ok := r.(encoding.BinaryMarshaler); !ok {
		return nil
	}
	if _, ok := r.(encoding.BinaryUnmarshaler); !ok {
		return nil
	}
	return &codec{
		marshal: func(r *robotstxt.Robots) ([]byte, error) {
			return any(r).(encoding.BinaryMarshaler).MarshalBinary()
		},
		unmarshal: func(data []byte) (*robotstxt.Robots, error) {
			r := new(robotstxt.Robots)
			err := any(r).(encoding.BinaryUnmarshaler).UnmarshalBinary(data)
			return r, err
		},
	}
}

// binaryFile holds one real file's binary form and its series.
type binaryFile struct {
	f                         *file
	blob                      []byte
	parse, unmarshal, marshal *series
}

// binaryMeasure compares loading ours' binary form with parsing the
// source: the throughput of each (in bytes of source per second), the cost
// of making the binary form, its size, and the heap a loaded file keeps
// against a parsed one.
type binaryMeasure struct {
	available bool
	files     []*binaryFile
	parsed    *heapTally // from the heap measure
	loaded    heapTally

	marshalErrs, unmarshalErrs int
	asked, differ              int    // Decide on loaded vs parsed, over the files' questions
	sitemapsDiffer             int    // files
	truncated                  [3]int // truncated blobs: rejected, accepted, panicked
}

// newBinaryMeasure makes the binary form of every non-empty real file with
// c, checks that the loaded form answers as the parsed one, measures its
// retained heap (untimed; like the heap measure it runs before the timed
// rounds) and adds the timed series to l. parsed is the heap measure's
// tally for ours, made over the same files. With a nil c, it measures
// nothing and says so.
func newBinaryMeasure(real []*file, c *codec, parsed *heapTally, target int, l *loop) *binaryMeasure {
	m := &binaryMeasure{parsed: parsed}
	if c == nil {
		return m
	}
	m.available = true
	t0 := time.Now()
	holder := make([]any, 256)
	for _, f := range real {
		if len(f.data) == 0 {
			continue
		}
		r := robotstxt.Parse(f.data)
		blob, err := c.marshal(r)
		if err != nil {
			m.marshalErrs++
			continue
		}
		loaded, err := c.unmarshal(bytes.Clone(blob))
		if err != nil {
			m.unmarshalErrs++
			continue
		}
		m.compare(r, loaded, f.questions)
		m.truncate(c, blob)
		m.loaded.add(func([]byte) (any, error) { return c.unmarshal(bytes.Clone(blob)) }, f.data, holder, target)

		bf := &binaryFile{f: f, blob: blob}
		data := f.data
		bf.parse = newSeries(func(int) { sinkAny = oursParse(data) })
		bf.unmarshal = newSeries(func(int) { sinkAny, _ = c.unmarshal(blob) })
		bf.marshal = newSeries(func(int) { sinkAny, _ = c.marshal(r) })
		l.add(bf.parse, bf.unmarshal, bf.marshal)
		m.files = append(m.files, bf)
	}
	logf("binary-form checks and heap took %v", time.Since(t0).Round(time.Millisecond))
	return m
}

// compare counts the questions a loaded file answers differently from the
// parsed one (the whole Decision: answer, line, rule), and its sitemaps.
func (m *binaryMeasure) compare(parsed, loaded *robotstxt.Robots, qs []question) {
	for i := range qs {
		m.asked++
		if parsed.Decide(qs[i].agent, qs[i].url) != loaded.Decide(qs[i].agent, qs[i].url) {
			m.differ++
		}
	}
	if !slices.Equal(parsed.Sitemaps(), loaded.Sitemaps()) {
		m.sitemapsDiffer++
	}
}

// truncate loads the first half of blob and counts what happens: a clear
// error is the outcome a caller can act on.
func (m *binaryMeasure) truncate(c *codec, blob []byte) {
	defer func() {
		if recover() != nil {
			m.truncated[2]++
		}
	}()
	if _, err := c.unmarshal(bytes.Clone(blob[:len(blob)/2])); err != nil {
		m.truncated[0]++
	} else {
		m.truncated[1]++
	}
}

func (m *binaryMeasure) print(w io.Writer) {
	section(w, "Load vs parse (ours): UnmarshalBinary of the binary form against Parse of the source")
	if !m.available {
		fmt.Fprintln(w, "Not measured: *robotstxt.Robots has no MarshalBinary and UnmarshalBinary in this build.")
		return
	}
	// Throughput in MB of source per second, and the size of the form.
	var mbps [3][]float64
	var srcBytes, ns [3]float64
	var perFileNS [3][]float64
	var sizes []float64
	var blobBytes, allSrc float64
	for _, bf := range m.files {
		size := float64(len(bf.f.data))
		sizes = append(sizes, float64(len(bf.blob))/size)
		blobBytes += float64(len(bf.blob))
		allSrc += size
		for i, s := range []*series{bf.parse, bf.unmarshal, bf.marshal} {
			if !s.ok() {
				continue
			}
			v := s.median()
			mbps[i] = append(mbps[i], size/v*1e3)
			perFileNS[i] = append(perFileNS[i], v)
			srcBytes[i] += size
			ns[i] += v
		}
	}
	whole := func(i int) float64 { return srcBytes[i] / ns[i] * 1e3 }
	times := func(a, b float64) string { return f3(a/b) + "×" }
	rows := [][]string{
		{"MB of source per second, median per file",
			f3(median(mbps[0])), f3(median(mbps[1])), f3(median(mbps[2])), times(median(mbps[1]), median(mbps[0]))},
		{"MB of source per second, whole corpus",
			f3(whole(0)), f3(whole(1)), f3(whole(2)), times(whole(1), whole(0))},
		{"time per file, median",
			fns(median(perFileNS[0])), fns(median(perFileNS[1])), fns(median(perFileNS[2])), times(median(perFileNS[0]), median(perFileNS[1]))},
		{"binary form ÷ source bytes, median per file; whole corpus",
			"–", "–", f3(median(sizes)) + "×; " + f3(blobBytes/allSrc) + "×", "–"},
		{"heap retained ÷ source bytes, median per file",
			f3(m.parsed.median()) + "×", f3(m.loaded.median()) + "×", "–", times(m.loaded.median(), m.parsed.median())},
		{"heap retained ÷ source bytes, whole corpus",
			f3(m.parsed.whole()) + "×", f3(m.loaded.whole()) + "×", "–", times(m.loaded.whole(), m.parsed.whole())},
	}
	markdown(w, []string{fmt.Sprintf("%d files", len(m.files)), "Parse", "UnmarshalBinary", "MarshalBinary", "load vs parse"}, rows)
	fmt.Fprintln(w)
	fmt.Fprintf(w, "- load vs parse: UnmarshalBinary's throughput over Parse's, Parse's time over UnmarshalBinary's; for the heap, loaded over parsed.\n")
	fmt.Fprintf(w, "- Round trip: a loaded file answered %d of %d questions differently from the parsed one (whole Decision); sitemaps differed in %d files; MarshalBinary failed on %d files, UnmarshalBinary of its output on %d.\n",
		m.differ, m.asked, m.sitemapsDiffer, m.marshalErrs, m.unmarshalErrs)
	fmt.Fprintf(w, "- The first half of each binary form: rejected with an error %d times, accepted %d times, panicked %d times.\n",
		m.truncated[0], m.truncated[1], m.truncated[2])
}
