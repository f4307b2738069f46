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
// process in the middle of a run and checks that the output file is a whole
// Parquet file holding whole inputs, with no temporary file left
// (issue: "Ctrl-C leaves complete output files, not torn ones").
func TestInterruptLeavesCompleteOutput(t *testing.T) {
	bin := buildCommand(t)
	dir := t.TempDir()
	body := "User-agent: *\nDisallow: /private\n" + strings.Repeat("Disallow: /filler/path\nAllow: /filler/path/open\n", 300)
	m := member(t, "https://big.example/robots.txt", 200, body)
	// Enough inputs that the run is still going when the signal comes
	// (about 90 ms an input here), however fast the audit gets.
	const perInput, inputs = 400, 60
	for i := 0; i < inputs; i++ {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("in%02d.warc.gz", i)), bytes.Repeat(m, perInput), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(dir, "out", "rows.parquet")
	os.Mkdir(filepath.Dir(out), 0o755)
	cmd := exec.Command(bin, "-workers", "1", "-o", out, filepath.Join(dir, "in*.warc.gz"))
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
	per := perInput * len(audit.BuiltinAgents())
	if len(rows)%per != 0 || len(rows) == inputs*per {
		t.Errorf("%d rows: want whole inputs of %d rows, fewer than all", len(rows), per)
	}
	ents, _ := os.ReadDir(filepath.Dir(out))
	if len(ents) != 1 {
		t.Errorf("files beside the output: %v", ents)
	}
	t.Logf("interrupted after %d of 12 inputs; %s", len(rows)/per, strings.TrimSpace(stderr.String()))
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
