package redisstore

import (
	"bytes"
	"context"
	"errors"
	"testing"
	"time"

	"github.com/robotstxt-go/robotstxt/fetch"
)

// TestStoreCalls checks each call of the Store against a real Redis: what
// it returns, which keys it sets, and their lifetimes.
func TestStoreCalls(t *testing.T) {
	r := startRedis(t)
	rdb := r.client(t)
	s := New(rdb, "t:")
	ctx := context.Background()
	const origin = "https://example.com"
	if got := s.Key(origin); got != "t:{https://example.com}" {
		t.Errorf("Key = %q; want the prefix and the origin as a hash tag", got)
	}
	check := func(what string, got, want any) {
		t.Helper()
		if gb, ok := got.([]byte); ok {
			if wb, _ := want.([]byte); !bytes.Equal(gb, wb) || (gb == nil) != (wb == nil) {
				t.Errorf("%s: %q, want %q", what, gb, wb)
			}
			return
		}
		if got != want {
			t.Errorf("%s: %v, want %v", what, got, want)
		}
	}
	lease := func(token string) ([]byte, bool) {
		t.Helper()
		l, err := s.Lease(ctx, origin, token, 2*time.Second)
		if err != nil {
			t.Fatalf("Lease(%s): %v", token, err)
		}
		if l.Left <= 0 || l.Left > 2*time.Second || l.Holder == "" {
			t.Errorf("Lease(%s): %+v; want a holder and the time its lease has left", token, l)
		}
		return l.Value, l.Holder == token
	}

	v, err := s.Load(ctx, origin)
	check("Load of a missing key", v, []byte(nil))
	check("its error", err, nil)

	v, ok := lease("a")
	check("first Lease: taken", ok, true)
	check("first Lease: no value", v, []byte(nil))
	if ttl := rdb.PTTL(ctx, s.Key(origin)+":lease").Val(); ttl <= time.Second || ttl > 2*time.Second {
		t.Errorf("lease PTTL %v; want about 2s", ttl)
	}
	_, ok = lease("b")
	check("Lease while a holds it", ok, false)
	time.Sleep(50 * time.Millisecond)
	_, ok = lease("a")
	check("Lease by a, which holds it: renewed", ok, true)
	if ttl := rdb.PTTL(ctx, s.Key(origin)+":lease").Val(); ttl <= 1950*time.Millisecond {
		t.Errorf("lease PTTL %v after a renewal; want 2s again", ttl)
	}

	if err := s.Save(ctx, origin, "b", []byte("v1"), time.Hour); err != nil {
		t.Fatal(err)
	}
	v, ok = lease("b")
	check("Save by b, which holds no lease, leaves a's: taken", ok, false)
	check("and the value is b's", v, []byte("v1"))

	if err := s.Release(ctx, origin, "b"); err != nil {
		t.Fatal(err)
	}
	_, ok = lease("c")
	check("Release by b leaves a's lease", ok, false)

	if err := s.Save(ctx, origin, "a", []byte("v2"), time.Hour); err != nil {
		t.Fatal(err)
	}
	if ttl := rdb.PTTL(ctx, s.Key(origin)).Val(); ttl <= 59*time.Minute || ttl > time.Hour {
		t.Errorf("value PTTL %v; want about an hour", ttl)
	}
	v, ok = lease("c")
	check("Save by a drops a's lease: c takes it", ok, true)
	check("with a's value", v, []byte("v2"))

	if err := s.Release(ctx, origin, "c"); err != nil {
		t.Fatal(err)
	}
	_, ok = lease("d")
	check("Release by c drops it", ok, true)

	if err := s.Save(ctx, origin, "", []byte("v3"), time.Hour); err != nil {
		t.Fatal(err)
	}
	_, ok = lease("e")
	check("Save with no token drops no lease", ok, false)

	if err := s.Delete(ctx, origin); err != nil {
		t.Fatal(err)
	}
	v, _ = s.Load(ctx, origin)
	check("Load after Delete", v, []byte(nil))

	rdb.Set(ctx, s.Key(origin), "", 0)
	v, _ = s.Load(ctx, origin)
	check("an empty string is an empty value, not none", v, []byte{})

	rdb.Del(ctx, s.Key(origin))
	rdb.RPush(ctx, s.Key(origin), "x")
	v, err = s.Load(ctx, origin)
	check("a list under the key: a foreign value", v, []byte{})
	check("not an error", err, nil)
	rdb.Del(ctx, s.Key(origin)+":lease")
	l, err := s.Lease(ctx, origin, "f", time.Second)
	check("Lease over a list: taken", l.Holder, "f")
	check("Lease over a list: a foreign value", l.Value, []byte{})
	check("Lease over a list: no error", err, nil)
	if err := s.Save(ctx, origin, "f", []byte("v4"), time.Hour); err != nil {
		t.Errorf("Save over a list: %v", err)
	}
	v, _ = s.Load(ctx, origin)
	check("Save replaced the list", v, []byte("v4"))
}

