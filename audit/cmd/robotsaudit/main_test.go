package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/klauspost/compress/gzip"
	"github.com/nlnwa/gowarc"
	"github.com/parquet-go/parquet-go"
	"github.com/robotstxt-go/robotstxt/audit"
)

// member is one gzipped WARC response record, built with the WARC library.
func member(t *testing.T, url string, status int, body string) []byte {
	t.Helper()
	http := fmt.Sprintf("HTTP/1.1 %d X\r\nContent-Length: %d\r\n\r\n%s", status, len(body), body)
	b := gowarc.NewRecordBuilder(gowarc.Response, gowarc.WithAddMissingDigest(false))
	b.AddWarcHeader(gowarc.WarcTargetURI, url)
	b.AddWarcHeader(gowarc.WarcDate, "2026-01-02T03:04:05Z")
	b.AddWarcHeader(gowarc.ContentType, "application/http;msgtype=response")
	b.AddWarcHeader(gowarc.WarcRecordID, "<urn:uuid:00000000-0000-4000-8000-000000000000>")
	b.WriteString(http)
	rec, _, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	var raw, out bytes.Buffer
	if _, _, err := gowarc.NewMarshaler().Marshal(&raw, rec, 0); err != nil {
		t.Fatal(err)
	}
	z := gzip.NewWriter(&out)
	z.Write(raw.Bytes())
	z.Close()
	return out.Bytes()
}

