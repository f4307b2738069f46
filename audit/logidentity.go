package audit

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/netip"
	"strings"
	"time"

	"github.com/robotstxt-go/robotstxt"
	"github.com/robotstxt-go/robotstxt/crawlers"
)

// IPRanges is an Identifier that needs no network: the address ranges
// operators publish for their crawlers, read from files the caller
// downloaded. A request is verified when its address is in a range of the
// operator of the crawler its User-Agent names (package crawlers' table),
// forged when that operator has ranges and none holds it, unverifiable when
// no ranges of that operator were read, and unclaimed when the User-Agent
// names no crawler of the table. It checks no reverse DNS: an operator
// that documents only that (and publishes no ranges) is unverifiable here.
type IPRanges struct {
	byOperator map[string][]netip.Prefix
}

// Add reads the ranges of an operator (as package crawlers names it,
// "Google", "OpenAI", "Microsoft") from r: either the JSON that Google,
// OpenAI and Microsoft publish ({"prefixes": [{"ipv4Prefix": "66.249.64.0/27"},
// {"ipv6Prefix": "2001:4860:4801:10::/64"}]}, as in
// https://developers.google.com/static/search/apis/ipranges/googlebot.json),
// or one CIDR prefix a line ('#' comments and blank lines skipped).
func (r *IPRanges) Add(operator string, in io.Reader) error {
	b, err := io.ReadAll(in)
	if err != nil {
		return err
	}
	if r.byOperator == nil {
		r.byOperator = map[string][]netip.Prefix{}
	}
	if t := bytes.TrimSpace(b); len(t) > 0 && t[0] == '{' {
		var doc struct {
			Prefixes []struct {
				IPv4 string `json:"ipv4Prefix"`
				IPv6 string `json:"ipv6Prefix"`
			} `json:"prefixes"`
		}
		if err := json.Unmarshal(t, &doc); err != nil {
			return fmt.Errorf("%s ranges: %v", operator, err)
		}
		for _, p := range doc.Prefixes {
			for _, s := range []string{p.IPv4, p.IPv6} {
				if s == "" {
					continue
				}
				pr, err := netip.ParsePrefix(s)
				if err != nil {
					return fmt.Errorf("%s ranges: %v", operator, err)
				}
				r.byOperator[operator] = append(r.byOperator[operator], pr.Masked())
			}
		}
		return nil
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	n := 0
	for sc.Scan() {
		n++
		line, _, _ := strings.Cut(sc.Text(), "#")
		if line = strings.TrimSpace(line); line == "" {
			continue
		}
		pr, err := netip.ParsePrefix(line)
		if err != nil {
			return fmt.Errorf("%s ranges, line %d: %v", operator, n, err)
		}
		r.byOperator[operator] = append(r.byOperator[operator], pr.Masked())
	}
	return sc.Err()
}

// Identify implements Identifier.
func (r *IPRanges) Identify(ip netip.Addr, userAgent string, _ time.Time) string {
	c, ok := crawlers.Lookup(robotstxt.ProductToken(userAgent))
	if !ok {
		return IdentityUnclaimed
	}
	prefixes := r.byOperator[c.Operator]
	if len(prefixes) == 0 {
		return IdentityUnverifiable
	}
	if !ip.IsValid() {
		return IdentityUnknown
	}
	ip = ip.Unmap()
	for _, p := range prefixes {
		if p.Contains(ip) {
			return IdentityVerified
		}
	}
	return IdentityForged
}
