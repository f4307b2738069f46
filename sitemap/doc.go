// Package sitemap reads sitemaps (https://www.sitemaps.org/protocol.html) as
// a stream, with the limits of the protocol enforced, so that a crawler can
// follow the sitemaps of a site it does not trust.
//
// A sitemap lists the pages of a site, each with optional hints:
//
//	<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
//	  <url>
//	    <loc>https://example.com/catalog/a?x=1&amp;y=2</loc>
//	    <lastmod>2026-11-01</lastmod>
//	    <changefreq>weekly</changefreq>
//	    <priority>0.8</priority>
//	  </url>
//	</urlset>
//
// gives one [Entry] with Loc "https://example.com/catalog/a?x=1&y=2". A
// sitemap index (<sitemapindex>) lists sitemaps instead of pages, and a
// site may also give a plain text file of one URL per line, an RSS 2.0
// feed (the <link> of each <item>) or an Atom 1.0 feed (the <link href>
// of each <entry>). Any of them may be gzip-compressed: the gzip magic
// bytes are what count, not the name. The image, video, news and hreflang
// (xhtml:link) extensions are skipped without error.
//
// [NewReader] reads one file; [Reader.All] yields its entries as they are
// read, so that no more than one entry and a 64 KiB buffer is held at a
// time, whatever the size of the file:
//
//	r := sitemap.NewReader(resp.Body, &sitemap.Options{URL: sitemapURL})
//	for e, err := range r.All() {
//		if err != nil {
//			return err // reading failed: the network, a closed body
//		}
//		queue(e.Loc)
//	}
//	for _, f := range r.Findings() {
//		log.Print(f)
//	}
//
// A sitemap is UTF-8 (sitemaps.org). A file is always read as UTF-8,
// whatever it declares: an XML declaration's encoding or a Content-Type's
// charset that names another is an Encoding finding, an entry whose URL is
// ASCII (as a %-escaped URL is) is kept, and one whose bytes are not UTF-8
// is dropped with an Encoding finding. So a file labelled ISO-8859-1 but
// written in UTF-8 or ASCII loses nothing, and a Latin-1 "é" is reported,
// not guessed at.
//
// What is wrong with a file is a [Finding], never a panic or an error: a
// byte-order mark, a Content-Type that does not fit, an HTML page where a
// sitemap should be, a malformed line or element, an entry outside the
// sitemap's scope. The limits of the protocol are enforced, not only
// declared: at most [MaxURLs] entries and [MaxBytes] bytes once
// decompressed (so that a gzip bomb costs at most 50 MB of reading); past a
// limit the reader stops the file with a finding and keeps the entries
// read before it. A DOCTYPE is skipped and the entities it declares are
// never expanded.
//
// Who may list what (sitemaps.org, "Sitemap file location"): a sitemap may
// list only URLs in the directory it is in, on its own host, scheme and
// port. [InScope] is that rule; a crawler that knows more, such as that a
// host's robots.txt names the sitemap (cross-submission), passes its own
// [Options].Allow. Entries outside are reported and dropped.
//
// [Walk] follows the sitemaps of a site: it fetches them through the
// crawler's robots.txt-checking [fetch.Transport], under its identity and
// at its pace, follows an index one level down, caps the sitemaps and
// redirects, and can give each entry the crawler's decision from its
// [fetch.Cache]. The reader itself does no I/O.
package sitemap
