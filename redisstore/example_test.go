package redisstore_test

import (
	"context"
	"log"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/redis/go-redis/v9/logging"

	"github.com/robotstxt-go/robotstxt/fetch"
	"github.com/robotstxt-go/robotstxt/redisstore"
)

// Every process of a crawler fleet builds its cache on the same Redis and
// prefix; together they fetch each robots.txt once.
func Example() {
	rdb := redis.NewClient(&redis.Options{
		Addr:                  "localhost:6379",
		ContextTimeoutEnabled: true, // give up on slow calls in the client too
	})
	defer rdb.Close()

	cache := fetch.NewCache(&fetch.Options{
		UserAgent: "Foobot/1.0 (+https://foo.example/bot)",
		Store:     redisstore.New(rdb, "crawl:robots:"),
		OnFetch: func(ev fetch.FetchEvent) {
			if ev.StoreErr != nil {
				log.Printf("robots.txt of %s: %v", ev.Origin, ev.StoreErr)
			}
		},
	})

	ok, err := cache.Allowed(context.Background(), "https://example.com/some/page")
	if err != nil {
		log.Fatal(err)
	}
	log.Println("allowed:", ok)

	// Before exiting, let the saves under way reach Redis.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	cache.Flush(ctx)
}

// During a Redis outage go-redis logs every failed dial of its pool; the
// cache reports the failures itself (FetchEvent.StoreErr, Stats), so a
// crawler may drop those lines.
func Example_quietLogs() {
	redis.SetLogger(logging.NewBlacklistLogger([]string{"connection pool: failed to dial"}))
	// Or drop every line of go-redis:
	logging.Disable()
}
