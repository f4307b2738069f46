// Package redisstore keeps the robots.txt cache of a crawler fleet in Redis,
// so that every robots.txt is fetched once for the whole fleet rather than
// once per crawler process, and a new process starts warm.
//
// A [Store] is a [fetch.Store]: give it to each process's [fetch.Cache],
//
//	rdb := redis.NewClient(&redis.Options{Addr: "redis:6379", ContextTimeoutEnabled: true})
//	cache := fetch.NewCache(&fetch.Options{Store: redisstore.New(rdb, "crawl:robots:")})
//
// and ask the cache as before. Each process keeps its in-process tier in
// front: a question about an origin it holds fresh costs no round trip. On a
// miss, the cache loads the origin from Redis (one round trip); when Redis
// holds nothing fresh, one process takes the origin's lease, fetches
// (renewing the lease while it does) and saves, and the others wait for its
// value, or for the next holder's if it dies. If Redis is down or slow,
// every question is still answered: the cache fetches by itself (see
// fetch.Store for the whole contract).
//
// # Keys
//
// For an origin such as https://example.com, with prefix "crawl:robots:",
// the value lives under
//
//	crawl:robots:{https://example.com}
//
// and the lease under the same key followed by ":lease". The braces make the
// two keys a Redis Cluster hash tag, so that they live on one node and can
// change in one script. Values expire once the cache no longer needs them
// (Options.StoreKeep past their expiry); leases after Options.LeaseTTL.
// Values are binary, versioned, and bound to their origin and the
// crawler's product token: caches of an incompatible version, or of another
// crawler, refuse them and replace them, so give fleets of different
// versions or crawlers different prefixes. No call reads a value longer
// than fetch.MaxStoreValue: a script checks its length (STRLEN) first, and
// the cache refuses it and replaces it.
//
// The client should be created with ContextTimeoutEnabled, so that a call
// that the cache gives up on (after Options.StoreTimeout) also ends in the
// client instead of holding a connection until the client's ReadTimeout.
package redisstore

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/robotstxt-go/robotstxt/fetch"
)

// Store is a [fetch.Store] in Redis. It is safe for concurrent use.
type Store struct {
	client redis.UniversalClient
	prefix string
}

var _ fetch.Store = (*Store)(nil)

// New returns a Store that keeps its keys in client, each starting with
// prefix. The client may be a plain, failover or cluster client.
func New(client redis.UniversalClient, prefix string) *Store {
	return &Store{client: client, prefix: prefix}
}

// Key returns the key of origin's value. The lease's key is Key(origin)
// followed by ":lease".
func (s *Store) Key(origin string) string {
	return s.prefix + "{" + origin + "}"
}

func (s *Store) leaseKey(origin string) string {
	return s.Key(origin) + ":lease"
}

// loadScript returns the value under KEYS[1]: nil when there is none, an
// empty string when the key holds another type than a string (someone
// else's value, which the cache refuses and replaces), and its length
// instead of it when it is longer than ARGV[1] bytes, so that a huge value
// is never transferred.
var loadScript = redis.NewScript(`
local t = redis.call('TYPE', KEYS[1]).ok
if t == 'none' then return false end
if t ~= 'string' then return '' end
local n = redis.call('STRLEN', KEYS[1])
if n > tonumber(ARGV[1]) then return n end
return redis.call('GET', KEYS[1])
`)

// Load implements [fetch.Store] with a script that reads a value only if it
// is at most fetch.MaxStoreValue bytes long, and returns
// fetch.ErrValueTooLarge otherwise. A key holding another type than a
// string is someone else's value: Load returns it as an empty value, which
// the cache refuses and replaces.
func (s *Store) Load(ctx context.Context, origin string) ([]byte, error) {
	r, err := loadScript.Run(ctx, s.client, []string{s.Key(origin)}, fetch.MaxStoreValue).Result()
	switch {
	case errors.Is(err, redis.Nil):
		return nil, nil
	case err != nil:
		return nil, err
	}
	return value(r)
}

