package main

import "syscall"

// umask returns the process's file mode creation mask. It can only be read
// by setting it, so it is set back at once; it is called before the run
// starts, when nothing else makes files.
func umask() uint32 {
	m := syscall.Umask(0)
	syscall.Umask(m)
	return uint32(m)
}
