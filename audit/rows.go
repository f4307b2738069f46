package audit

// Row is the answer for one capture × agent, with one verdict per path.
// The field tags name the columns of every output format.
type Row struct {
	Input  string `parquet:"input" json:"input"`
	Offset int64  `parquet:"offset" json:"offset"`
	// InMember is, for a record of a gzipped WARC, where it starts in its
	// gzip member's decompressed bytes: 0 for a WARC gzipped one member a
	// record (Offset is then the record's member), more for a later
	// record of a member that holds several (a file gzipped as one
	// stream). 0 for other inputs.
	InMember int64  `parquet:"in_member" json:"in_member"`
	URL      string `parquet:"url" json:"url"`
	Origin   string `parquet:"origin" json:"origin"`
	Date     string `parquet:"date" json:"date"`
	// Captures is how many captures of the origin's robots.txt the inputs
	// hold when each origin is answered once (by this, the latest); null
	// when every capture is answered (-all-captures).
	Captures    *int32 `parquet:"captures,optional" json:"captures"`
	Status      int32  `parquet:"status" json:"status"`
	FinalURL    string `parquet:"final_url" json:"final_url"`
	FinalStatus int32  `parquet:"final_status" json:"final_status"`
	Hops        int32  `parquet:"hops" json:"hops"`
	Rules       string `parquet:"rules" json:"rules"`

	Agent    string `parquet:"agent" json:"agent"`
	Operator string `parquet:"operator" json:"operator"`
	Purpose  string `parquet:"purpose" json:"purpose"`
	OwnGroup bool   `parquet:"own_group" json:"own_group"`
	// Documented is "" when the crawler is answered with the group the
	// core selects for its token, else how its operator's documentation
	// changes that: "obeys Googlebot" (Googlebot-Image, Applebot without a
	// group of their own), "ignores *" (AdsBot-Google).
	Documented string `parquet:"documented" json:"documented"`

	Label      string    `parquet:"label" json:"label"`
	CrawlDelay *float64  `parquet:"crawl_delay,optional" json:"crawl_delay"`
	Verdicts   []Verdict `parquet:"verdicts,list" json:"verdicts"`

	LintErrors   *int32 `parquet:"lint_errors,optional" json:"lint_errors"`
	LintWarnings *int32 `parquet:"lint_warnings,optional" json:"lint_warnings"`
	Lint         []Lint `parquet:"lint,list" json:"lint"`
}

// Verdict answers one path for a row.
type Verdict struct {
	Path    string `parquet:"path" json:"path"`
	Allowed *bool  `parquet:"allowed,optional" json:"allowed"` // null when the rules are unknown
	Line    int32  `parquet:"line" json:"line"`                // the deciding line, 0 for none
	Rule    string `parquet:"rule" json:"rule"`                // the deciding rule as written
	// ContentUsage and ContentSignal are the usage preferences the file
	// states for the path (Robots.Usage), each "name=value" of a stated
	// preference, comma-separated in the core's order ("train-ai=n,
	// search=y"); "" when none is stated or the path may not be fetched.
	ContentUsage  string `parquet:"content_usage" json:"content_usage"`
	ContentSignal string `parquet:"content_signal" json:"content_signal"`
}

// Lint counts the findings of lint.Diagnose of one kind.
type Lint struct {
	Kind     string `parquet:"kind" json:"kind"` // the finding's cause, as its error text
	Severity string `parquet:"severity" json:"severity"`
	Count    int32  `parquet:"count" json:"count"`
}

// URLRow answers one URL of a URL list for one agent.
type URLRow struct {
	URL       string `parquet:"url" json:"url"`
	RobotsURL string `parquet:"robots_url" json:"robots_url"`
	Input     string `parquet:"input" json:"input"`
	Offset    int64  `parquet:"offset" json:"offset"`
	InMember  int64  `parquet:"in_member" json:"in_member"`        // as in Row
	Captures  *int32 `parquet:"captures,optional" json:"captures"` // as in Row
	Status    int32  `parquet:"status" json:"status"`
	Rules     string `parquet:"rules" json:"rules"`
	Agent     string `parquet:"agent" json:"agent"`
	Allowed   *bool  `parquet:"allowed,optional" json:"allowed"`
	Line      int32  `parquet:"line" json:"line"`
	Rule      string `parquet:"rule" json:"rule"`
	// ContentUsage and ContentSignal are as in Verdict; Documented as in
	// Row.
	ContentUsage  string `parquet:"content_usage" json:"content_usage"`
	ContentSignal string `parquet:"content_signal" json:"content_signal"`
	Documented    string `parquet:"documented" json:"documented"`
}
