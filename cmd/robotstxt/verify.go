package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/textproto"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/robotstxt-go/robotstxt/verify"
)

const verifyHelp = `robotstxt verify tells whether a request comes from the crawler it names.

Usage:

	robotstxt verify [-json] [-url U] [-method M] [-ranges FILE] [-offline] IP USER-AGENT [HEADER: VALUE...]

It reads the crawler the User-Agent names, and tries the methods its
operator documents: the operator's published IP prefix files, forward-
confirmed reverse DNS, and an HTTP Message Signature (Web Bot Auth) given
as Signature-Input, Signature and Signature-Agent headers after the
User-Agent, for the request -method -url. It prints the verdict:

	verified      a documented method matched (the method and evidence follow)
	forged        every documented method was checked and none matched
	unknown       none matched and some could not be checked
	unverifiable  the operator documents no method
	unclaimed     the User-Agent names no crawler of the table

-ranges loads prefix files saved as {"fetched": TIME, "files": {URL: FILE}};
-offline fetches nothing and looks nothing up, so only those files count.

Examples:

	robotstxt verify 66.249.66.1 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'
	robotstxt verify -json -url https://example.com/ 203.0.113.7 'Mozilla/5.0 ...' \
		'Signature-Agent: "https://chatgpt.com"' 'Signature-Input: sig1=(...)' 'Signature: sig1=:...:'

` + exitStatuses

func (c *cli) verify(args []string) int {
	fs := c.newFlags("verify")
	asJSON := fs.Bool("json", false, "print the verdict as JSON")
	target := fs.String("url", "https://example.com/", "the request's target URI, which a signature may cover")
	method := fs.String("method", "GET", "the request's method")
	ranges := fs.String("ranges", "", "load prefix files from this snapshot `file`")
	offline := fs.Bool("offline", false, "fetch nothing and look nothing up")
	timeout := fs.Duration("timeout", 10*time.Second, "bound on the whole verification")
	pos, status, ok := c.parse(fs, verifyHelp, args)
	if !ok {
		return status
	}
	if len(pos) < 2 {
		return c.fail("robotstxt verify: want IP and USER-AGENT (robotstxt verify -h for help)")
	}
	ip, err := netip.ParseAddr(pos[0])
	if err != nil {
		return c.fail("robotstxt verify: %q is not an IP address", pos[0])
	}
	u, err := url.Parse(*target)
	if err != nil || !u.IsAbs() || u.Host == "" {
		return c.fail("robotstxt verify: -url %q is not an absolute URL", *target)
	}
	h := http.Header{"User-Agent": {pos[1]}}
	for _, line := range pos[2:] {
		name, value, ok := strings.Cut(line, ":")
		if !ok || name == "" || strings.ContainsAny(name, " \t") {
			return c.fail("robotstxt verify: header %q is not NAME: VALUE", line)
		}
		h.Add(textproto.CanonicalMIMEHeaderKey(name), strings.TrimSpace(value))
	}
	cfg := verify.Config{}
	if !*offline {
		cfg.Client = &http.Client{Timeout: *timeout}
		cfg.Resolver = net.DefaultResolver
	}
	v := verify.New(cfg)
	if *ranges != "" {
		f, err := os.Open(*ranges)
		if err != nil {
			return c.fail("robotstxt verify: %v", err)
		}
		err = v.LoadSnapshot(f)
		f.Close()
		if err != nil {
			return c.fail("robotstxt verify: %v", err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	defer cancel()
	d := v.Verify(ctx, verify.Request{RemoteIP: ip, Method: *method, URL: u, Header: h})
	if *asJSON {
		enc := json.NewEncoder(c.stdout)
		enc.SetIndent("", "  ")
		enc.Encode(d)
	} else {
		fmt.Fprintln(c.stdout, verdictText(d))
	}
	if d.Status == verify.Forged {
		return exitNegative
	}
	return exitOK
}

// verdictText is the line verify prints: the status, the crawler and its
// operator, the method and the evidence. Text that came from the network
// (host names) is quoted when it holds anything but printable ASCII.
func verdictText(d verify.Verdict) string {
	parts := []string{d.Status.String()}
	if d.Crawler != "" {
		parts = append(parts, safeText(d.Crawler)+" ("+safeText(d.Operator)+")")
	}
	if d.Method != verify.NoMethod {
		parts = append(parts, d.Method.String())
	}
	if d.Evidence != "" {
		parts = append(parts, safeText(d.Evidence))
	}
	if d.Prefix.IsValid() {
		parts = append(parts, d.Prefix.String())
	}
	return strings.Join(parts, "  ")
}

func safeText(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return strconv.Quote(s)
		}
	}
	return s
}
