package fetch

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"strings"
	"testing"
	"time"

	"github.com/robotstxt-go/robotstxt"
	"github.com/robotstxt-go/robotstxt/internal/lease"
)

func robotsOf(status int, body string) *robotstxt.Robots {
	return robotstxt.FromStatus(status, []byte(body))
}

var t0 = time.Date(2025, 3, 4, 5, 6, 7, 890, time.UTC)

// result returns a Result fetched at t0 with the given rules and error.
func result(status int, body string, err error) *Result {
	return &Result{
		RobotsURL:  "https://example.com/robots.txt",
		FinalURL:   "https://www.example.com/robots.txt",
		StatusCode: status,
		Redirects:  1,
		Bytes:      len(body),
		Robots:     robotsOf(status, body),
		Err:        err,
		Fetched:    t0,
		Duration:   1234 * time.Microsecond,
		TTL:        defaultTTL,
		Expires:    t0.Add(defaultTTL),
	}
}

// history builds a state by recording results in order.
func history(rs ...*Result) state {
	var s state
	for _, r := range rs {
		s.record(r)
	}
	return s
}

// testBind is the binding of the values of these tests.
var testBind = lease.Binding{Origin: "https://example.com", Agent: "foobot"}

const probeFile = "User-agent: *\nDisallow: /x\nAllow: /x/y\nSitemap: https://example.com/s.xml\n"

func TestEntryRoundTrip(t *testing.T) {
	later := result(503, "", nil)
	later.Fetched, later.Expires = t0.Add(time.Hour), t0.Add(time.Hour+defaultRetryTTL)
	long := errors.New(strings.Repeat("e", 5000))
	tests := []struct {
		name string
		s    state
	}{
		{"shape 0: a parsed file", history(result(200, probeFile, nil))},
		{"shape 0: a 404, everything allowed", history(result(404, "", nil))},
		{"shape 0: too many redirects, a sentinel error", history(result(301, "", errTooManyRedirects))},
		{"shape 0: a redirect loop", history(result(301, "", errRedirectLoop))},
		{"shape 1: unreachable after a good copy", history(result(200, probeFile, nil), later)},
		{"shape 2: unreachable, no good copy", history(result(503, "", nil))},
		{"shape 2: a network error, message kept", history(result(0, "", errors.New("dial tcp: connection refused")))},
		{"an error message cut to 1 KiB", history(result(0, "", long))},
		{"truncated body", func() state { r := result(200, probeFile, nil); r.Truncated = true; return history(r) }()},
		{"zero times", func() state {
			r := result(200, probeFile, nil)
			r.Fetched, r.Expires = time.Time{}, time.Time{}
			return history(r)
		}()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := encodeState(tt.s, testBind)
			if err != nil {
				t.Fatal(err)
			}
			got, err := decodeState(v, testBind)
			if err != nil {
				t.Fatalf("decode: %v", err)
			}
			if !got.failingSince.Equal(tt.s.failingSince) {
				t.Errorf("failingSince %v, want %v", got.failingSince, tt.s.failingSince)
			}
			sameResult(t, "latest", got.latest, tt.s.latest)
			sameResult(t, "good", got.good, tt.s.good)
			if (got.good == got.latest) != (tt.s.good == tt.s.latest) {
				t.Errorf("good is latest: %v, want %v", got.good == got.latest, tt.s.good == tt.s.latest)
			}
		})
	}
}

func sameResult(t *testing.T, which string, got, want *Result) {
	t.Helper()
	if got == nil || want == nil {
		if got != want {
			t.Errorf("%s: %v, want %v", which, got, want)
		}
		return
	}
	wantErr := ""
	if want.Err != nil {
		wantErr = want.Err.Error()
		wantErr = wantErr[:min(len(wantErr), maxEntryErr)]
	}
	gotErr := ""
	if got.Err != nil {
		gotErr = got.Err.Error()
	}
	if got.RobotsURL != want.RobotsURL || got.FinalURL != want.FinalURL || got.StatusCode != want.StatusCode ||
		got.Redirects != want.Redirects || got.Bytes != want.Bytes || got.Truncated != want.Truncated ||
		!got.Fetched.Equal(want.Fetched) || got.Duration != want.Duration || got.TTL != want.TTL ||
		!got.Expires.Equal(want.Expires) || gotErr != wantErr {
		t.Errorf("%s:\n got %+v\nwant %+v", which, *got, *want)
	}
	if (want.Err == errTooManyRedirects || want.Err == errRedirectLoop) && got.Err != want.Err {
		t.Errorf("%s: Err %v is not the sentinel %v", which, got.Err, want.Err)
	}
	if got.Robots.Kind() != want.Robots.Kind() {
		t.Errorf("%s: kind %v, want %v", which, got.Robots.Kind(), want.Robots.Kind())
	}
	for _, p := range []string{"/", "/x", "/x/y", "/z"} {
		if g, w := got.Robots.Decide("Foobot", p), want.Robots.Decide("Foobot", p); g != w {
			t.Errorf("%s: Decide(%s) = %+v, want %+v", which, p, g, w)
		}
	}
	if g, w := strings.Join(got.Robots.Sitemaps(), " "), strings.Join(want.Robots.Sitemaps(), " "); g != w {
		t.Errorf("%s: Sitemaps %q, want %q", which, g, w)
	}
}

