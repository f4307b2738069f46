package main

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/robotstxt-go/robotstxt/lint"
)

// topKeys returns the keys of the JSON object data, in order.
func topKeys(t *testing.T, data []byte) []string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("not a JSON object: %v %v", tok, err)
	}
	var keys []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, tok.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	return keys
}

// isSubsequence reports whether every key of sub is in keys, in the same
// order.
func isSubsequence(sub, keys []string) bool {
	i := 0
	for _, k := range keys {
		if i < len(sub) && sub[i] == k {
			i++
		}
	}
	return i == len(sub)
}

// TestLintJSONOneShape: lint -json and /api/lint write one shape, lintJSON:
// the keys each writes are lintJSON's, in its order, and /api/lint
// decodes into it with no field left over.
func TestLintJSONOneShape(t *testing.T) {
	var names []string
	ty := reflect.TypeFor[lintJSON]()
	for i := range ty.NumField() {
		names = append(names, strings.Split(ty.Field(i).Tag.Get("json"), ",")[0])
	}
	body := "User-agent: *\nNoindex: /a\nDisallow /b\n"

	var cli bytes.Buffer
	if err := writeLintJSON(&cli, "robots.txt", lint.Diagnose([]byte(body)), true); err != nil {
		t.Fatal(err)
	}
	if keys := topKeys(t, cli.Bytes()); !isSubsequence(keys, names) {
		t.Errorf("lint -json keys %q are not lintJSON's %q in order", keys, names)
	}

	srv, _ := tester(t, false)
	resp, err := srv.Client().Post(srv.URL+"/api/lint", "text/plain", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var api bytes.Buffer
	api.ReadFrom(resp.Body)
	if keys := topKeys(t, api.Bytes()); !isSubsequence(keys, names) {
		t.Errorf("/api/lint keys %q are not lintJSON's %q in order", keys, names)
	}
	dec := json.NewDecoder(&api)
	dec.DisallowUnknownFields()
	var j lintJSON
	if err := dec.Decode(&j); err != nil || len(j.Kinds) == 0 || len(j.Text) != 3 {
		t.Errorf("/api/lint as lintJSON: %v, %+v", err, j)
	}
}
