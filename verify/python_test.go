package verify

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// needPython returns the path of python3 with python3-cryptography. It
// skips the test when they are missing, and fails it under CI=true, where
// .ci/verify installs them.
func needPython(t *testing.T) string {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err == nil {
		var out []byte
		out, err = exec.Command(py, "-c", "import cryptography").CombinedOutput()
		if err != nil {
			err = fmt.Errorf("%v: %s", err, out)
		}
	}
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("python3 with cryptography (apt-get install -y python3-cryptography): %v (.ci/verify installs it)", err)
		}
		t.Skipf("python3 with cryptography: %v", err)
	}
	return py
}

// TestPythonVerifiesSigner: a request our Signer sends verifies with a
// verifier that shares no code with this package (testdata/verify_signature.py,
// on python3-cryptography), and a request changed after signing does not.
func TestPythonVerifiesSigner(t *testing.T) {
	py := needPython(t)
	e := newEnv(t)
	var seen *http.Request
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { seen = r }))
	defer site.Close()
	c := &http.Client{Transport: NewSigner(nil, e.key, e.srv.URL)}
	resp, err := c.Get(site.URL + "/a/page?q=1")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	dirResp, err := e.srv.Client().Get(e.srv.URL + DirectoryPath)
	if err != nil {
		t.Fatal(err)
	}
	dir, _ := io.ReadAll(dirResp.Body)
	dirResp.Body.Close()

	run := func(header http.Header, target string) (string, error) {
		in, _ := json.Marshal(map[string]any{
			"method": seen.Method, "url": target, "headers": header,
			"directory": json.RawMessage(dir), "now": time.Now().Unix(),
		})
		cmd := exec.Command(py, "testdata/verify_signature.py")
		cmd.Stdin = bytes.NewReader(in)
		out, err := cmd.CombinedOutput()
		return strings.TrimSpace(string(out)), err
	}
	target := "http://" + seen.Host + seen.URL.RequestURI()
	if out, err := run(seen.Header, target); err != nil || out != "ok" {
		t.Fatalf("python verifier: %q, %v; want ok", out, err)
	}
	// The same signature on another authority, or with another agent,
	// fails there too: the script checks something.
	if out, err := run(seen.Header, "http://other.example"+seen.URL.RequestURI()); err == nil {
		t.Errorf("python verifier accepts another authority: %q", out)
	}
	h := seen.Header.Clone()
	h.Set("Signature-Agent", `sig1="https://agent.example"`)
	if out, err := run(h, target); err == nil {
		t.Errorf("python verifier accepts a changed Signature-Agent: %q", out)
	}
}
