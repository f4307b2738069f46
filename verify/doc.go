// Package verify answers "is this request really from the crawler it
// claims to be?" for a site, and lets a crawler prove who it is.
//
// A [Verifier] reads the crawler a request names (its User-Agent's product
// token, as robotstxt.ProductToken finds it, looked up in package
// crawlers) and tries the methods the crawler's operator documents, as the
// table of package crawlers lists them with their sources:
//
//   - IP ranges: the operator's published prefix files (JSON with
//     "creationTime" and "prefixes", as draft-illyes-webbotauth-jafar
//     codifies), fetched through the caller's *http.Client, cached, asked
//     for again at most every [FeedRefresh] with If-None-Match and
//     If-Modified-Since, bounded in size and time, or loaded from files
//     ([Verifier.LoadRanges], [Verifier.LoadSnapshot]) for offline use.
//   - Web Bot Auth: an HTTP Message Signature (RFC 9421) tagged
//     "web-bot-auth", made with an Ed25519 key of the key directory at the
//     operator's documented Signature-Agent origin.
//   - Forward-confirmed reverse DNS: a PTR name of the address under a
//     documented domain whose A or AAAA records hold the address, looked
//     up through the caller's *net.Resolver, cached for fixed times
//     ([DNSAnswerTTL], [DNSFailureTTL]), at most [MaxPTRNames] names.
//
// A Web Bot Auth signature counts when its Signature-Input member has
// tag="web-bot-auth", alg "ed25519" or none, a created time not later than
// now plus [ClockSkew], an expires time after now, and a keyid that is the
// RFC 7638 thumbprint ([KeyID]) of an Ed25519 key of the directory at the
// operator's origin ([DirectoryPath], served with [DirectoryMediaType],
// no redirect followed); when the request has a Signature-Agent naming
// the operator's origin ([ParseSignatureAgent]) and the signature covers
// it (signature-agent) and @authority (or @target-uri); and when the signature
// over the base of RFC 9421 §2.5 verifies. A signature failing any of these
// is no match; a directory that cannot be read (unreachable, not 200, a
// redirect, another media type, no usable key) leaves the method
// unchecked. At most [MaxSignatures] signatures of a request are checked,
// in fields of at most [MaxSignatureFieldBytes].
//
// The [Verdict] is Verified when one method matched; Forged when every
// method could be checked and none matched; Unknown when none matched and
// one could not be checked (a file unavailable, a DNS timeout), which is
// never reported as Forged; Unverifiable when the operator documents no
// method; Unclaimed when the request names no crawler of the table.
//
// [Middleware] attaches the verdict to each request's context and can
// refuse forged claims.
//
// The crawler's side: [NewSigner] wraps an http.RoundTripper to sign every
// request; [DirectoryHandler] serves the crawler's key directory and
// [RangesHandler] its prefix file.
package verify
