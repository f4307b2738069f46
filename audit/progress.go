package audit

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"
)

// progress draws a line on cfg.Progress every half second: captures, MB
// read, MB/s and the time left, from the bytes read of the inputs' total
// size. It returns a function that stops it and clears the line.
func (st *runState) progress() (stop func()) {
	w := st.cfg.Progress
	if w == nil {
		return func() {}
	}
	var total int64
	for _, in := range st.cfg.Inputs {
		filepath.Walk(in, func(_ string, fi os.FileInfo, err error) error {
			if err == nil && fi.Mode().IsRegular() {
				total += fi.Size()
			}
			return nil
		})
	}
	if st.cfg.URLs != nil {
		total = 0 // several passes: no estimate
	}
	return progressLine(w, func(sec float64) string {
		n := st.bytes.Load()
		rate := float64(n) / 1e6 / sec
		line := fmt.Sprintf("%d captures  %.1f MB  %.1f MB/s", st.captures.Load(), float64(n)/1e6, rate)
		if total > 0 && n > 0 {
			left := time.Duration(float64(total-n) / float64(n) * sec * float64(time.Second)).Round(time.Second)
			line += fmt.Sprintf("  %3.0f%%  ETA %s", 100*float64(n)/float64(total), left)
		}
		return line
	})
}

// progressLine draws line(seconds since the start) on w every half
// second, each over the last, until the returned function is called; that
// function clears the line and returns once the drawing has stopped. The
// audit and the log replay both draw their progress with it.
func progressLine(w io.Writer, line func(sec float64) string) (stop func()) {
	start := time.Now()
	quit := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(500 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-quit:
				fmt.Fprint(w, "\r\033[K")
				return
			case <-t.C:
				fmt.Fprint(w, "\r\033[K"+line(time.Since(start).Seconds()))
			}
		}
	}()
	return func() { close(quit); <-finished }
}
