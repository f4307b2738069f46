package audit

import (
	"bytes"
	"context"
	"sync"
)

// A job is a batch of captures of an input in record order, numbered in
// that order: a batch rather than one capture, so that handing work from
// goroutine to goroutine costs little next to the work.
type job struct {
	seq int
	rss []*resolved
}

// A batch closes at batchCaptures captures or batchBytes bytes of bodies.
const (
	batchCaptures = 16
	batchBytes    = 1 << 20
)

// A result is a job's rows: encoded, or (for Parquet) copied.
type result struct {
	seq  int
	text *bytes.Buffer // from textPool; the writer puts it back
	rows []Row
	n    int64
}

// answerInput answers one input: this goroutine reads it, cfg.Workers
// workers read the rules and answer the questions, and the rows are
// written to w in record order. At most 4 batches a worker are in
// flight, which bounds memory.
func (st *runState) answerInput(ctx context.Context, i int, q *questions, w *writer[Row]) (int64, error) {
	cfg := st.cfg
	nw := cfg.Workers
	jobs := make(chan job, nw)
	results := make(chan result, nw)
	tokens := make(chan struct{}, 4*nw)
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
				enc := new(rowEncoder).encode // the worker's own: it keeps the text of a capture's fields
				if cfg.Format == FormatTable {
					enc = tableRow
				}
				tw = newWriter[Row](cfg.Format, &out, enc)
			}
			for j := range jobs {
				res := result{seq: j.seq}
				if tw != nil {
					out.b, _ = textPool.Get().(*bytes.Buffer)
					if out.b == nil {
						out.b = new(bytes.Buffer)
					}
					out.b.Reset()
				}
				var err error
				for _, rs := range j.rss {
					rs.read(!cfg.NoLint)
					err = q.rows(rs, &row, func(r *Row) error {
						res.n++
						if tw != nil {
							return tw.write(r)
						}
						res.rows = append(res.rows, copyRow(r))
						return nil
					})
				}
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
	var (
		batch []*resolved
		size  int // bytes of bodies in batch
	)
	send := func() {
		if len(batch) == 0 {
			return
		}
		tokens <- struct{}{}
		jobs <- job{seq: seq, rss: batch}
		seq++
		batch, size = nil, 0
	}
	err := scanShard(ctx, cfg.Inputs[i], &st.bytes, nw, nil, !cfg.NoLint, func(rs *resolved) {
		if rs.direct {
			if !rs.c.own {
				c := *rs.c
				c.Body = bytes.Clone(c.Body)
				rs.c = &c
			}
			size += len(rs.c.Body)
		}
		st.captures.Add(1)
		batch = append(batch, rs)
		if len(batch) == batchCaptures || size >= batchBytes {
			send()
		}
	}, st.reporter(i))
	send()
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
