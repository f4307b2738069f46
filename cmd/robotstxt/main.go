// Command robotstxt explains robots.txt files: whether a crawler may fetch
// URLs and which line decides, what is wrong with a file, and what a crawler
// does when it fetches one.
//
// Usage:
//
//	robotstxt check [-agent A] [-user-agent H] [-json] (-file F | -url U | -) [URL...]
//	robotstxt lint [-json] [-lines] [-all] FILE|-
//	robotstxt fetch [-agent A] [-user-agent H] [-json] URL
//	robotstxt page [-agent A] [-user-agent H] URL
//	robotstxt sitemaps [-agent A] [-user-agent H] [-json] URL
//	robotstxt serve [-addr HOST:PORT] [-allow-private]
//	robotstxt ai [-file F] [-page] [-user-agent H] [-json] URL
//	robotstxt verify [-json] [-url U] [-method M] [-ranges FILE] [-offline] IP USER-AGENT [HEADER: VALUE...]
//
// check prints one line per URL:
//
//	disallowed  https://example.com/private/x  line 6: Disallow: /private/
//
// after the errors that [lint.Diagnose] finds in the file. lint prints
// the findings of Diagnose as a compiler does ("robots.txt:17: error: ...").
// fetch reports what a crawler would do for a URL: where its robots.txt is,
// the HTTP status, the redirects, the bytes read, the rules that apply, for
// how long they are cached and what is wrong with the file. sitemaps follows
// the sitemaps of a site and prints each page with its decision. serve runs a
// robots.txt tester in the browser, with a JSON API behind it.
//
// The exit statuses are listed once, in exitStatuses, which "robotstxt -h"
// and the help of every command print: 0 when all is well, 1 for a negative
// answer (a URL disallowed, errors found), 2 for bad usage, 3 when the
// robots.txt is unreachable, 4 when it is no robots.txt.
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"

	"github.com/robotstxt-go/robotstxt/internal/termesc"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// Exit statuses. exitStatuses says what each means, for every command; it is
// the one place they are written for people.
const (
	exitOK          = 0 // all allowed; no errors found
	exitNegative    = 1 // some URL disallowed; lint found errors
	exitFailure     = 2 // bad usage, unreadable input, a bad URL
	exitUnreachable = 3 // the robots.txt is unreachable: everything is disallowed
	exitNotRobots   = 4 // the robots.txt is an HTML page, UTF-16 or binary data
)

// exitStatuses is the exit statuses of every command, printed by the help
// of each. TestExitStatuses pins it to the constants above.
const exitStatuses = `Exit status:

	0  check, fetch: every URL is allowed; lint: no error found;
	   serve: stopped by an interrupt; ai: the matrix is printed;
	   verify: the claim is not found forged
	1  check, fetch: some URL is disallowed; lint: errors found;
	   verify: the claim is forged
	2  bad usage, an unreadable file, a URL that is neither an absolute URL
	   nor a path, or an address serve cannot listen on
	3  check, fetch, ai: the robots.txt is unreachable (a network failure, a
	   timeout, HTTP 5xx or 429): RFC 9309 has crawlers disallow every URL
	   until they can fetch it, and the answers printed say so
	4  check, fetch: the robots.txt is no robots.txt (an HTML page, UTF-16
	   or binary data): crawlers read no rules from it; the answers printed
	   are theirs

When several apply, the first of 2, 3 and 4 is the status.
`

const usage = `robotstxt explains robots.txt files.

Usage:

	robotstxt check [-agent A] [-user-agent H] [-json] (-file F | -url U | -) [URL...]
	robotstxt lint [-json] [-lines] [-all] FILE|-
	robotstxt fetch [-agent A] [-user-agent H] [-json] URL
	robotstxt page [-agent A] [-user-agent H] URL
	robotstxt sitemaps [-agent A] [-user-agent H] [-json] URL
	robotstxt serve [-addr HOST:PORT] [-allow-private]
	robotstxt ai [-file F] [-page] [-user-agent H] [-json] URL
	robotstxt verify [-json] [-url U] [-ranges FILE] [-offline] IP USER-AGENT [HEADER: VALUE...]
	robotstxt help COMMAND | version

Commands:

	check   say whether an agent may fetch URLs, and which line decides
	lint    report what looks wrong in a robots.txt, line by line
	fetch   fetch a site's robots.txt as a crawler does and explain the result
	page    fetch a page as a crawler does: robots.txt, X-Robots-Tag, meta
	        tags and Content-Usage, joined into one answer
	sitemaps follow a site's sitemaps and say which pages robots.txt allows
	serve   run a robots.txt tester page in the browser, with a JSON API
	ai      which AI operators may use a page, for which purpose, and why
	verify  whether a request comes from the crawler it names

Examples:

	robotstxt check -file robots.txt -agent Googlebot https://example.com/private/x
	robotstxt lint robots.txt
	robotstxt fetch -agent Googlebot https://example.com/page
	robotstxt sitemaps -agent Googlebot https://example.com/
	robotstxt serve
	robotstxt ai https://example.com/

` + exitStatuses + `
Run "robotstxt COMMAND -h" for the options of a command.
`

// defaultAgent is the agent every command answers for when -agent is not
// given: "*", any crawler that no group names.
const defaultAgent = "*"

