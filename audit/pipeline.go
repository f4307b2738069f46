package audit

import (
	"bytes"
	"context"
	"sync"
)

// A job is one capture of an input, numbered in record order.
type job struct {
	seq int
	rs  *resolved
}

// A result is a job's rows: encoded, or (for Parquet) copied.
type result struct {
	seq  int
	text *bytes.Buffer // from textPool; the writer puts it back
	rows []Row
	n    int64
}

// answerInput answers one input: this goroutine reads it, cfg.Workers
// workers read the rules and answer the questions, and the rows are
// written to w in record order. At most 4 captures a worker are in
// flight, which bounds memory.
func (st *runState) answerInput(ctx context.Context, i int, q *questions, w *writer[Row]) (int64, error) {
	cfg := st.cfg
	nw := cfg.Workers
	jobs := make(chan job, nw)
	results := make(chan result, nw)
	tokens := make(chan struct{}, 4*nw)
	enc := encodeRow
	if cfg.Format == FormatTable {
		enc = tableRow
	}
	var textPool sync.Pool // *bytes.Buffer, handed from the workers to the writer and back
	var wg sync.WaitGroup
	for k := 0; k < nw; k++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var (
				out switchWriter // the buffer of the job at hand
				tw  *writer[Row]
				row Row
			)
			if cfg.Format != FormatParquet {
				tw = newWriter[Row](cfg.Format, &out, enc)
			}
			for j := range jobs {
				j.rs.read(!cfg.NoLint)
				res := result{seq: j.seq}
				if tw != nil {
					out.b, _ = textPool.Get().(*bytes.Buffer)
					if out.b == nil {
						out.b = new(bytes.Buffer)
					}
					out.b.Reset()
				}
				err := q.rows(j.rs, &row, func(r *Row) error {
					res.n++
					if tw != nil {
						return tw.write(r)
					}
					res.rows = append(res.rows, copyRow(r))
					return nil
				})
				if tw != nil {
					err = tw.flush()
					res.text, out.b = out.b, nil
				}
				_ = err // writing to memory does not fail
				results <- res
			}
		}()
	}
	var (
		rows    int64
		werr    error
		doneW   = make(chan struct{})
		waiting = map[int]result{}
		next    int
	)
	go func() {
		defer close(doneW)
		for res := range results {
			waiting[res.seq] = res
			for {
				r, ok := waiting[next]
				if !ok {
					break
				}
				delete(waiting, next)
				next++
				rows += r.n
				if werr == nil {
					if r.text != nil {
						werr = w.writeRaw(r.text.Bytes())
					}
					for k := range r.rows {
						if werr == nil {
							werr = w.write(&r.rows[k])
						}
					}
				}
				if r.text != nil {
					textPool.Put(r.text)
				}
				<-tokens
			}
		}
	}()
	seq := 0
	err := scanShard(ctx, cfg.Inputs[i], &st.bytes, nil, !cfg.NoLint, func(rs *resolved) {
		tokens <- struct{}{}
		if rs.direct {
			c := *rs.c
			c.Body = bytes.Clone(c.Body)
			rs.c = &c
		}
		st.captures.Add(1)
		jobs <- job{seq: seq, rs: rs}
		seq++
	}, st.reporter(i))
	close(jobs)
	wg.Wait()
	close(results)
	<-doneW
	if err == nil {
		err = werr
	}
	return rows, err
}

// copyRow copies a row out of the buffers that rows reuses.
func copyRow(r *Row) Row {
	c := *r
	c.Verdicts = append([]Verdict(nil), r.Verdicts...)
	if r.CrawlDelay != nil {
		d := *r.CrawlDelay
		c.CrawlDelay = &d
	}
	return c
}

// switchWriter writes to the buffer it holds, which changes from job to
// job while the row writer stays.
type switchWriter struct{ b *bytes.Buffer }

func (s *switchWriter) Write(p []byte) (int, error) { return s.b.Write(p) }