func buildCommand(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "robotsaudit")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// TestInterruptLeavesCompleteOutput sends SIGINT to a real robotsaudit
// process in the middle of one large input and checks that the output file
// is a whole Parquet file holding the rows answered so far, whole captures
// in record order, with no temporary file left (#32: "an interrupted input
// keeps the complete rows answered so far").
func TestInterruptLeavesCompleteOutput(t *testing.T) {
	bin := buildCommand(t)
	dir := t.TempDir()
	body := "User-agent: *\nDisallow: /private\n" + strings.Repeat("Disallow: /filler/path\nAllow: /filler/path/open\n", 300)
	// One input large enough that the run is still going when the signal
	// comes (about 90 ms a 400 captures here), however fast the audit gets.
	const captures = 24000
	var in bytes.Buffer
	for i := range captures {
		in.Write(member(t, fmt.Sprintf("https://big%d.example/robots.txt", i), 200, body))
	}
	if err := os.WriteFile(filepath.Join(dir, "in.warc.gz"), in.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out", "rows.parquet")
	os.Mkdir(filepath.Dir(out), 0o755)
	cmd := exec.Command(bin, "-workers", "2", "-all-captures", "-o", out, filepath.Join(dir, "in.warc.gz"))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(1500 * time.Millisecond)
	cmd.Process.Signal(syscall.SIGINT)
	err := cmd.Wait()
	code := cmd.ProcessState.ExitCode()
	if code != 130 {
		t.Fatalf("exit %d (%v), want 130; stderr:\n%s", code, err, stderr.String())
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := parquet.Read[audit.Row](bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatalf("output is not a whole Parquet file: %v", err)
	}
	agents := len(audit.BuiltinAgents())
	if len(rows) == 0 || len(rows)%agents != 0 || len(rows) == captures*agents {
		t.Fatalf("%d rows: want whole captures of %d rows, some but fewer than all", len(rows), agents)
	}
	for i, r := range rows {
		if want := fmt.Sprintf("https://big%d.example/robots.txt", i/agents); r.URL != want {
			t.Fatalf("row %d is of %s, want %s: the rows kept are the first captures in record order", i, r.URL, want)
		}
	}
	ents, _ := os.ReadDir(filepath.Dir(out))
	if len(ents) != 1 {
		t.Errorf("files beside the output: %v", ents)
	}
	if !strings.Contains(stderr.String(), "rows answered so far of") {
		t.Errorf("stderr does not say the input was cut: %s", stderr.String())
	}
	t.Logf("interrupted after %d of %d captures; %s", len(rows)/agents, captures, strings.TrimSpace(stderr.String()))
}

// TestExitStatusAndProgress: a skipped record makes the exit status 1; the
// progress line is not drawn when stderr is not a terminal.
func TestExitStatusAndProgress(t *testing.T) {
	dir := t.TempDir()
	good := member(t, "https://a.example/robots.txt", 200, "User-agent: *\nDisallow: /x\n")
	bad := member(t, "https://b.example/robots.txt", 200, "User-agent: *\nDisallow: /y\n")
	os.WriteFile(filepath.Join(dir, "ok.warc.gz"), good, 0o644)
	os.WriteFile(filepath.Join(dir, "bad.warc.gz"), append(append([]byte{}, good...), bad[:len(bad)-20]...), 0o644)
	var out, errb bytes.Buffer
	if code := run([]string{filepath.Join(dir, "ok.warc.gz")}, &out, &errb); code != 0 {
		t.Errorf("exit %d, want 0: %s", code, errb.String())
	}
	if strings.Contains(errb.String(), "\r") {
		t.Errorf("progress drawn on a non-terminal: %q", errb.String())
	}
	out.Reset()
	errb.Reset()
	if code := run([]string{"-format", "table", filepath.Join(dir, "bad.warc.gz")}, &out, &errb); code != 1 {
		t.Errorf("exit %d, want 1: %s", code, errb.String())
	}
	if !strings.Contains(errb.String(), "@") || !strings.Contains(out.String(), "https://a.example") {
		t.Errorf("want the good record answered and the bad one reported:\n%s\n%s", out.String(), errb.String())
	}
}

// TestRoughEdges: the command's answers to what #32 found at its edges.
func TestRoughEdges(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.warc.gz")
	html := member(t, "https://h.example/robots.txt", 200, "<!DOCTYPE html><html>not robots</html>")
	os.WriteFile(in, append(member(t, "https://a.example/robots.txt", 200, "User-agent: *\nDisallow: /x\n"), html...), 0o644)
	var out, errb bytes.Buffer
	do := func(args ...string) int {
		out.Reset()
		errb.Reset()
		return run(args, &out, &errb)
	}

	// A path without its leading slash is refused.
	if code := do("-paths", "/,search", in); code != 2 || !strings.Contains(errb.String(), `"search"`) {
		t.Errorf("-paths search: exit %d, %s", code, errb.String())
	}

	// Outputs follow the umask.
	old := syscall.Umask(0o027)
	o := filepath.Join(dir, "out.csv")
	code := do("-o", o, in)
	syscall.Umask(old)
	if st, err := os.Stat(o); code != 0 || err != nil || st.Mode().Perm() != 0o640 {
		t.Errorf("-o under umask 027: exit %d, %v, mode %v; want 0640", code, err, st)
	}

	// -o replaces a regular file, and nothing else.
	link := filepath.Join(dir, "link.csv")
	os.Symlink(o, link)
	if code := do("-o", link, in); code != 2 {
		t.Errorf("-o symlink: exit %d, want 2", code)
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the symlink was replaced: %v %v", st, err)
	}
	if code := do("-o", "/dev/null", in); code != 2 || !strings.Contains(errb.String(), "not a regular file") {
		t.Errorf("-o /dev/null: exit %d, %s", code, errb.String())
	}
	if code := do("-o", o, in); code != 0 {
		t.Errorf("-o over a regular file: exit %d, %s", code, errb.String())
	}

	// Notes are counted, not listed, unless asked; -problems holds them.
	probs := filepath.Join(dir, "problems.jsonl")
	if code := do("-problems", probs, in); code != 0 || strings.Contains(errb.String(), "html (note)") || !strings.Contains(errb.String(), "1 notes") {
		t.Errorf("notes: exit %d, stderr %s", code, errb.String())
	}
	if b, _ := os.ReadFile(probs); !strings.Contains(string(b), `"kind":"html"`) {
		t.Errorf("-problems file: %s", b)
	}
	if code := do("-notes", in); code != 0 || !strings.Contains(errb.String(), "html (note)") {
		t.Errorf("-notes: exit %d, stderr %s", code, errb.String())
	}

	// A 0-byte input has a status of its own.
	empty := filepath.Join(dir, "empty.warc.gz")
	os.WriteFile(empty, nil, 0o644)
	if code := do(empty); code != 3 || !strings.Contains(errb.String(), "0 bytes") {
		t.Errorf("0-byte input: exit %d, %s", code, errb.String())
	}
	if code := do(empty, in); code != 3 || !strings.Contains(out.String(), "https://a.example") {
		t.Errorf("0-byte input beside a good one: exit %d, %s", code, errb.String())
	}
}
