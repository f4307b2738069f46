package audit

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strconv"
)

// maxLine is the longest JSON line read: a body of maxBody bytes, each
// escaped as \u00XX at worst, and room for the other fields.
const maxLine = 6*maxBody + 64<<10

type jsonCapture struct {
	URL      string       `json:"url"`
	Status   *json.Number `json:"status"`
	Body     *string      `json:"body"`
	Location string       `json:"location"`
	Date     string       `json:"date"`
}

// readJSONL calls emit for each line of a JSON Lines input.
func readJSONL(ctx context.Context, in *inputFile, want func(key string) bool, emit func(*Capture), report func(Problem)) error {
	br := bufio.NewReaderSize(in.r, 64<<10)
	var (
		off   int64
		line  []byte
		lines int
		good  int
	)
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		start := off
		line = line[:0]
		tooLong := false
		var err error
		for {
			var chunk []byte
			chunk, err = br.ReadSlice('\n')
			off += int64(len(chunk))
			if !tooLong {
				line = append(line, chunk...)
				if len(line) > maxLine {
					tooLong, line = true, line[:0]
				}
			}
			if err != bufio.ErrBufferFull {
				break
			}
		}
		if err != nil && err != io.EOF {
			if len(line) > 0 || tooLong {
				report(Problem{Input: in.name, Offset: start, Kind: ProblemJSON, Detail: err.Error(), Skipped: true})
			}
			if gzipTrouble(err) && in.gzip {
				report(Problem{Input: in.name, Offset: off, Kind: ProblemGzip, Detail: err.Error(), Skipped: true})
				return nil
			}
			return err
		}
		if tooLong {
			report(Problem{Input: in.name, Offset: start, Kind: ProblemJSON, Detail: "line longer than " + strconv.Itoa(maxLine) + " bytes", Skipped: true})
		} else if len(trimSpaceBytes(line)) > 0 {
			lines++
			if readJSONLine(in.name, start, line, want, emit, report) {
				good++
			}
		}
		if err == io.EOF {
			break
		}
	}
	if good == 0 {
		report(Problem{Input: in.name, Offset: 0, Kind: ProblemEmpty, Detail: "no captures", Skipped: true})
	}
	return nil
}

func readJSONLine(name string, off int64, line []byte, want func(string) bool, emit func(*Capture), report func(Problem)) bool {
	var jc jsonCapture
	if err := json.Unmarshal(line, &jc); err != nil {
		report(Problem{Input: name, Offset: off, Kind: ProblemJSON, Detail: err.Error(), Skipped: true})
		return false
	}
	if jc.URL == "" {
		report(Problem{Input: name, Offset: off, Kind: ProblemJSON, Detail: errors.New(`no "url"`).Error(), Skipped: true})
		return false
	}
	key, err := urlKey(jc.URL)
	if err != nil {
		report(Problem{Input: name, Offset: off, Kind: ProblemURL, Detail: urlProblem(quoteShort(jc.URL), err), Skipped: true})
		return false
	}
	if want != nil && !want(key) {
		return true
	}
	c := &Capture{Input: name, Offset: off, URL: key, Date: jc.Date, Status: 200, Location: jc.Location}
	if jc.Status != nil {
		n, err := strconv.Atoi(jc.Status.String())
		if err != nil || !httpStatus(n) {
			report(Problem{Input: name, Offset: off, Kind: ProblemJSON, Detail: `"status" ` + quoteShort(jc.Status.String()) + " is not an HTTP status (" + statusRange + ")", Skipped: true})
			return false
		}
		c.Status = n
	}
	if jc.Date != "" {
		if _, err := parseDate(jc.Date); err != nil {
			report(Problem{Input: name, Offset: off, Kind: ProblemJSON, Detail: `"date" ` + quoteShort(jc.Date) + " is not an RFC 3339 date", Skipped: true})
			return false
		}
	}
	if jc.Body != nil {
		c.Body = []byte(*jc.Body)
		if len(c.Body) > maxBody {
			c.Body, c.Oversize = c.Body[:maxBody], true
		}
	}
	emit(c)
	return true
}

func trimSpaceBytes(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t' || b[0] == '\r' || b[0] == '\n') {
		b = b[1:]
	}
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t' || b[len(b)-1] == '\r' || b[len(b)-1] == '\n') {
		b = b[:len(b)-1]
	}
	return b
}
