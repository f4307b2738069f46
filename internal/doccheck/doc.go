// Package doccheck holds the tests of the repository's documentation: the
// doc links of every package resolve (doclinks_test.go); every Go snippet
// of README.md compiles (readme_test.go), and one marked with the Example
// function it is taken from is held to it (readmeexamples_test.go); and the README's first command
// prints what the README shows, and its links into the repository, the
// recipes' Example functions included, resolve (readmefirst_test.go); and
// the packages whose surface is held export the names counted
// (apinames_test.go). It has no code of its own.
package doccheck
