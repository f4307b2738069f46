package fetch

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"time"

	"github.com/robotstxt-go/robotstxt"
)

// The value a cache saves in a Store is an origin's history (type state),
// bound to the origin and the crawler it was fetched for:
//
//	magic    "rtxh" and the format version, 2
//	seal     1 byte: 0 the value ends in a CRC-32C (4 bytes); 1 it ends in
//	         an HMAC-SHA-256 under Options.StoreKey (32 bytes)
//	origin   string: the origin whose history it is
//	agent    string: the product token of the crawler that fetched it,
//	         in lower case
//	shape    1 byte: 0 the latest result is good (and is the good copy);
//	         1 it is unreachable and a good copy follows it; 2 it is
//	         unreachable and there is no good copy
//	since    time: when the current run of unreachable results began
//	latest   result
//	good     result, when shape is 1
//	sum      the CRC-32C (little-endian) or HMAC of everything before
//
// A time is a varint of Unix seconds and a uvarint of nanoseconds; a
// duration a varint of nanoseconds; a string or byte run a uvarint length
// then the bytes. A result is:
//
//	RobotsURL, FinalURL            strings
//	StatusCode, Redirects, Bytes   uvarints
//	flags                          1 byte: bit 0 is Truncated
//	err                            1 byte: 0 nil, 1 ErrTooManyRedirects,
//	                               2 ErrRedirectLoop, 3 another error,
//	                               whose message follows as a string
//	Fetched, Duration, TTL, Expires
//	Robots                         byte run: its MarshalBinary form
//
// Decoding checks everything: the size, the seal and the sum, that the
// value names the origin and the crawler asked about, every length against
// what is left, every number against its range, that the value is used
// up, and that the shape agrees with the kinds of the rules. A value that
// fails any check is refused, for the reason its error wraps.
const (
	entryMagic   = "rtxh"
	entryVersion = 2
)

// Seals of a value.
const (
	sealCRC  byte = 0
	sealHMAC byte = 1
)

// MaxStoreValue is the length past which a Store value is refused unread:
// a Store does not transfer a longer one (see [Store.Load]). A history
// holds at most one parsed file (the good copy) and one unreachable
// result; the largest value it can take, a 500 KiB file whose every line
// is the three-byte directive that costs the most, with URLs and an error
// of the longest kept, is about 3.2 MB (TestMaxStoreValue), which leaves
// a quarter for room.
const MaxStoreValue = 4 << 20

// Bounds on what a value may hold, beyond which it is taken as damaged.
const (
	maxEntryURL  = 64 << 10 // bytes of RobotsURL or FinalURL
	maxEntryErr  = 1 << 10  // bytes of an error message (longer ones are cut)
	maxEntryCode = 999      // HTTP status codes have three digits
)

var crcTable = crc32.MakeTable(crc32.Castagnoli)

// Errors of decodeState, wrapped with detail: each is a reason for
// refusing a value, counted apart in [StoreRefused].
var (
	errEntryFormat   = errors.New("not a robots.txt history of this format version")
	errEntryCorrupt  = errors.New("damaged robots.txt history")
	errEntrySeal     = errors.New("robots.txt history not sealed with this fleet's key")
	errEntryOrigin   = errors.New("robots.txt history of another origin")
	errEntryAgent    = errors.New("robots.txt history fetched for another crawler")
	errEntryTooLarge = errors.New("robots.txt history too large")
)

// binding is what a value must be bound to: the origin, the crawler's
// product token, and the fleet's key, or none.
type binding struct {
	origin string
	agent  string // in lower case
	key    []byte
}

// sealSize returns the seal kind and the length of the sum that b uses.
func (b binding) sealSize() (byte, int) {
	if len(b.key) > 0 {
		return sealHMAC, sha256.Size
	}
	return sealCRC, 4
}

// sum appends to v the sum of body under b.
func (b binding) sum(v, body []byte) []byte {
	if len(b.key) > 0 {
		m := hmac.New(sha256.New, b.key)
		m.Write(body)
		return m.Sum(v)
	}
	return binary.LittleEndian.AppendUint32(v, crc32.Checksum(body, crcTable))
}

// Error kinds of a result.
const (
	errNone byte = iota
	errTooManyRedirects
	errRedirectLoop
	errOther
)

