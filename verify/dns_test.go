package verify

import (
	"context"
	"encoding/binary"
	"io"
	"net"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/net/dns/dnsmessage"
)

// testDNS is a DNS server on 127.0.0.1, over UDP and TCP on one port,
// answering from a zone written in the test: PTR, A and AAAA records,
// names that answer SERVFAIL, names that never answer, and a delay.
type testDNS struct {
	mu       sync.Mutex
	ptr      map[string][]string     // reverse name → PTR names
	addrs    map[string][]netip.Addr // name → addresses
	servfail map[string]bool
	silent   map[string]bool
	delay    time.Duration
	queries  atomic.Int64
	addr     string
}

func newTestDNS(t testing.TB) *testDNS {
	t.Helper()
	d := &testDNS{ptr: map[string][]string{}, addrs: map[string][]netip.Addr{},
		servfail: map[string]bool{}, silent: map[string]bool{}}
	// UDP and TCP on one port: a port free for UDP may be taken for TCP
	// on a shared machine, so try a few.
	var pc net.PacketConn
	var ln net.Listener
	for try := 0; ; try++ {
		var err error
		pc, err = net.ListenPacket("udp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		d.addr = pc.LocalAddr().String()
		ln, err = net.Listen("tcp", d.addr)
		if err == nil {
			break
		}
		pc.Close()
		if try == 20 {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() { pc.Close(); ln.Close() })
	go func() {
		buf := make([]byte, 65535)
		for {
			n, from, err := pc.ReadFrom(buf)
			if err != nil {
				return
			}
			q := append([]byte(nil), buf[:n]...)
			go func() {
				if out := d.answer(q, 1232); out != nil {
					pc.WriteTo(out, from)
				}
			}()
		}
	}()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				for {
					var l [2]byte
					if _, err := io.ReadFull(c, l[:]); err != nil {
						return
					}
					q := make([]byte, binary.BigEndian.Uint16(l[:]))
					if _, err := io.ReadFull(c, q); err != nil {
						return
					}
					out := d.answer(q, 65535)
					if out == nil {
						return
					}
					c.Write(append(binary.BigEndian.AppendUint16(nil, uint16(len(out))), out...))
				}
			}()
		}
	}()
	return d
}

// resolver returns a resolver that asks only this server.
func (d *testDNS) resolver() *net.Resolver {
	return &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, network, _ string) (net.Conn, error) {
		var dl net.Dialer
		return dl.DialContext(ctx, network, d.addr)
	}}
}

// reverseName returns the in-addr.arpa or ip6.arpa name of ip.
func reverseName(ip netip.Addr) string {
	if ip.Is4() {
		b := ip.As4()
		return net.IPv4(b[3], b[2], b[1], b[0]).String() + ".in-addr.arpa."
	}
	b := ip.As16()
	var s strings.Builder
	for i := 15; i >= 0; i-- {
		const hex = "0123456789abcdef"
		s.WriteByte(hex[b[i]&15])
		s.WriteByte('.')
		s.WriteByte(hex[b[i]>>4])
		s.WriteByte('.')
	}
	return s.String() + "ip6.arpa."
}

func (d *testDNS) setPTR(ip string, names ...string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.ptr[reverseName(netip.MustParseAddr(ip))] = names
}

func (d *testDNS) setServfail(name string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.servfail[name] = true
}

func (d *testDNS) setSilent(name string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.silent[name] = true
}

func (d *testDNS) setAddr(name string, ips ...string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, ip := range ips {
		d.addrs[name] = append(d.addrs[name], netip.MustParseAddr(ip))
	}
}

// answer returns the response to the query q, nil for none; a response
// longer than max is sent truncated, as a UDP server does, so that the
// client asks again over TCP.
func (d *testDNS) answer(q []byte, max int) []byte {
	d.queries.Add(1)
	var p dnsmessage.Parser
	h, err := p.Start(q)
	if err != nil {
		return nil
	}
	question, err := p.Question()
	if err != nil {
		return nil
	}
	name := strings.ToLower(question.Name.String())
	d.mu.Lock()
	delay, silent, servfail := d.delay, d.silent[name], d.servfail[name]
	ptrs, addrs := d.ptr[name], d.addrs[name]
	d.mu.Unlock()
	if silent {
		return nil
	}
	time.Sleep(delay)
	rh := dnsmessage.Header{ID: h.ID, Response: true, Authoritative: true, RecursionDesired: h.RecursionDesired, RecursionAvailable: true}
	known := len(ptrs) > 0 || len(addrs) > 0
	switch {
	case servfail:
		rh.RCode = dnsmessage.RCodeServerFailure
	case !known:
		rh.RCode = dnsmessage.RCodeNameError
	}
	b := dnsmessage.NewBuilder(nil, rh)
	b.EnableCompression()
	b.StartQuestions()
	b.Question(question)
	b.StartAnswers()
	rr := dnsmessage.ResourceHeader{Name: question.Name, Class: dnsmessage.ClassINET, TTL: 300}
	if rh.RCode == dnsmessage.RCodeSuccess {
		switch question.Type {
		case dnsmessage.TypePTR:
			for _, n := range ptrs {
				b.PTRResource(rr, dnsmessage.PTRResource{PTR: dnsmessage.MustNewName(n)})
			}
		case dnsmessage.TypeA:
			for _, a := range addrs {
				if a.Is4() {
					b.AResource(rr, dnsmessage.AResource{A: a.As4()})
				}
			}
		case dnsmessage.TypeAAAA:
			for _, a := range addrs {
				if a.Is6() {
					b.AAAAResource(rr, dnsmessage.AAAAResource{AAAA: a.As16()})
				}
			}
		}
	}
	out, err := b.Finish()
	if err != nil {
		return nil
	}
	if len(out) > max {
		rh.Truncated = true
		b := dnsmessage.NewBuilder(nil, rh)
		b.StartQuestions()
		b.Question(question)
		out, _ = b.Finish()
	}
	return out
}