// TestStoreTooLarge checks that a value longer than fetch.MaxStoreValue is
// reported, not read: Load and Lease return at once, over a link too slow
// to carry it within the time allowed.
func TestStoreTooLarge(t *testing.T) {
	r := startRedis(t)
	rdb := r.client(t)
	p := newSlowProxy(t, r.addr)
	s := New(newClient(t, p.addr()), "big:")
	ctx := context.Background()
	const origin = "https://example.com"
	for _, n := range []int{fetch.MaxStoreValue, fetch.MaxStoreValue + 1} {
		if err := rdb.Set(ctx, s.Key(origin), make([]byte, n), time.Hour).Err(); err != nil {
			t.Fatal(err)
		}
		p.setDelay(0)
		v, err := s.Load(ctx, origin)
		l, lerr := s.Lease(ctx, origin, "a", time.Second)
		if n == fetch.MaxStoreValue {
			if len(v) != n || err != nil || len(l.Value) != n || l.TooLarge || lerr != nil {
				t.Errorf("%d bytes: Load %d bytes, %v; Lease %d bytes, %v, %v; want the value", n, len(v), err, len(l.Value), l.TooLarge, lerr)
			}
			continue
		}
		p.setDelay(50 * time.Millisecond) // per 32 KiB: the value would take 12s
		start := time.Now()
		v, err = s.Load(ctx, origin)
		l, lerr = s.Lease(ctx, origin, "a", time.Second)
		if v != nil || !errors.Is(err, fetch.ErrValueTooLarge) || l.Value != nil || !l.TooLarge || lerr != nil || l.Holder != "a" {
			t.Errorf("%d bytes: Load %d bytes, %v; Lease %+v, %v; want ErrValueTooLarge, and TooLarge", n, len(v), err, l, lerr)
		}
		if d := time.Since(start); d > time.Second {
			t.Errorf("%d bytes: Load and Lease took %v; want the value not transferred", n, d)
		}
	}
}

// TestStoreDown checks that every call reports a Redis that is not there.
func TestStoreDown(t *testing.T) {
	addr, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
	s := New(newClient(t, addr), "t:")
	ctx := context.Background()
	if _, err := s.Load(ctx, "http://a"); err == nil {
		t.Error("Load: no error")
	}
	if _, err := s.Lease(ctx, "http://a", "x", time.Second); err == nil {
		t.Error("Lease: no error")
	}
	if err := s.Save(ctx, "http://a", "x", []byte("v"), time.Second); err == nil {
		t.Error("Save: no error")
	}
	if err := s.Release(ctx, "http://a", "x"); err == nil {
		t.Error("Release: no error")
	}
	if err := s.Delete(ctx, "http://a"); err == nil {
		t.Error("Delete: no error")
	}
}
