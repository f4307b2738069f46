package main

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"
)

// openPTY opens a pseudo-terminal and returns its two ends: what the
// command reads from a terminal, the user writes to the other end.
func openPTY(t *testing.T) (user, term *os.File) {
	t.Helper()
	ptmx, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	var unlock int32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, ptmx.Fd(), syscall.TIOCSPTLCK, uintptr(unsafe.Pointer(&unlock))); e != 0 {
		t.Fatalf("unlockpt: %v", e)
	}
	var n uint32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, ptmx.Fd(), syscall.TIOCGPTN, uintptr(unsafe.Pointer(&n))); e != 0 {
		t.Fatalf("ptsname: %v", e)
	}
	pts, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ptmx.Close(); pts.Close() })
	return ptmx, pts
}

// TestCheckSaysItReadsATerminal: check with no URL reads them from
// standard input; on a terminal, where nothing shows it waits, it says so
// on standard error first. From a pipe or a file it says nothing.
func TestCheckSaysItReadsATerminal(t *testing.T) {
	const hint = "robotstxt check: reading URLs from standard input, one per line; Ctrl-D ends\n"
	user, term := openPTY(t)
	done := make(chan [2]string, 1)
	go func() {
		var stdout, stderr bytes.Buffer
		run([]string{"check", "-file", example, "-agent", "Googlebot"}, term, &stdout, &stderr)
		done <- [2]string{stdout.String(), stderr.String()}
	}()
	// The line, then Ctrl-D (VEOF) at the start of a line: end of input.
	user.Write([]byte("https://example.com/private/x\n\x04"))
	select {
	case out := <-done:
		if !strings.Contains(out[1], hint) || !strings.Contains(out[0], "disallowed  https://example.com/private/x") {
			t.Errorf("check reading a terminal: stdout %q, stderr %q; want the hint on stderr", out[0], out[1])
		}
	case <-time.After(10 * time.Second):
		t.Fatal("check did not end on Ctrl-D")
	}
	_, _, stderr := runCLI([]string{"check", "-file", example, "-agent", "Googlebot"}, "https://example.com/private/x\n")
	if strings.Contains(stderr, "reading URLs") {
		t.Errorf("check reading a pipe says %q", stderr)
	}
}
