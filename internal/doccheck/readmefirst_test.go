package doccheck

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// readmeBlocks returns the fenced blocks of the README in order: the info
// string after the opening fence ("sh", "go", "" for a plain block) and
// the lines inside.
func readmeBlocks(readme string) (info []string, bodies []string) {
	lines := strings.Split(readme, "\n")
	for i := 0; i < len(lines); i++ {
		l := strings.TrimSpace(lines[i])
		if !strings.HasPrefix(l, "```") {
			continue
		}
		var body []string
		for i++; i < len(lines) && strings.TrimSpace(lines[i]) != "```"; i++ {
			body = append(body, lines[i])
		}
		info = append(info, strings.TrimPrefix(l, "```"))
		bodies = append(bodies, strings.Join(body, "\n")+"\n")
	}
	return info, bodies
}

// TestReadmeFirstCommand runs the README's first command, as a newcomer
// types it, and holds the output it shows: the first ```sh block is that
// command alone, the next plain block is its standard output and the one
// after is its standard error, word for word; it exits with status 1, as
// the README says, because a URL is disallowed. (.ci/readme runs the same
// command and checks its status; this holds what it prints.)
func TestReadmeFirstCommand(t *testing.T) {
	root := repoRoot(t)
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	info, bodies := readmeBlocks(string(readme))
	first := -1
	for i, in := range info {
		if in == "sh" {
			first = i
			break
		}
	}
	if first < 0 || first+2 >= len(info) || info[first+1] != "" || info[first+2] != "" {
		t.Fatal("README.md: the first ```sh block is not followed by two plain blocks (standard output, standard error)")
	}
	cmdline := strings.TrimSpace(bodies[first])
	args, ok := strings.CutPrefix(cmdline, "go run ./cmd/robotstxt ")
	if !ok || strings.Contains(cmdline, "\n") {
		t.Fatalf("README.md: the first ```sh block is %q, want one command starting \"go run ./cmd/robotstxt \"", cmdline)
	}
	if !regexp.MustCompile(`exits with\s+status 1\b`).Match(readme) {
		t.Error("README.md no longer says the first command exits with status 1: change this test with it")
	}

	bin := filepath.Join(t.TempDir(), "robotstxt")
	build := exec.Command("go", "build", "-o", bin, "./cmd/robotstxt")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/robotstxt: %v\n%s", err, out)
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(bin, strings.Fields(args)...)
	cmd.Dir = root
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Errorf("%s: %v, want exit status 1", cmdline, err)
	}
	if got, want := stdout.String(), bodies[first+1]; got != want {
		t.Errorf("%s printed on standard output\n%s\nthe README shows\n%s", cmdline, got, want)
	}
	if got, want := stderr.String(), bodies[first+2]; got != want {
		t.Errorf("%s printed on standard error\n%s\nthe README shows\n%s", cmdline, got, want)
	}
}

// readmeLinkRE finds a Markdown link or image with a target inside the
// repository: no scheme, no anchor alone.
var readmeLinkRE = regexp.MustCompile(`\[([^\]]*)\]\(([^)#:\s]+)(#[^)]*)?\)`)

// TestReadmeLinks holds the README's links into the repository: each file
// or folder it links exists, and a link named after an Example function
// (the recipes) goes to the file that declares it.
func TestReadmeLinks(t *testing.T) {
	root := repoRoot(t)
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, m := range readmeLinkRE.FindAllStringSubmatch(string(readme), -1) {
		text, target := m[1], m[2]
		src, err := os.ReadFile(filepath.Join(root, target))
		if err != nil {
			if _, serr := os.Stat(filepath.Join(root, target)); serr != nil {
				t.Errorf("README.md links [%s](%s): %v", text, target, serr)
				continue
			}
		}
		n++
		if strings.HasPrefix(text, "Example") && !bytes.Contains(src, []byte("\nfunc "+text+"() {")) {
			t.Errorf("README.md links [%s](%s), which declares no func %s", text, target, text)
		}
	}
	if n == 0 {
		t.Error("no link into the repository found in README.md: is readmeLinkRE still right?")
	}
	t.Logf("%d links into the repository", n)
}
