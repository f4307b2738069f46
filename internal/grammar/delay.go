package grammar

import (
	"strconv"
	"strings"
	"time"
)

// ParseDelay parses a Crawl-delay value: seconds as a non-negative decimal
// number ("10", "0.5", "2."). Anything else, or a value too large for a
// time.Duration, is invalid.
func ParseDelay(value string) (time.Duration, bool) {
	intPart, frac, dot := value, "", strings.IndexByte(value, '.')
	if dot >= 0 {
		intPart, frac = value[:dot], value[dot+1:]
	}
	if len(intPart)+len(frac) == 0 || !allDigits(intPart) || !allDigits(frac) {
		return 0, false
	}
	var secs uint64
	if len(intPart) > 0 {
		v, err := strconv.ParseUint(intPart, 10, 64)
		if err != nil || v > uint64(MaxDelay/time.Second) {
			return 0, false
		}
		secs = v
	}
	d := time.Duration(secs) * time.Second
	scale := time.Second
	for _, c := range frac {
		scale /= 10
		d += time.Duration(c-'0') * scale
	}
	if d > MaxDelay {
		return 0, false
	}
	return d, true
}

// IsCrawlDelay reports whether key is "crawl-delay", in any case.
func IsCrawlDelay[T string | []byte](key T) bool {
	return len(key) == len(CrawlDelayKey) && HasPrefixFold(key, CrawlDelayKey)
}

// MaxDelay bounds Crawl-delay so that it stays a valid time.Duration with
// room for arithmetic; a day is already more than any crawler will wait.
const MaxDelay = 1 << 62

func allDigits(s string) bool {
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