// value turns a script's reply about a value into a fetch.Store value.
func value(r any) ([]byte, error) {
	switch r := r.(type) {
	case string:
		if r == "" {
			return []byte{}, nil // an empty value is a value, if not a valid one
		}
		return []byte(r), nil
	case int64:
		return nil, fetch.ErrValueTooLarge
	}
	return nil, fmt.Errorf("redisstore: unexpected reply %T", r)
}

// leaseScript takes the lease KEYS[2] for ARGV[2] ms under the token
// ARGV[1] when no one holds it, renews it when the token holds it, and
// returns its holder, its PTTL, and what loadScript would return for the
// value KEYS[1] (at most ARGV[3] bytes), flagged 0 for none, 1 for a
// value and 2 for a length.
var leaseScript = redis.NewScript(`
local holder = redis.call('GET', KEYS[2])
if not holder or holder == ARGV[1] then
	redis.call('SET', KEYS[2], ARGV[1], 'PX', ARGV[2])
	holder = ARGV[1]
end
local left = redis.call('PTTL', KEYS[2])
local t = redis.call('TYPE', KEYS[1]).ok
if t == 'none' then return {holder, left, 0} end
if t ~= 'string' then return {holder, left, 1, ''} end
local n = redis.call('STRLEN', KEYS[1])
if n > tonumber(ARGV[3]) then return {holder, left, 2, n} end
return {holder, left, 1, redis.call('GET', KEYS[1])}
`)

// Lease implements [fetch.Store] with a script that takes or renews the
// lease and reads the value, as Load does, at once.
func (s *Store) Lease(ctx context.Context, origin, token string, ttl time.Duration) (fetch.Lease, error) {
	keys := []string{s.Key(origin), s.leaseKey(origin)}
	r, err := leaseScript.Run(ctx, s.client, keys, token, millis(ttl), fetch.MaxStoreValue).Slice()
	if err != nil {
		return fetch.Lease{}, err
	}
	holder, _ := r[0].(string)
	left, _ := r[1].(int64)
	kind, _ := r[2].(int64)
	l := fetch.Lease{Holder: holder, Left: time.Duration(left) * time.Millisecond}
	if kind != 0 && len(r) == 4 {
		l.Value, err = value(r[3])
		if errors.Is(err, fetch.ErrValueTooLarge) {
			l.TooLarge, err = true, nil
		}
	}
	return l, err
}

// saveScript writes a value and drops the lease if the saver holds it.
var saveScript = redis.NewScript(`
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
if ARGV[3] ~= '' and redis.call('GET', KEYS[2]) == ARGV[3] then
	redis.call('DEL', KEYS[2])
end
return 1
`)

// releaseScript drops the lease if the caller holds it.
var releaseScript = redis.NewScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then
	return redis.call('DEL', KEYS[1])
end
return 0
`)

// Save implements [fetch.Store] with a script that sets the value and drops
// the lease at once.
func (s *Store) Save(ctx context.Context, origin, token string, value []byte, ttl time.Duration) error {
	keys := []string{s.Key(origin), s.leaseKey(origin)}
	return saveScript.Run(ctx, s.client, keys, value, millis(ttl), token).Err()
}

// Release implements [fetch.Store].
func (s *Store) Release(ctx context.Context, origin, token string) error {
	return releaseScript.Run(ctx, s.client, []string{s.leaseKey(origin)}, token).Err()
}

// Delete implements [fetch.Store].
func (s *Store) Delete(ctx context.Context, origin string) error {
	return s.client.Del(ctx, s.Key(origin)).Err()
}

// millis returns d in whole milliseconds, at least 1, as Redis's PX wants.
func millis(d time.Duration) string {
	return strconv.FormatInt(max(d.Milliseconds(), 1), 10)
}
