package redisstore_test

import (
	"context"
	"log"

	"github.com/redis/go-redis/v9"

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

	ok, err := cache.Allowed(context.Background(), "Foobot", "https://example.com/some/page")
	if err != nil {
		log.Fatal(err)
	}
	log.Println("allowed:", ok)
}
