// Package doccheck holds the tests of the repository's documentation: the
// doc links of every package resolve (doclinks_test.go), and every Go
// snippet of README.md compiles (readme_test.go). It has no code of its
// own.
package doccheck