// sealed appends the checksum to body, so that a test can write values
// whose damage the checksum does not catch.
func sealed(body []byte) []byte {
	return binary.LittleEndian.AppendUint32(body, crc32.Checksum(body, crc32.MakeTable(crc32.Castagnoli)))
}

// reseal changes a valid value with change, then fixes its checksum.
func reseal(t *testing.T, s state, change func([]byte) []byte) []byte {
	t.Helper()
	v, err := encodeState(s, testBind)
	if err != nil {
		t.Fatal(err)
	}
	body := change(bytes.Clone(v[:len(v)-4]))
	return sealed(body)
}

func TestEntryDecodeRejects(t *testing.T) {
	good := history(result(200, probeFile, nil))
	down := history(result(503, "", nil))
	head := len(lease.Magic) + 2 + len(lease.AppendString(lease.AppendString(nil, testBind.Origin), testBind.Agent)) // the shape byte's index
	tests := []struct {
		name  string
		value []byte
		want  error
	}{
		{"nil", nil, lease.ErrFormat},
		{"text of another program", []byte("OK"), lease.ErrFormat},
		{"another magic", []byte("rtxX\x01\x00"), lease.ErrFormat},
		{"format version 1", reseal(t, good, func(b []byte) []byte { b[len(lease.Magic)] = 1; return b }), lease.ErrFormat},
		{"format version 3", reseal(t, good, func(b []byte) []byte { b[len(lease.Magic)] = 3; return b }), lease.ErrFormat},
		{"magic and version, no more", []byte(lease.Magic + "\x02"), lease.ErrCorrupt},
		{"only a checksum", sealed([]byte(lease.Magic + "\x02\x00")), lease.ErrCorrupt},
		{"unknown shape", reseal(t, good, func(b []byte) []byte { b[head] = 3; return b }), lease.ErrCorrupt},
		{"shape 0 but the latest is unreachable", reseal(t, down, func(b []byte) []byte { b[head] = 0; return b }), lease.ErrCorrupt},
		{"shape 2 but the latest is good", reseal(t, good, func(b []byte) []byte { b[head] = 2; return b }), lease.ErrCorrupt},
		{"bytes left over", reseal(t, good, func(b []byte) []byte { return append(b, 0) }), lease.ErrCorrupt},
		{"cut inside the rules", reseal(t, good, func(b []byte) []byte { return b[:len(b)-3] }), lease.ErrCorrupt},
		{"rules that do not load", reseal(t, good, func(b []byte) []byte {
			// The rules are the last run: replace them with a short junk one.
			r, _ := good.latest.Robots.MarshalBinary()
			b = b[:len(b)-len(r)-len(binary.AppendUvarint(nil, uint64(len(r))))]
			return append(b, 3, 0xff, 0xff, 0xff)
		}), lease.ErrCorrupt},
		{"a status code of four digits", func() []byte {
			r := result(200, probeFile, nil)
			r.StatusCode = 1000
			v, _ := encodeState(history(r), testBind)
			return v
		}(), lease.ErrCorrupt},
	}
	for _, tt := range tests {
		if _, err := decodeState(tt.value, testBind); !errors.Is(err, tt.want) {
			t.Errorf("%s: error %v, want %v", tt.name, err, tt.want)
		}
	}
}

// TestEntryDamage checks that every change of one byte and every cut of a
// valid value is refused, so that damage never passes for other rules.
func TestEntryDamage(t *testing.T) {
	for _, s := range []state{history(result(200, probeFile, nil)), history(result(200, probeFile, nil), result(503, "", nil))} {
		v, err := encodeState(s, testBind)
		if err != nil {
			t.Fatal(err)
		}
		for i := range v {
			for _, x := range []byte{0x01, 0x80, 0xff} {
				w := bytes.Clone(v)
				w[i] ^= x
				if _, err := decodeState(w, testBind); err == nil {
					t.Errorf("byte %d ^ %#x: decoded", i, x)
				}
			}
			if _, err := decodeState(v[:i], testBind); err == nil {
				t.Errorf("cut at %d of %d: decoded", i, len(v))
			}
		}
	}
}

// FuzzDecodeState checks that no value makes decoding panic, and that what
// decodes encodes again to a value that decodes the same and answers
// queries.
func FuzzDecodeState(f *testing.F) {
	for _, s := range []state{
		history(result(200, probeFile, nil)),
		history(result(200, probeFile, nil), result(503, "", nil)),
		history(result(0, "", errors.New("timeout"))),
		history(result(301, "", errRedirectLoop)),
	} {
		v, err := encodeState(s, testBind)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(v)
		f.Add(v[:len(v)-4]) // without its checksum: the fuzzer can seal mutations
	}
	f.Fuzz(func(t *testing.T, v []byte) {
		for _, w := range [][]byte{v, sealed(bytes.Clone(v))} {
			s, err := decodeState(w, testBind)
			if err != nil {
				continue
			}
			s.latest.Robots.Decide("Foobot", "/x/y")
			if s.good != nil {
				s.good.Robots.Sitemaps()
			}
			again, err := encodeState(s, testBind)
			if err != nil {
				t.Fatalf("re-encode: %v", err)
			}
			s2, err := decodeState(again, testBind)
			if err != nil {
				t.Fatalf("a re-encoded value does not decode: %v", err)
			}
			if !s2.latest.Expires.Equal(s.latest.Expires) || s2.latest.Robots.Kind() != s.latest.Robots.Kind() {
				t.Fatalf("re-encoding changed the history")
			}
		}
	})
}
