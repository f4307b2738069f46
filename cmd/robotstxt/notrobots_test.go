package main

import (
	"bytes"
	"compress/gzip"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNotRobotsExit: check and fetch exit with status 4, "no robots.txt",
// for the bodies #27 found passing as robots.txt: a gzip-compressed
// robots.txt served without Content-Encoding, random 8 KiB and 5 MB of
// random bytes; and not for a robots.txt.
func TestNotRobotsExit(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 8))
	random := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		return b
	}
	var gz bytes.Buffer
	w := gzip.NewWriter(&gz)
	w.Write([]byte("User-agent: *\nDisallow: /private/\n"))
	w.Close()
	bodies := map[string][]byte{
		"gzip":   gz.Bytes(),
		"random": random(8 << 10),
		"5MB":    random(5 << 20),
		"robots": []byte("User-agent: *\nDisallow: /private/\n"),
	}
	dir := t.TempDir()
	for name, body := range bodies {
		want := exitNotRobots
		if name == "robots" {
			want = exitOK
		}
		file := filepath.Join(dir, name)
		if err := os.WriteFile(file, body, 0o600); err != nil {
			t.Fatal(err)
		}
		var stdout, stderr bytes.Buffer
		if code := run([]string{"check", "-file", file, "/public"}, strings.NewReader(""), &stdout, &stderr); code != want {
			t.Errorf("check -file %s: exit %d, want %d\n%s%s", name, code, want, stdout.String(), stderr.String())
		}
		stdout.Reset()
		stderr.Reset()
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path != "/robots.txt" {
				http.NotFound(w, r)
				return
			}
			w.Header().Set("Content-Type", "text/plain") // and no Content-Encoding
			w.Write(body)
		}))
		defer srv.Close()
		if code := run([]string{"fetch", srv.URL + "/public"}, strings.NewReader(""), &stdout, &stderr); code != want {
			t.Errorf("fetch %s: exit %d, want %d\n%s%s", name, code, want, stdout.String(), stderr.String())
		}
	}
}
