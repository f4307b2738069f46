package robotstxt_test

import (
	"errors"
	"fmt"

	"github.com/robotstxt-go/robotstxt"
)

// A robots.txt applies to one scheme, host and port. RobotsURL spells that
// origin canonically, so two URLs share a robots.txt exactly when their
// RobotsURLs are equal.
func ExampleRobotsURL() {
	for _, u := range []string{
		"http://example.com:80/a/b?q=1",
		"HTTPS://user@Example.COM/",
		"http://example.com:8181/",
		"http://www.müller.eu/",
		"http://[2001:DB8::1]/x",
		"ftp://ftp.example.com:21/pub/",
	} {
		r, _ := robotstxt.RobotsURL(u)
		fmt.Println(r)
	}

	_, err := robotstxt.RobotsURL("/relative/path")
	fmt.Println(err)
	fmt.Println(errors.Is(err, robotstxt.ErrRelativeURL))
	// Output:
	// http://example.com/robots.txt
	// https://example.com/robots.txt
	// http://example.com:8181/robots.txt
	// http://www.xn--mller-kva.eu/robots.txt
	// http://[2001:db8::1]/robots.txt
	// ftp://ftp.example.com/robots.txt
	// robotstxt: "/relative/path": relative URL, no scheme
	// true
}
