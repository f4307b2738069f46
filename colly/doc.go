// Package colly holds the journey of a colly crawler that obeys robots.txt
// through package fetch and reads each page's own rules (X-Robots-Tag, robots
// meta tags, Content-Usage) through fetch.Cache.PageOf, as the recipe in
// fetch/page.go shows. It is a module of its own so that the library does not
// depend on colly; it has no API, only tests.
package colly