// standIn is the product token page and sitemaps fetch under when they
// answer for "*": package fetch fetches as one crawler, named by its
// token. Its answers are those for "*" unless the site names robotstxt
// (a group, an X-Robots-Tag, a meta tag), which they then say.
const standIn = "robotstxt"

// cli is one run of the command: its streams and the way it fetches.
type cli struct {
	stdin          io.Reader
	stdout, stderr io.Writer // escaped: see run
	terminal       io.Writer // standard error as it is, for the progress line's own controls
	fetcher        robotsFetcher
}

// term returns standard error as it is, for output that is its own
// terminal controls: the stream run was given, or stderr for a cli made
// otherwise.
func (c *cli) term() io.Writer {
	if c.terminal == nil {
		return c.stderr
	}
	return c.terminal
}

// run runs the command with args (without the program name) and returns the
// exit status. Tests call it in-process.
//
// Everything the command writes reaches stdout and stderr through a
// termesc.Writer: the text of a site (a robots.txt line, a sitemap's
// <loc>, a header, an HTTP reason phrase) is written with its control
// characters escaped ("\u001b"), as is every byte that is not UTF-8
// ("\xff"), so that a site cannot drive the terminal it is read on. The
// newlines and tabs that lay out the output pass; JSON output stays JSON.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	out, errOut := termesc.NewWriter(stdout), termesc.NewWriter(stderr)
	c := &cli{stdin: stdin, stdout: out, stderr: errOut, terminal: stderr, fetcher: newFetcher()}
	status := c.run(args)
	out.Flush()
	errOut.Flush()
	return status
}

func (c *cli) run(args []string) int {
	if len(args) == 0 {
		fmt.Fprint(c.stderr, usage)
		return exitFailure
	}
	switch cmd, rest := args[0], args[1:]; cmd {
	case "check":
		return c.check(rest)
	case "lint":
		return c.lint(rest)
	case "fetch":
		return c.fetch(rest)
	case "serve":
		return c.serve(rest)
	case "page":
		return c.page(rest)
	case "sitemaps":
		return c.sitemaps(rest)
	case "ai":
		return c.ai(rest)
	case "verify":
		return c.verify(rest)
	case "help", "-h", "-help", "--help":
		if cmd == "help" && len(rest) > 0 {
			// "help check" is "check -h".
			switch rest[0] {
			case "check", "lint", "fetch", "serve", "page", "sitemaps", "ai", "verify":
				return c.run([]string{rest[0], "-h"})
			}
			return c.fail("robotstxt help: unknown command %q: use check, lint, fetch, serve, page, sitemaps, ai or verify", rest[0])
		}
		fmt.Fprint(c.stdout, usage)
		return exitOK
	case "version", "-version", "--version":
		fmt.Fprintln(c.stdout, "robotstxt", version())
		return exitOK
	default:
		return c.fail("robotstxt: unknown command %q: use check, lint, fetch, serve, page, sitemaps, ai or verify (robotstxt -h for help)", cmd)
	}
}

// version returns the module version the command was built from, as the
// go command records it ("(devel)" for a build from a checkout), with the
// VCS revision when there is one.
func version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown)"
	}
	v := bi.Main.Version
	if v == "" {
		v = "(devel)"
	}
	for _, s := range bi.Settings {
		if s.Key == "vcs.revision" && len(s.Value) >= 12 {
			v += " " + s.Value[:12]
		}
	}
	return v + " " + bi.GoVersion
}

// fail prints an error message and returns the failure status.
func (c *cli) fail(format string, args ...any) int {
	fmt.Fprintf(c.stderr, format+"\n", args...)
	return exitFailure
}

// newFlags returns a flag set for a subcommand. Parse it with c.parse.
func (c *cli) newFlags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(c.stderr)
	fs.Usage = func() {} // c.parse prints the help
	return fs
}

// parse parses a subcommand's args and returns the positional arguments.
// Flags may come after positional ones ("check -file F URL -agent A"); "--"
// ends the flags. When -h asks for help, parse prints help, the usage text
// with examples, and the options to stdout. When ok is false, the command
// exits with status.
func (c *cli) parse(fs *flag.FlagSet, help string, args []string) (pos []string, status int, ok bool) {
	pos, err := parseFlags(fs, args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		fmt.Fprint(c.stdout, help)
		fmt.Fprintln(c.stdout, "\nOptions:")
		fs.SetOutput(c.stdout)
		fs.PrintDefaults()
		return nil, exitOK, false
	case err != nil:
		// The flag package has printed what was wrong.
		fmt.Fprintf(c.stderr, "run \"robotstxt %s -h\" for help\n", fs.Name())
		return nil, exitFailure, false
	}
	return pos, 0, true
}

// parseFlags parses args with fs, letting flags come after positional
// arguments, and returns the positional ones.
func parseFlags(fs *flag.FlagSet, args []string) (pos []string, err error) {
	for len(args) > 0 {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		// fs.Parse stops at the first positional argument, or after "--".
		if consumed := args[:len(args)-len(rest)]; len(consumed) > 0 && consumed[len(consumed)-1] == "--" {
			return append(pos, rest...), nil
		}
		if len(rest) == 0 {
			break
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
	return pos, nil
}

// readLines calls f with each non-empty line of r, trimmed of whitespace.
func readLines(r io.Reader, f func(string) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		if err := f(line); err != nil {
			return err
		}
	}
	return sc.Err()
}
