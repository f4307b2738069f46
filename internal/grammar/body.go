package grammar

// MaxBodySize is how many bytes of a robots.txt body Google's crawler reads
// (500 KiB); content past it is ignored. RFC 9309 §2.5 asks crawlers to read
// at least 500 KiB. fetch reads at most this much, and lint reports what
// lies past it; Parse itself reads everything it is given.
const MaxBodySize = 500 << 10
