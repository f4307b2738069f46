package grammar

// Key is what a line's key is recognised as (SPEC §2).
type Key uint8

const (
	KeyOther Key = iota
	KeyUserAgent
	KeyAllow
	KeyDisallow
	KeySitemap
)

// Canonical is how each known key is written.
var Canonical = [...]string{
	KeyOther:     "",
	KeyUserAgent: "user-agent",
	KeyAllow:     "allow",
	KeyDisallow:  "disallow",
	KeySitemap:   "sitemap",
}

// keySpellings lists, by first letter and in the order Google's parser
// tries them, the prefixes that make a key one of the known directives.
// Prefixes with different first letters never both match, so looking only
// at the key's first letter keeps that order.
var keySpellings = [...][]struct {
	prefix string
	typo   bool // a misspelling Google's parser accepts
	kind   Key
}{
	'u' - 'a': {
		{"user-agent", false, KeyUserAgent},
		{"useragent", true, KeyUserAgent},
		{"user agent", true, KeyUserAgent},
	},
	'a' - 'a': {
		{"allow", false, KeyAllow},
	},
	'd' - 'a': {
		{"disallow", false, KeyDisallow},
		{"dissallow", true, KeyDisallow},
		{"dissalow", true, KeyDisallow},
		{"disalow", true, KeyDisallow},
		{"diasllow", true, KeyDisallow},
		{"disallaw", true, KeyDisallow},
	},
	's' - 'a': {
		{"sitemap", false, KeySitemap},
		{"site-map", false, KeySitemap},
	},
}

// ClassifyKey recognises a key by case-insensitive prefix, as Google's
// parser does. typo reports whether it was recognised through a
// misspelling.
func ClassifyKey(key []byte) (kind Key, typo bool) {
	if len(key) == 0 {
		return KeyOther, false
	}
	c := Lower(key[0]) - 'a'
	if int(c) >= len(keySpellings) {
		return KeyOther, false
	}
	for _, s := range keySpellings[c] {
		if HasPrefixFold(key, s.prefix) {
			return s.kind, s.typo
		}
	}
	return KeyOther, false
}

// MayStartKey reports whether a key that starts with c can be one of the
// known directives (see ClassifyKey): every spelling starts with one of a
// few letters.
func MayStartKey(c byte) bool {
	i := int(Lower(c) - 'a')
	return i < len(keySpellings) && len(keySpellings[i]) > 0
}

// The keys of the lines that are none of the four directives but that the
// parser reads all the same, compared ignoring ASCII case as every key of
// robots.txt is (RFC 9309 §2.2).
const (
	CrawlDelayKey    = "crawl-delay"
	ContentUsageKey  = "content-usage"
	ContentSignalKey = "content-signal"
)
