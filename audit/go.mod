module github.com/robotstxt-go/robotstxt/audit

go 1.26.0

require (
	github.com/andybalholm/brotli v1.1.1 // indirect
	github.com/bits-and-blooms/bitset v1.5.0 // indirect
	github.com/google/uuid v1.6.0 // indirect
	github.com/nlnwa/whatwg-url v0.4.0 // indirect
	github.com/parquet-go/bitpack v1.0.0 // indirect
	github.com/parquet-go/jsonlite v1.0.0 // indirect
	github.com/pierrec/lz4/v4 v4.1.21 // indirect
	github.com/pkg/errors v0.9.1 // indirect
	github.com/prometheus/prometheus v0.40.3 // indirect
	github.com/twpayne/go-geom v1.6.1 // indirect
	golang.org/x/sys v0.49.0 // indirect
	golang.org/x/text v0.43.0 // indirect
	google.golang.org/protobuf v1.34.2 // indirect
)

require (
	github.com/google/go-cmp v0.7.0
	github.com/klauspost/compress v1.17.9
	github.com/nlnwa/gowarc v1.6.0
	github.com/parquet-go/parquet-go v0.32.0
	github.com/robotstxt-go/robotstxt v0.0.0-20261208031824-c960448788b8
	golang.org/x/net v0.62.0
	golang.org/x/term v0.47.0
)