// encodeState returns the Store value of the history s, whose latest result
// is not nil, bound by b. A value longer than MaxStoreValue is an error:
// no cache would read it.
func encodeState(s state, b binding) ([]byte, error) {
	shape := byte(0)
	if s.latest.Unreachable() {
		shape = 2
		if s.good != nil {
			shape = 1
		}
	}
	kind, _ := b.sealSize()
	v := append(make([]byte, 0, 512), entryMagic...)
	v = append(v, entryVersion, kind)
	v = appendString(v, b.origin)
	v = appendString(v, b.agent)
	v = append(v, shape)
	v = appendTime(v, s.failingSince)
	v, err := appendResult(v, s.latest)
	if err == nil && shape == 1 {
		v, err = appendResult(v, s.good)
	}
	if err != nil {
		return nil, err
	}
	v = b.sum(v, v)
	if len(v) > MaxStoreValue {
		return nil, fmt.Errorf("%w: %d bytes", errEntryTooLarge, len(v))
	}
	return v, nil
}

func appendResult(b []byte, r *Result) ([]byte, error) {
	robots, err := r.Robots.MarshalBinary()
	if err != nil {
		return nil, err
	}
	b = appendString(b, r.RobotsURL)
	b = appendString(b, r.FinalURL)
	b = binary.AppendUvarint(b, uint64(max(r.StatusCode, 0)))
	b = binary.AppendUvarint(b, uint64(max(r.Redirects, 0)))
	b = binary.AppendUvarint(b, uint64(max(r.Bytes, 0)))
	flags := byte(0)
	if r.Truncated {
		flags = 1
	}
	b = append(b, flags)
	switch {
	case r.Err == nil:
		b = append(b, errNone)
	case errors.Is(r.Err, ErrTooManyRedirects):
		b = append(b, errTooManyRedirects)
	case errors.Is(r.Err, ErrRedirectLoop):
		b = append(b, errRedirectLoop)
	default:
		msg := r.Err.Error()
		if len(msg) > maxEntryErr {
			msg = msg[:maxEntryErr]
		}
		b = appendString(append(b, errOther), msg)
	}
	b = appendTime(b, r.Fetched)
	b = binary.AppendVarint(b, int64(r.Duration))
	b = binary.AppendVarint(b, int64(r.TTL))
	b = appendTime(b, r.Expires)
	return append(binary.AppendUvarint(b, uint64(len(robots))), robots...), nil
}

