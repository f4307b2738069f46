package grammar

import "testing"

// TestMayStartKey holds MayStartKey to ClassifyKey: a byte may start a
// known directive's key exactly when some spelling that ClassifyKey
// accepts, its first letter replaced by that byte, is still recognised.
func TestMayStartKey(t *testing.T) {
	for c := range 256 {
		want := false
		for _, spellings := range keySpellings {
			for _, s := range spellings {
				key := append([]byte{byte(c)}, s.prefix[1:]...)
				if kind, _ := ClassifyKey(key); kind != KeyOther {
					want = true
				}
			}
		}
		if got := MayStartKey(byte(c)); got != want {
			t.Errorf("MayStartKey(%q) = %v, want %v", byte(c), got, want)
		}
	}
}
