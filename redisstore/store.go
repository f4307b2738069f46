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
// holds nothing fresh, one process takes the origin's lease (SET NX PX),
// fetches and saves, and the others wait for its value. If Redis is down or
// slow, every question is still answered: the cache fetches by itself (see
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
// Values are binary and versioned: caches of an incompatible version treat
// them as foreign and replace them, so give fleets of different versions
// different prefixes.
//
// The client should be created with ContextTimeoutEnabled, so that a call
// that the cache gives up on (after Options.StoreTimeout) also ends in the
// client instead of holding a connection until the client's ReadTimeout.
package redisstore

import (
	"context"
	"errors"
	"strconv"
	"strings"
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

// Load implements [fetch.Store]. A key holding another type than a string
// is someone else's value: Load returns it as an empty value, which the
// cache ignores and replaces.
func (s *Store) Load(ctx context.Context, origin string) ([]byte, error) {
	v, err := s.client.Get(ctx, s.Key(origin)).Bytes()
	return value(v, err)
}

// value turns the reply to a GET into a fetch.Store value.
func value(v []byte, err error) ([]byte, error) {
	switch {
	case errors.Is(err, redis.Nil):
		return nil, nil
	case wrongType(err):
		return []byte{}, nil
	case err != nil:
		return nil, err
	case v == nil:
		return []byte{}, nil // an empty string is a value, if not a valid one
	}
	return v, nil
}

func wrongType(err error) bool {
	var re redis.Error
	return errors.As(err, &re) && strings.HasPrefix(re.Error(), "WRONGTYPE")
}

// Lease implements [fetch.Store] with SET NX PX and GET in one MULTI/EXEC
// transaction.
func (s *Store) Lease(ctx context.Context, origin, token string, ttl time.Duration) ([]byte, bool, error) {
	var set *redis.Cmd
	var get *redis.StringCmd
	_, err := s.client.TxPipelined(ctx, func(p redis.Pipeliner) error {
		set = p.Do(ctx, "SET", s.leaseKey(origin), token, "NX", "PX", millis(ttl))
		get = p.Get(ctx, s.Key(origin))
		return nil
	})
	// EXEC reports the first failed command; a missing value or a lease
	// not taken is not a failure.
	if err != nil && !errors.Is(err, redis.Nil) && !wrongType(err) {
		return nil, false, err
	}
	taken := set.Err() == nil
	if err := set.Err(); err != nil && !errors.Is(err, redis.Nil) {
		return nil, false, err
	}
	v, err := value(get.Bytes())
	return v, taken, err
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