func appendString(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

func appendTime(b []byte, t time.Time) []byte {
	return binary.AppendUvarint(binary.AppendVarint(b, t.Unix()), uint64(t.Nanosecond()))
}

// decodeState reads a Store value written by encodeState for the binding
// b. It returns an error wrapping one of the errEntry errors for anything
// else.
func decodeState(v []byte, b binding) (state, error) {
	if len(v) > MaxStoreValue {
		return state{}, fmt.Errorf("%w: %d bytes", errEntryTooLarge, len(v))
	}
	head := len(entryMagic) + 2
	if len(v) < head-1 || string(v[:len(entryMagic)]) != entryMagic || v[len(entryMagic)] != entryVersion {
		return state{}, errEntryFormat
	}
	kind, size := b.sealSize()
	if len(v) < head {
		return state{}, fmt.Errorf("%w: %d bytes", errEntryCorrupt, len(v))
	}
	if v[head-1] != kind {
		return state{}, fmt.Errorf("%w: seal %d, want %d", errEntrySeal, v[head-1], kind)
	}
	if len(v) < head+size {
		return state{}, fmt.Errorf("%w: %d bytes", errEntryCorrupt, len(v))
	}
	body := v[:len(v)-size]
	if want := b.sum(nil, body); !hmac.Equal(want, v[len(body):]) {
		if kind == sealHMAC {
			return state{}, fmt.Errorf("%w: the HMAC does not match", errEntrySeal)
		}
		return state{}, fmt.Errorf("%w: checksum mismatch", errEntryCorrupt)
	}
	d := decoder{b: body[head:]}
	origin := d.bytes(maxEntryURL, "origin")
	agent := d.bytes(maxEntryURL, "agent")
	switch {
	case d.err != nil:
		return state{}, fmt.Errorf("%w: %v", errEntryCorrupt, d.err)
	case string(origin) != b.origin:
		return state{}, fmt.Errorf("%w: %.100q", errEntryOrigin, origin)
	case string(agent) != b.agent:
		return state{}, fmt.Errorf("%w: %.100q", errEntryAgent, agent)
	}
	shape := d.byte()
	var s state
	s.failingSince = d.time()
	s.latest = d.result()
	if shape == 1 {
		s.good = d.result()
	}
	switch {
	case d.err != nil:
		return state{}, fmt.Errorf("%w: %v", errEntryCorrupt, d.err)
	case len(d.b) != 0:
		return state{}, fmt.Errorf("%w: %d bytes left over", errEntryCorrupt, len(d.b))
	case shape > 2:
		return state{}, fmt.Errorf("%w: shape %d", errEntryCorrupt, shape)
	case (shape == 0) == s.latest.Unreachable():
		return state{}, fmt.Errorf("%w: shape %d does not match the latest rules (%v)", errEntryCorrupt, shape, s.latest.Robots.Kind())
	case shape == 1 && s.good.Unreachable():
		return state{}, fmt.Errorf("%w: the good copy is unreachable", errEntryCorrupt)
	}
	if shape == 0 {
		s.good = s.latest
	}
	return s, nil
}

// decoder reads a value; its first error stops it.
type decoder struct {
	b   []byte
	err error
}

func (d *decoder) fail(what string) {
	if d.err == nil {
		d.err = errors.New(what)
	}
	d.b = nil
}

func (d *decoder) byte() byte {
	if len(d.b) == 0 {
		d.fail("cut short")
		return 0
	}
	c := d.b[0]
	d.b = d.b[1:]
	return c
}

func (d *decoder) uvarint(limit uint64, what string) uint64 {
	n, k := binary.Uvarint(d.b)
	if k <= 0 {
		d.fail("bad number for " + what)
		return 0
	}
	d.b = d.b[k:]
	if n > limit {
		d.fail(what + " out of range")
		return 0
	}
	return n
}

func (d *decoder) varint(what string) int64 {
	n, k := binary.Varint(d.b)
	if k <= 0 {
		d.fail("bad number for " + what)
		return 0
	}
	d.b = d.b[k:]
	return n
}

func (d *decoder) bytes(limit uint64, what string) []byte {
	n := d.uvarint(limit, what+" length")
	if d.err == nil && n > uint64(len(d.b)) {
		d.fail(what + " cut short")
	}
	if d.err != nil {
		return nil
	}
	s := d.b[:n:n]
	d.b = d.b[n:]
	return s
}

func (d *decoder) time() time.Time {
	sec := d.varint("seconds")
	nsec := d.uvarint(999_999_999, "nanoseconds")
	if d.err != nil {
		return time.Time{}
	}
	return time.Unix(sec, int64(nsec)).UTC()
}

func (d *decoder) result() *Result {
	r := &Result{
		RobotsURL: string(d.bytes(maxEntryURL, "RobotsURL")),
		FinalURL:  string(d.bytes(maxEntryURL, "FinalURL")),
	}
	r.StatusCode = int(d.uvarint(maxEntryCode, "status code"))
	r.Redirects = int(d.uvarint(MaxRedirects+1, "redirects"))
	r.Bytes = int(d.uvarint(MaxBodySize, "bytes read"))
	switch flags := d.byte(); flags {
	case 0, 1:
		r.Truncated = flags == 1
	default:
		d.fail("unknown flags")
	}
	switch kind := d.byte(); kind {
	case errNone:
	case errTooManyRedirects:
		r.Err = ErrTooManyRedirects
	case errRedirectLoop:
		r.Err = ErrRedirectLoop
	case errOther:
		r.Err = errors.New(string(d.bytes(maxEntryErr, "error message")))
	default:
		d.fail("unknown error kind")
	}
	r.Fetched = d.time()
	r.Duration = time.Duration(d.varint("duration"))
	r.TTL = time.Duration(d.varint("TTL"))
	r.Expires = d.time()
	data := d.bytes(math.MaxUint64, "rules")
	if d.err != nil {
		return nil
	}
	robots := new(robotstxt.Robots)
	if err := robots.UnmarshalBinary(data); err != nil {
		d.fail("rules: " + err.Error())
		return nil
	}
	r.Robots = robots
	return r
}
