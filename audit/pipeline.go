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

// answerInput answers one input: cfg.Workers workers read it (see
// readWARC), read the rules and answer the questions, and the rows are
// written to w in record order. At most 4 batches a worker are in
// flight, which bounds memory. One worker does it all in this goroutine,
// so that a worker is a core's worth of work.
func (st *runState) answerInput(ctx context.Context, i int, q *questions, w *writer[Row]) (int64, error) {
	cfg := st.cfg
	nw := cfg.Workers
	var textPool sync.Pool // *bytes.Buffer, handed from the workers to the writer and back
	var (
		rows int64
		werr error
	)
	put := func(r result) {
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
	}
	var (
		jobs    chan job
		tokens  chan struct{}
		results chan result
		wg      sync.WaitGroup
		doneW   = make(chan struct{})
		inline  *answerer
	)
	if nw == 1 {
		inline = newAnswerer(cfg, q, &textPool)
		close(doneW)
	} else {
		jobs = make(chan job, nw)
		results = make(chan result, nw)
		tokens = make(chan struct{}, 4*nw)
		for range nw {
			wg.Add(1)
			go func() {
				defer wg.Done()
				a := newAnswerer(cfg, q, &textPool)
				for j := range jobs {
					results <- a.answer(j)
				}
			}()
		}
		go func() {
			defer close(doneW)
			waiting := map[int]result{}
			next := 0
			for res := range results {
				waiting[res.seq] = res
				for {
					r, ok := waiting[next]
					if !ok {
						break
					}
					delete(waiting, next)
					next++
					put(r)
					<-tokens
				}
			}
		}()
	}
	seq := 0
	var (
		batch []*resolved
		size  int // bytes of bodies in batch
	)
	send := func() {
		if len(batch) == 0 {
			return
		}
		j := job{seq: seq, rss: batch}
		seq++
		batch, size = nil, 0
		if inline != nil {
			put(inline.answer(j))
			return
		}
		tokens <- struct{}{}
		jobs <- j
	}
	err := scanShard(ctx, cfg.Inputs[i], &st.bytes, reading{workers: nw, split: cfg.split}, nil, !cfg.NoLint, func(rs *resolved) {
		st.seen.Add(1)
		if !st.keep(i, rs) {
			return
		}
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
	if inline == nil {
		close(jobs)
		wg.Wait()
		close(results)
	}
	<-doneW
	if err == nil {
		err = werr
	}
	return rows, err
}

// An answerer answers the captures of jobs into rows, reusing its
// buffers from job to job.
type answerer struct {
	cfg      *Config
	q        *questions
	textPool *sync.Pool
	out      switchWriter // the buffer of the job at hand
	tw       *writer[Row] // nil for Parquet
	row      Row
}

func newAnswerer(cfg *Config, q *questions, textPool *sync.Pool) *answerer {
	a := &answerer{cfg: cfg, q: q, textPool: textPool}
	if cfg.Format != FormatParquet && cfg.Format != formatRows {
		enc := new(rowEncoder).encode // the answerer's own: it keeps the text of a capture's fields
		if cfg.Format == FormatTable {
			enc = tableRow
		}
		a.tw = newWriter[Row](cfg.Format, &a.out, enc)
	}
	return a
}

// answer reads the rules of a job's captures and answers them.
func (a *answerer) answer(j job) result {
	res := result{seq: j.seq}
	if a.tw != nil {
		a.out.b, _ = a.textPool.Get().(*bytes.Buffer)
		if a.out.b == nil {
			a.out.b = new(bytes.Buffer)
		}
		a.out.b.Reset()
	}
	for _, rs := range j.rss {
		rs.read(!a.cfg.NoLint)
		// Writing to memory does not fail.
		_ = a.q.rows(rs, &a.row, func(r *Row) error {
			res.n++
			if a.tw != nil {
				return a.tw.write(r)
			}
			res.rows = append(res.rows, copyRow(r))
			return nil
		})
	}
	if a.tw != nil {
		_ = a.tw.flush()
		res.text, a.out.b = a.out.b, nil
	}
	return res
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
