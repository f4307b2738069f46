package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// snapshot is the dated test fixture of package verify: made-up prefixes
// from the documentation ranges, filed under the operators' addresses.
const snapshot = "../../verify/testdata/ranges-snapshot.json"

func TestVerifyCommand(t *testing.T) {
	const googlebot = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
	const gptbot = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.1; +https://openai.com/gptbot"
	tests := []struct {
		args   []string
		status int
		out    string
		reason string
	}{
		{[]string{"-offline", "-ranges", snapshot, "192.0.2.5", googlebot}, exitOK,
			"verified  Googlebot (Google)  ip-ranges  https://developers.google.com/static/crawling/ipranges/common-crawlers.json  192.0.2.0/27\n",
			"in the file loaded for Googlebot's prefix file"},
		{[]string{"-offline", "-ranges", snapshot, "203.0.113.5", gptbot}, exitNegative,
			"forged  GPTBot (OpenAI)\n", "OpenAI documents only its prefix file for GPTBot; the address is not in it"},
		{[]string{"-offline", "-ranges", snapshot, "203.0.113.5", googlebot}, exitOK,
			"unknown  Googlebot (Google)  reverse DNS not checked: no resolver\n", "offline, reverse DNS cannot be checked: never forged"},
		{[]string{"-offline", "192.0.2.5", "meta-externalagent/1.1"}, exitOK, "unverifiable  meta-externalagent (Meta)\n", "Meta documents no method"},
		{[]string{"-offline", "192.0.2.5", "curl/8.0"}, exitOK, "unclaimed\n", "no crawler of the table"},
		{[]string{"-offline", "not-an-ip", googlebot}, exitFailure, "", "bad usage"},
		{[]string{"-offline", "192.0.2.5"}, exitFailure, "", "no User-Agent"},
		{[]string{"-offline", "192.0.2.5", googlebot, "no colon"}, exitFailure, "", "a header must be NAME: VALUE"},
	}
	for _, tt := range tests {
		var out, errOut bytes.Buffer
		got := run(append([]string{"verify"}, tt.args...), strings.NewReader(""), &out, &errOut)
		if got != tt.status || tt.out != "" && out.String() != tt.out {
			t.Errorf("verify %q: status %d, output %q (stderr %q); want %d, %q (%s)", tt.args, got, out.String(), errOut.String(), tt.status, tt.out, tt.reason)
		}
	}
	var out bytes.Buffer
	if got := run([]string{"verify", "-json", "-offline", "-ranges", snapshot, "2001:db8:100::1", googlebot}, strings.NewReader(""), &out, &out); got != exitOK {
		t.Fatalf("-json: status %d: %s", got, out.String())
	}
	var d struct{ Crawler, Status, Method, Prefix string }
	if err := json.Unmarshal(out.Bytes(), &d); err != nil || d.Crawler != "Googlebot" || d.Status != "verified" || d.Method != "ip-ranges" || d.Prefix != "2001:db8:100::/48" {
		t.Errorf("-json: %+v, %v from %s", d, err, out.String())
	}
}
