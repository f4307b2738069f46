// Package audit answers robots.txt questions in bulk: many captured
// robots.txt files, from web archives or plain files, times many crawlers
// times a few paths or a list of URLs, with the answers of package robotstxt.
//
// # Inputs
//
// An input is one shard of work (a machine of a fleet can take one each):
//
//   - a WARC file (.warc, .warc.gz), whose response records are robots.txt
//     captures: the WARC-Target-URI, the HTTP status, the Location header
//     and the body;
//   - a JSON Lines file (.jsonl, .ndjson, optionally .gz), one capture a line:
//     {"url": "https://example.com/robots.txt", "status": 200, "body": "..."}
//     with an optional "location" for a redirect and "date"; a missing
//     status is 200;
//   - a directory of files, each the body of one robots.txt fetched with
//     status 200: the file "example.com.txt" (or "example.com") is
//     https://example.com/robots.txt. Files are read in name order.
//
// Captures whose URL is not a robots.txt URL (path "/robots.txt", no query)
// are not answered; they can still be the target of a redirect.
//
// # Status codes and redirects (RFC 9309 §2.3.1)
//
// A capture's rules come from [robotstxt.FromStatus]: 2xx parses the body,
// 4xx (but 429) allows everything, 429, 5xx and anything else disallows
// everything. A 3xx is followed to its Location when that URL was captured
// in the same input: up to five hops, each hop's capture read the same way.
// Following stays within one input so that an input stays a shard that
// needs no other. When a redirect is followed:
//
//   - the target is captured: the target's rules answer for the origin that
//     redirected (rules = the target's), and final_url, final_status and
//     hops say where the chain ended;
//   - the target was not captured in the input: nothing is known of the
//     rules. The row says rules "unknown", label "unknown", and its
//     verdicts, crawl-delay and lint are empty (null in JSON and Parquet).
//     It is not counted as a problem: archives often hold the redirect but
//     not its target;
//   - more than five hops, or a loop: RFC 9309 lets the crawler assume the
//     file is unavailable, and Google treats it as a 404, so everything is
//     allowed (rules "allow-all", final_status the last 3xx);
//   - a 3xx without a usable Location is unreachable (disallow-all), as
//     FromStatus reads any 3xx that is left.
//
// # One answer per origin
//
// By default each origin is answered once for all the inputs of a run, by
// its latest capture (WARC-Date, or the JSON line's "date"; captures with
// the same date or none count as read, the later winning): a first pass
// reads the inputs for the captures' dates, and the rows carry the number
// of captures of the origin (captures) and the place of the one that
// answered (offset and in_member: see [Row.InMember]). With Config.AllCaptures every capture of a robots.txt URL is
// answered in its own rows. Either way, a redirect goes to the first
// capture of its target in the input.
//
// # Changes between crawls
//
// With Config.Before, an earlier crawl, Run answers both crawls (one answer
// per origin in each) and writes a [Change] for each origin × agent
// answered in both whose label, or a path's verdict or deciding line,
// differs.
//
// # Questions and answers
//
// The agents are a list of crawlers: by default the table of package
// github.com/robotstxt-go/robotstxt/crawlers (its token, operator, purpose
// and source), or a file with one crawler a line. A line may name several
// tokens (a crawler that obeys all of them), asked with
// [robotstxt.Robots.GroupFor]; bundled sets are named by [AgentSet]. A
// crawler of the table is answered as its operator documents it, through
// crawlers.Crawler.Group: Googlebot-Image and Applebot obey Googlebot's group
// when no group names them, AdsBot-Google ignores the "*" group. The row's
// Documented says when that differs from the core's answer for the token.
//
// A path or URL is asked as recorded: bytes from 0x80 and spaces are
// %-encoded and escapes upper-cased, nothing else changes (a '|' stays).
//
// The questions are either a few paths per origin (default "/"), answered
// per capture × agent in one row (for each path: the verdict, the deciding
// line and rule, and the Content-Usage and Content-Signal preferences that
// robotstxt.Robots.Usage reports as stated), or a list of URLs, each joined to its
// origin's robots.txt with [robotstxt.RobotsURL] and answered per URL ×
// agent.
//
// # The AI table
//
// With Config.AI, Run writes the AI table instead of the agents' answers:
// for each answered capture × path (or each URL of the URL list), package
// github.com/robotstxt-go/robotstxt/aiuse's matrix for the capture's rules
// and the path or URL as recorded (aiuse.Site.Matrix): whether each AI
// operator may use the page for each use. The capture part of a row is an
// [AIPath] (or an [AIURL]); then, for each operator × use the crawler table
// documents (crawlers.AllGoverns, in its order), a column named by
// [AIColumn] holds the verdict ("allowed", "not allowed", "not stated",
// "not crawlable"; null when the rules are unknown) and the column of
// that name followed by "_line" the robots.txt line of the deciding signal
// (0 for none). The matrix depends on no agent: the table has one row per
// capture × path, and Agents and NoLint are not used. The captures of an
// input are answered in one goroutine as they are read (Workers still
// read a .gz WARC side by side), in record order.
//
// # The label
//
// Each capture × agent row has a label computed from the core's answers
// for the group that decides for the agent as documented, with these witnesses: the witnesses of a rule are
// its pattern with every '*' and a final '$' removed (an empty result is
// "/"), and that string followed by "~".
//
//   - "full": "/" and "/~" are disallowed, and no witness of any Allow rule
//     of the group is allowed: the crawler may fetch nothing the file opens.
//   - "none": "/" is allowed, and no witness of any Disallow rule of the
//     group is disallowed: no rule of the file keeps the crawler out.
//   - "partial": anything else.
//   - "unknown": the rules are unknown (a redirect whose target was not
//     captured).
//
// A file that disallows everything (5xx) is "full"; one that allows
// everything (4xx, an empty file, a file that names no rule for the agent)
// is "none". The witnesses make the label a finite, reproducible function of
// Decide: a rule that only other rules' patterns can undo in between its
// witnesses can be misread, which robots.txt files in the wild rarely do.
//
// # Determinism, workers and memory
//
// Inputs are read one after another, in the order of their names. A
// worker is a core's worth of work (Config.Workers, one per core by
// default): one worker reads an input, parses, lints and answers its
// captures and writes the rows, all in one goroutine. Several workers read
// a .gz WARC side by side: the file is cut, about every 128 KiB, where a
// gzip member seems to start, each worker decompresses the members that
// start in its segment and reads their records, and the segments are taken
// back in order; a cut that fell inside a member (on bytes that only look
// like a member's start) is found there, and those members are read again
// in order. The workers then parse, lint and answer batches of captures in
// parallel. A plain .warc, JSON Lines and a directory are read by one
// goroutine. The rows are written in record order (the captures in record
// order, then the captures that redirect, in record order) to a part of
// the input's own, and the parts are joined in input order: the same
// inputs give the same bytes whatever the number of workers.
//
// Memory does not grow with the size of an input: at most four batches of
// captures a worker are in flight (16 captures or 1 MiB of bodies a batch;
// each body is read up to 500 KiB (fetch.MaxBodySize), as Google's crawler
// does; the rest is not kept), at most two segments a worker are read
// ahead (a worker stops a segment once its captures hold 1 MiB of bodies,
// and the rest of it is read in order), and a Parquet part buffers at
// most one row group. What grows with the input is the redirect table:
// the URL and Location of each 3xx capture (about two URLs), and, while
// redirect targets are looked up, parsed targets up to a budget of 64 MiB
// per worker (a larger set takes more passes over the input). With a URL
// list, the parsed files of the origins named by one chunk of the list are
// held (ChunkURLs, default 100,000 URLs a chunk). One answer per origin
// holds an entry an origin; a change table holds the earlier crawl's
// answers (origins × agents × paths).
//
// # Bad input
//
// A truncated or corrupt gzip member, a record whose Content-Length does
// not match its content, a response that is not HTTP or whose status is
// not 100 to 599, an unusable URL (not absolute http(s), or a host that
// robotstxt.Origin rejects), a JSON line that does not parse or whose
// status or date is not one, and a WARC without response records are each
// reported as a [Problem] with the input and byte offset, and skipped;
// the run goes on, from the next record or gzip member: a broken one
// costs only itself. A body that is no robots.txt (an HTML page or other
// markup, binary data or UTF-16 text, as lint.NotRobots tells it) and a
// body longer than 500 KiB are answered (as Google's parser reads them)
// and reported as notes. An input
// of 0 bytes is reported as ProblemZero, which skips nothing.
//
// # Which crawlers ignored my robots.txt
//
// [RunLogs] (the command's "robotsaudit logs") replays a site's access logs
// against its robots.txt history ([ReadRobotsHistory]: a manifest of
// time, status and file; captures in a WARC or JSON Lines file; or one
// file live all along) and judges each GET or HEAD of a known crawler
// (its token read by robotstxt.ProductToken, looked up in the agents,
// answered by the group its operator documents) with the target as
// logged. RFC 9309 §2.4 lets a crawler keep a robots.txt up to 24 hours:
// the versions in force at t are the one live at t−24h and every one that
// went live in (t−24h, t]. A request is a violation when all of them
// disallow it, grace when the one live at t does and another allows it,
// and allowed otherwise; requests before the first version, a crawler's
// other methods and its robots.txt fetches are counted, not judged; other
// clients are counted. A row also says whether the crawler fetched
// robots.txt in the 24 hours before (Google's crawlers share one fetch)
// and whether it came sooner than its Crawl-delay after its previous
// judged request. An [Identifier] splits forged crawlers apart;
// [VerifierIdentifier] makes package verify's Verifier one, so that the
// replay judges a claim as verify does (forged only when every method the
// operator documents was checked).
//
// Logs are Combined Log Format or JSON Lines ([LogPresets] for nginx,
// Caddy and Cloudflare), plain or gzipped, read in the order given; a line
// that does not parse is reported with its file and line. The rows are
// written as CSV, JSON Lines or Parquet; [WriteLogSummary] writes the
// per-crawler summary, [WriteLogReport] a self-contained HTML report and
// [WriteLogTable] a table for a terminal ([EscapeTerminal] on any text of
// the log). Memory is per crawler and per version, not per line; workers
// parse and judge blocks of lines side by side and the results are taken
// back in order, so the output does not depend on their number.
package audit
