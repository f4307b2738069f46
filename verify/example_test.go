package verify_test

import (
	"context"
	"crypto/ed25519"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"os"
	"time"

	"github.com/robotstxt-go/robotstxt/crawlers"
	"github.com/robotstxt-go/robotstxt/fetch"
	"github.com/robotstxt-go/robotstxt/verify"
)

// A site asks whether requests come from the crawlers they name. This
// verifier is offline: it reads prefix files saved earlier (here the test
// fixture, whose prefixes are made-up documentation addresses) and makes
// no network call; give Config a Client and a Resolver to fetch the files
// and check reverse DNS.
func ExampleVerifier() {
	v := verify.New(verify.Config{})
	f, err := os.Open("testdata/ranges-snapshot.json")
	if err != nil {
		panic(err)
	}
	defer f.Close()
	if err := v.LoadSnapshot(f); err != nil {
		panic(err)
	}
	for _, r := range []struct{ ip, ua string }{
		{"192.0.2.5", "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"},
		{"203.0.113.7", "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.1; +https://openai.com/gptbot"},
		{"203.0.113.7", "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"},
		{"203.0.113.7", "meta-externalagent/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)"},
		{"203.0.113.7", "curl/8.5.0"},
	} {
		d := v.Verify(context.Background(), verify.Request{
			RemoteIP: netip.MustParseAddr(r.ip),
			Header:   http.Header{"User-Agent": {r.ua}},
		})
		line := d.Status.String()
		if d.Crawler != "" {
			line += " " + d.Crawler
		}
		if d.Status == verify.Verified {
			line += " by " + d.Method.String() + " " + d.Prefix.String()
		}
		if d.Status == verify.Unknown {
			line += ": " + d.Evidence
		}
		fmt.Println(line)
	}
	// Output:
	// verified Googlebot by ip-ranges 192.0.2.0/27
	// forged GPTBot
	// unknown Googlebot: reverse DNS not checked: no resolver
	// unverifiable meta-externalagent
	// unclaimed
}

// A crawler signs its requests with NewSigner and serves its key
// directory with DirectoryHandler; a site's Middleware verifies them. The
// crawler's origin here is a local test server, listed as the signature
// agent of a one-row crawler table.
func ExampleNewSigner() {
	_, key, _ := ed25519.GenerateKey(nil)
	origin := httptest.NewTLSServer(verify.DirectoryHandler(key)) // serves any path; mount it at verify.DirectoryPath
	defer origin.Close()

	v := verify.New(verify.Config{
		Client: origin.Client(), // trusts the test server's certificate
		Crawlers: []crawlers.Crawler{{Token: "ExampleBot", Operator: "Example",
			Verify: crawlers.Verification{SignatureAgent: origin.URL}}},
	})
	site := httptest.NewServer(verify.Middleware(v, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		d, _ := verify.FromContext(r.Context())
		fmt.Println(d.Status, d.Crawler, d.Method)
	}), verify.MiddlewareOptions{RefuseForged: true}))
	defer site.Close()

	crawler := &http.Client{Transport: verify.NewSigner(http.DefaultTransport, key, origin.URL)}
	req, _ := http.NewRequest("GET", site.URL+"/page", nil)
	req.Header.Set("User-Agent", "ExampleBot/1.0")
	resp, err := crawler.Do(req)
	if err != nil {
		panic(err)
	}
	resp.Body.Close()
	// Output:
	// verified ExampleBot web-bot-auth
}

// A site verifies every request: Middleware attaches the verdict, and
// refuses forged claims with 403 Forbidden. The Verifier fetches prefix
// files and key directories with the client; give it a Resolver too
// (net.DefaultResolver) to check reverse DNS. Both are cached. (This
// example is compiled, not run: it would reach the operators' servers.)
func ExampleMiddleware() {
	client := &http.Client{Timeout: 10 * time.Second}
	site := http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		// In the site's handler:
		if d, _ := verify.FromContext(req.Context()); d.Status == verify.Verified {
			fmt.Fprintf(w, "hello, %s (%s, %s)\n", d.Crawler, d.Method, d.Evidence)
		}
	})
	v := verify.New(verify.Config{Client: client}) // and Resolver: net.DefaultResolver for reverse DNS
	http.Handle("/", verify.Middleware(v, site, verify.MiddlewareOptions{RefuseForged: true}))

	// Or ask for one request (its address, method, target URI and header):
	target, _ := url.Parse("https://example.com/page")
	one := verify.Request{
		RemoteIP: netip.MustParseAddr("192.0.2.1"),
		Method:   "GET",
		URL:      target,
		Header:   http.Header{"User-Agent": {"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"}},
	}
	ctx := context.Background()
	d := v.Verify(ctx, one)
	fmt.Println(d.Status, d.Crawler, d.Method, d.Evidence)
}

// A crawler built on package fetch signs every request it sends, its
// robots.txt fetches included, with the Signer as the base of fetch's
// Transport. (Compiled, not run: it would reach the network.)
func ExampleNewSigner_fetch() {
	_, key, _ := ed25519.GenerateKey(nil)
	signer := verify.NewSigner(nil, key, "https://crawler.example")
	cache := fetch.NewCache(&fetch.Options{Client: &http.Client{Transport: signer}, UserAgent: "Foobot/1.0 (+https://crawler.example/bot)"})
	client := &http.Client{Transport: fetch.NewTransport(signer, cache)}
	resp, err := client.Get("https://example.com/page")
	if err != nil {
		fmt.Println(err) // among them fetch.ErrDisallowed, when robots.txt says no
		return
	}
	resp.Body.Close()
	// Serve the key directory at https://crawler.example/.well-known/http-message-signatures-directory:
	http.Handle(verify.DirectoryPath, verify.DirectoryHandler(key))
}
