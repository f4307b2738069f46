package lease

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"time"
)

// A value is framed and sealed here, and its body written by the codec:
//
//	magic    Magic and the format version, Version
//	seal     1 byte: 0 the value ends in a CRC-32C (4 bytes); 1 it ends in
//	         an HMAC-SHA-256 under the fleet's key (32 bytes)
//	origin   string: the origin whose history it is
//	agent    string: the product token of the crawler that fetched it,
//	         in lower case
//	body     the codec's
//	sum      the CRC-32C (little-endian) or HMAC of everything before
//
// A time is a varint of Unix seconds and a uvarint of nanoseconds; a
// string or byte run a uvarint length then the bytes (AppendString,
// AppendTime, and the Decoder that reads them).
const (
	Magic   = "rtxh"
	Version = 2
)

// Seals of a value.
const (
	sealCRC  byte = 0
	sealHMAC byte = 1
)

// MaxName bounds the bytes of the origin and of the agent a value names,
// beyond which it is taken as damaged.
const MaxName = 64 << 10

var crcTable = crc32.MakeTable(crc32.Castagnoli)

// Reasons a value's frame is refused, wrapped with detail by Open; a
// codec wraps ErrCorrupt for a body that does not read.
var (
	ErrFormat  = errors.New("not a robots.txt history of this format version")
	ErrCorrupt = errors.New("damaged robots.txt history")
	ErrSeal    = errors.New("robots.txt history not sealed with this fleet's key")
	ErrOrigin  = errors.New("robots.txt history of another origin")
	ErrAgent   = errors.New("robots.txt history fetched for another crawler")
)

// Binding is what a value must be bound to: the origin, the crawler's
// product token, and the fleet's key, or none.
type Binding struct {
	Origin string
	Agent  string // in lower case
	Key    []byte
}

// sealSize returns the seal kind and the length of the sum that b uses.
func (b Binding) sealSize() (byte, int) {
	if len(b.Key) > 0 {
		return sealHMAC, sha256.Size
	}
	return sealCRC, 4
}

// sum appends to v the sum of body under b.
func (b Binding) sum(v, body []byte) []byte {
	if len(b.Key) > 0 {
		m := hmac.New(sha256.New, b.Key)
		m.Write(body)
		return m.Sum(v)
	}
	return binary.LittleEndian.AppendUint32(v, crc32.Checksum(body, crcTable))
}

// Begin appends to v the frame of a value bound by b, up to its body.
func (b Binding) Begin(v []byte) []byte {
	kind, _ := b.sealSize()
	v = append(v, Magic...)
	v = append(v, Version, kind)
	v = AppendString(v, b.Origin)
	return AppendString(v, b.Agent)
}

// Seal appends to v, begun with Begin and its body written, its sum.
func (b Binding) Seal(v []byte) []byte {
	return b.sum(v, v)
}

// Open checks the frame of v, its seal and its sum, and that it names b's
// origin and agent, and returns a Decoder of its body. Its error wraps
// ErrFormat, ErrCorrupt, ErrSeal, ErrOrigin or ErrAgent.
func (b Binding) Open(v []byte) (*Decoder, error) {
	head := len(Magic) + 2
	if len(v) < head-1 || string(v[:len(Magic)]) != Magic || v[len(Magic)] != Version {
		return nil, ErrFormat
	}
	kind, size := b.sealSize()
	if len(v) < head {
		return nil, fmt.Errorf("%w: %d bytes", ErrCorrupt, len(v))
	}
	if v[head-1] != kind {
		return nil, fmt.Errorf("%w: seal %d, want %d", ErrSeal, v[head-1], kind)
	}
	if len(v) < head+size {
		return nil, fmt.Errorf("%w: %d bytes", ErrCorrupt, len(v))
	}
	body := v[:len(v)-size]
	if want := b.sum(nil, body); !hmac.Equal(want, v[len(body):]) {
		if kind == sealHMAC {
			return nil, fmt.Errorf("%w: the HMAC does not match", ErrSeal)
		}
		return nil, fmt.Errorf("%w: checksum mismatch", ErrCorrupt)
	}
	d := &Decoder{b: body[head:]}
	origin := d.Bytes(MaxName, "origin")
	agent := d.Bytes(MaxName, "agent")
	switch {
	case d.err != nil:
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, d.err)
	case string(origin) != b.Origin:
		return nil, fmt.Errorf("%w: %.100q", ErrOrigin, origin)
	case string(agent) != b.Agent:
		return nil, fmt.Errorf("%w: %.100q", ErrAgent, agent)
	}
	return d, nil
}

// AppendString appends s as a uvarint length and its bytes.
func AppendString(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

// AppendTime appends t as a varint of Unix seconds and a uvarint of
// nanoseconds.
func AppendTime(b []byte, t time.Time) []byte {
	return binary.AppendUvarint(binary.AppendVarint(b, t.Unix()), uint64(t.Nanosecond()))
}

// Decoder reads a value's body; its first error stops it.
type Decoder struct {
	b   []byte
	err error
}

// Err returns the first error met, or nil.
func (d *Decoder) Err() error { return d.err }

// Len returns the number of bytes left.
func (d *Decoder) Len() int { return len(d.b) }

// Fail stops d with the error what, unless it failed before.
func (d *Decoder) Fail(what string) {
	if d.err == nil {
		d.err = errors.New(what)
	}
	d.b = nil
}

// Byte reads one byte.
func (d *Decoder) Byte() byte {
	if len(d.b) == 0 {
		d.Fail("cut short")
		return 0
	}
	c := d.b[0]
	d.b = d.b[1:]
	return c
}

// Uvarint reads a uvarint no greater than limit.
func (d *Decoder) Uvarint(limit uint64, what string) uint64 {
	n, k := binary.Uvarint(d.b)
	if k <= 0 {
		d.Fail("bad number for " + what)
		return 0
	}
	d.b = d.b[k:]
	if n > limit {
		d.Fail(what + " out of range")
		return 0
	}
	return n
}

// Varint reads a varint.
func (d *Decoder) Varint(what string) int64 {
	n, k := binary.Varint(d.b)
	if k <= 0 {
		d.Fail("bad number for " + what)
		return 0
	}
	d.b = d.b[k:]
	return n
}

// Bytes reads a byte run of at most limit bytes, as AppendString writes
// it.
func (d *Decoder) Bytes(limit uint64, what string) []byte {
	n := d.Uvarint(limit, what+" length")
	if d.err == nil && n > uint64(len(d.b)) {
		d.Fail(what + " cut short")
	}
	if d.err != nil {
		return nil
	}
	s := d.b[:n:n]
	d.b = d.b[n:]
	return s
}

// Time reads a time as AppendTime writes it, in UTC.
func (d *Decoder) Time() time.Time {
	sec := d.Varint("seconds")
	nsec := d.Uvarint(999_999_999, "nanoseconds")
	if d.err != nil {
		return time.Time{}
	}
	return time.Unix(sec, int64(nsec)).UTC()
}
