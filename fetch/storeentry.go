package fetch

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/robotstxt-go/robotstxt"
	"github.com/robotstxt-go/robotstxt/internal/lease"
)

// The value a cache saves in a Store is an origin's history (type state),
// bound to the origin and the crawler it was fetched for, and sealed, in
// the frame that package internal/lease writes (magic, format version,
// seal kind, origin, agent, then this body, then a CRC-32C or an
// HMAC-SHA-256 under Options.StoreKey). The body is:
//
//	shape    1 byte: 0 the latest result is good (and is the good copy);
//	         1 it is unreachable and a good copy follows it; 2 it is
//	         unreachable and there is no good copy
//	since    time: when the current run of unreachable results began
//	latest   result
//	good     result, when shape is 1
//
// A time is a varint of Unix seconds and a uvarint of nanoseconds; a
// duration a varint of nanoseconds; a string or byte run a uvarint length
// then the bytes. A result is:
//
//	RobotsURL, FinalURL            strings
//	StatusCode, Redirects, Bytes   uvarints
//	flags                          1 byte: bit 0 is Truncated
//	err                            1 byte: 0 nil, 1 errTooManyRedirects,
//	                               2 errRedirectLoop, 3 another error,
//	                               whose message follows as a string
//	Fetched, Duration, TTL, Expires
//	Robots                         byte run: its MarshalBinary form
//
// Decoding checks everything: the size, the seal and the sum, that the
// value names the origin and the crawler asked about, every length against
// what is left, every number against its range, that the value is used
// up, and that the shape agrees with the kinds of the rules. A value that
// fails any check is refused, for the reason its error wraps: one of the
// errors of lease.Binding.Open, lease.ErrCorrupt for a body that does not
// read, or errEntryTooLarge.

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
	maxEntryURL  = lease.MaxName // bytes of RobotsURL or FinalURL, as of the origin
	maxEntryErr  = 1 << 10       // bytes of an error message (longer ones are cut)
	maxEntryCode = 999           // HTTP status codes have three digits
)

// errEntryTooLarge is the reason a value longer than MaxStoreValue is
// refused, counted apart in Stats.StoreRefused with the reasons of
// lease.Binding.Open.
var errEntryTooLarge = errors.New("robots.txt history too large")

// Error kinds of a result.
const (
	errNone byte = iota
	codeTooManyRedirects
	codeRedirectLoop
	errOther
)

// encodeState returns the Store value of the history s, whose latest result
// is not nil, bound by b. A value longer than MaxStoreValue is an error:
// no cache would read it.
func encodeState(s state, b lease.Binding) ([]byte, error) {
	shape := byte(0)
	if s.latest.Unreachable() {
		shape = 2
		if s.good != nil {
			shape = 1
		}
	}
	v := b.Begin(make([]byte, 0, 512))
	v = append(v, shape)
	v = lease.AppendTime(v, s.failingSince)
	v, err := appendResult(v, s.latest)
	if err == nil && shape == 1 {
		v, err = appendResult(v, s.good)
	}
	if err != nil {
		return nil, err
	}
	v = b.Seal(v)
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
	b = lease.AppendString(b, r.RobotsURL)
	b = lease.AppendString(b, r.FinalURL)
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
	case errors.Is(r.Err, errTooManyRedirects):
		b = append(b, codeTooManyRedirects)
	case errors.Is(r.Err, errRedirectLoop):
		b = append(b, codeRedirectLoop)
	default:
		msg := r.Err.Error()
		if len(msg) > maxEntryErr {
			msg = msg[:maxEntryErr]
		}
		b = lease.AppendString(append(b, errOther), msg)
	}
	b = lease.AppendTime(b, r.Fetched)
	b = binary.AppendVarint(b, int64(r.Duration))
	b = binary.AppendVarint(b, int64(r.TTL))
	b = lease.AppendTime(b, r.Expires)
	return append(binary.AppendUvarint(b, uint64(len(robots))), robots...), nil
}

// decodeState reads a Store value written by encodeState for the binding
// b. It returns an error wrapping one of the errEntry errors for anything
// else.
func decodeState(v []byte, b lease.Binding) (state, error) {
	if len(v) > MaxStoreValue {
		return state{}, fmt.Errorf("%w: %d bytes", errEntryTooLarge, len(v))
	}
	d, err := b.Open(v)
	if err != nil {
		return state{}, err
	}
	shape := d.Byte()
	var s state
	s.failingSince = d.Time()
	s.latest = readResult(d)
	if shape == 1 {
		s.good = readResult(d)
	}
	switch {
	case d.Err() != nil:
		return state{}, fmt.Errorf("%w: %v", lease.ErrCorrupt, d.Err())
	case d.Len() != 0:
		return state{}, fmt.Errorf("%w: %d bytes left over", lease.ErrCorrupt, d.Len())
	case shape > 2:
		return state{}, fmt.Errorf("%w: shape %d", lease.ErrCorrupt, shape)
	case (shape == 0) == s.latest.Unreachable():
		return state{}, fmt.Errorf("%w: shape %d does not match the latest rules (%v)", lease.ErrCorrupt, shape, s.latest.Robots.Kind())
	case shape == 1 && s.good.Unreachable():
		return state{}, fmt.Errorf("%w: the good copy is unreachable", lease.ErrCorrupt)
	}
	if shape == 0 {
		s.good = s.latest
	}
	return s, nil
}

// readResult reads a result as appendResult writes it.
func readResult(d *lease.Decoder) *Result {
	r := &Result{
		RobotsURL: string(d.Bytes(maxEntryURL, "RobotsURL")),
		FinalURL:  string(d.Bytes(maxEntryURL, "FinalURL")),
	}
	r.StatusCode = int(d.Uvarint(maxEntryCode, "status code"))
	r.Redirects = int(d.Uvarint(maxRedirects+1, "redirects"))
	r.Bytes = int(d.Uvarint(MaxBodySize, "bytes read"))
	switch flags := d.Byte(); flags {
	case 0, 1:
		r.Truncated = flags == 1
	default:
		d.Fail("unknown flags")
	}
	switch kind := d.Byte(); kind {
	case errNone:
	case codeTooManyRedirects:
		r.Err = errTooManyRedirects
	case codeRedirectLoop:
		r.Err = errRedirectLoop
	case errOther:
		r.Err = errors.New(string(d.Bytes(maxEntryErr, "error message")))
	default:
		d.Fail("unknown error kind")
	}
	r.Fetched = d.Time()
	r.Duration = time.Duration(d.Varint("duration"))
	r.TTL = time.Duration(d.Varint("TTL"))
	r.Expires = d.Time()
	data := d.Bytes(math.MaxUint64, "rules")
	if d.Err() != nil {
		return nil
	}
	robots := new(robotstxt.Robots)
	if err := robots.UnmarshalBinary(data); err != nil {
		d.Fail("rules: " + err.Error())
		return nil
	}
	r.Robots = robots
	return r
}
