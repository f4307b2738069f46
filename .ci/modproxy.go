//go:build ignore

// modproxy writes one module version in the layout of a GOPROXY=file://
// proxy (https://go.dev/ref/mod#goproxy-protocol), for .ci/readme to
// install the README's way what this commit would publish:
//
//	go run .ci/modproxy.go PROXYDIR MODULEPATH VERSION SRCDIR [latest]
//
// It writes @v/VERSION.info, .mod and .zip (the files of SRCDIR, less the
// directories of other modules, .git and other dot directories), adds
// VERSION to @v/list, and with "latest" writes @latest too.
package main

import (
	"archive/zip"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

func main() {
	if len(os.Args) < 5 {
		fmt.Fprintln(os.Stderr, "usage: go run .ci/modproxy.go PROXYDIR MODULEPATH VERSION SRCDIR [latest]")
		os.Exit(2)
	}
	proxy, mod, version, src := os.Args[1], os.Args[2], os.Args[3], os.Args[4]
	if err := write(proxy, mod, version, src, len(os.Args) > 5 && os.Args[5] == "latest"); err != nil {
		fmt.Fprintln(os.Stderr, "modproxy:", err)
		os.Exit(1)
	}
}

func write(proxy, mod, version, src string, latest bool) error {
	dir := filepath.Join(proxy, strings.ToLower(mod), "@v") // the module paths here are lower case
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	info, _ := json.Marshal(struct {
		Version string
		Time    time.Time
	}{version, time.Now().UTC()})
	if err := os.WriteFile(filepath.Join(dir, version+".info"), info, 0o644); err != nil {
		return err
	}
	if latest {
		if err := os.WriteFile(filepath.Join(dir, "..", "@latest"), info, 0o644); err != nil {
			return err
		}
	}
	gomod, err := os.ReadFile(filepath.Join(src, "go.mod"))
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, version+".mod"), gomod, 0o644); err != nil {
		return err
	}
	list, err := os.OpenFile(filepath.Join(dir, "list"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	fmt.Fprintln(list, version)
	if err := list.Close(); err != nil {
		return err
	}
	out, err := os.Create(filepath.Join(dir, version+".zip"))
	if err != nil {
		return err
	}
	zw := zip.NewWriter(out)
	err = filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			if rel == "." {
				return nil
			}
			if strings.HasPrefix(d.Name(), ".") || strings.HasPrefix(d.Name(), "_") {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil {
				return filepath.SkipDir // another module
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		w, err := zw.Create(mod + "@" + version + "/" + filepath.ToSlash(rel))
		if err != nil {
			return err
		}
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		_, err = io.Copy(w, f)
		return err
	})
	if err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	return out.Close()
}
