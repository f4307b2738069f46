package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// file is one robots.txt of the corpus and the questions asked about it.
type file struct {
	name      string // relative to the corpus folder, e.g. "real/example.com.txt"
	data      []byte
	questions []question // from corpus.tsv, with the reference's answers
	derived   []question // made from the file's rules when corpus.tsv has none (derive.go)
	crawled   []question // the site's crawled URLs from corpus/urls, asked as Googlebot
}

// extra returns the questions whose answers are not known: the derived
// ones, then the crawled URLs.
func (f *file) extra() []question {
	return append(slices.Clip(f.derived), f.crawled...)
}

// probes returns all the questions about f: corpus.tsv's, then extra.
func (f *file) probes() []question {
	return append(slices.Clip(f.questions), f.extra()...)
}

// corpus is what the report measures: the real files (every n-th of all),
// and the synthetic ones, each with its questions.
type corpus struct {
	all   []*file // every real file
	real  []*file // the real files measured
	synth []*file
}

// loadCorpus reads shared/corpus and the questions of
// shared/conformance/corpus.tsv about the files it keeps, plus the .urls
// lists of the synthetic files; with crawled, the lists of corpus/urls for
// the real files, and with derived, questions made from the rules of the
// real files that corpus.tsv has none for.
func loadCorpus(shared string, every int, crawled, derived bool) (*corpus, error) {
	dir := filepath.Join(shared, "corpus")
	all, err := readDir(dir, "real")
	if err != nil {
		return nil, err
	}
	c := &corpus{all: all}
	for i, f := range all {
		if i%every == 0 {
			c.real = append(c.real, f)
		}
	}
	if c.synth, err = readDir(dir, "synthetic"); err != nil {
		return nil, err
	}
	files := append(slices.Clip(c.real), c.synth...)
	if err := addQuestions(filepath.Join(shared, "conformance", "corpus.tsv"), files); err != nil {
		return nil, err
	}
	if err := addURLLists(dir, c.synth); err != nil {
		return nil, err
	}
	if crawled {
		if err := addCrawledURLs(dir, c.real); err != nil {
			return nil, err
		}
	}
	if derived {
		addDerived(c.real)
	}
	return c, nil
}

// readDir reads the .txt files of corpus/<dir>, sorted by name.
func readDir(corpus, dir string) ([]*file, error) {
	entries, err := os.ReadDir(filepath.Join(corpus, dir))
	if err != nil {
		return nil, err
	}
	var files []*file
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".txt") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(corpus, dir, e.Name()))
		if err != nil {
			return nil, err
		}
		files = append(files, &file{name: dir + "/" + e.Name(), data: data})
	}
	sort.Slice(files, func(i, j int) bool { return files[i].name < files[j].name })
	return files, nil
}

// addQuestions reads the conformance questions of corpus.tsv (columns file,
// agent, url, allowed, line) and attaches them to the files they are about.
func addQuestions(tsv string, files []*file) error {
	byName := map[string]*file{}
	for _, f := range files {
		byName[f.name] = f
	}
	fh, err := os.Open(tsv)
	if err != nil {
		return err
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	col := map[string]int{}
	for n := 1; sc.Scan(); n++ {
		fields := strings.Split(sc.Text(), "\t")
		if n == 1 {
			for i, h := range fields {
				col[h] = i
			}
			for _, h := range []string{"file", "agent", "url", "allowed"} {
				if _, ok := col[h]; !ok {
					return fmt.Errorf("%s: no %q column", tsv, h)
				}
			}
			continue
		}
		if len(fields) != len(col) {
			return fmt.Errorf("%s:%d: %d fields, want %d", tsv, n, len(fields), len(col))
		}
		name, err := unescape(fields[col["file"]])
		if err != nil {
			return fmt.Errorf("%s:%d: %v", tsv, n, err)
		}
		f := byName[name]
		if f == nil {
			continue
		}
		agent, err := unescape(fields[col["agent"]])
		if err != nil {
			return fmt.Errorf("%s:%d: %v", tsv, n, err)
		}
		u, err := unescape(fields[col["url"]])
		if err != nil {
			return fmt.Errorf("%s:%d: %v", tsv, n, err)
		}
		f.questions = append(f.questions, newQuestion(agent, u, fields[col["allowed"]] == "1"))
	}
	return sc.Err()
}

// unescape undoes the byte escaping of the conformance files: \\ \t \n \r
// \0 and \xHH.
func unescape(s string) (string, error) {
	if !strings.Contains(s, `\`) {
		return s, nil
	}
	var out bytes.Buffer
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' {
			out.WriteByte(c)
			continue
		}
		if i+1 >= len(s) {
			return "", fmt.Errorf("trailing backslash in %q", s)
		}
		i++
		switch s[i] {
		case '\\':
			out.WriteByte('\\')
		case 't':
			out.WriteByte('\t')
		case 'n':
			out.WriteByte('\n')
		case 'r':
			out.WriteByte('\r')
		case '0':
			out.WriteByte(0)
		case 'x':
			if i+2 >= len(s) {
				return "", fmt.Errorf("short \\x escape in %q", s)
			}
			v, err := strconv.ParseUint(s[i+1:i+3], 16, 8)
			if err != nil {
				return "", fmt.Errorf("bad \\x escape in %q: %v", s, err)
			}
			out.WriteByte(byte(v))
			i += 2
		default:
			return "", fmt.Errorf("unknown escape \\%c in %q", s[i], s)
		}
	}
	return out.String(), nil
}

// addURLLists adds, for each synthetic file with a companion .urls list, one
// question per path of the list, asked by Googlebot of https://example.com.
func addURLLists(corpus string, files []*file) error {
	for _, f := range files {
		list := filepath.Join(corpus, strings.TrimSuffix(f.name, ".txt")+".urls")
		data, err := os.ReadFile(list)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			return err
		}
		for _, p := range strings.Split(strings.TrimRight(string(data), "\n"), "\n") {
			f.questions = append(f.questions, question{agent: "Googlebot", url: "https://example.com" + p})
		}
	}
	return nil
}

// addCrawledURLs adds to each real file the URLs of its list in
// corpus/urls (same file name), one question per URL, asked by Googlebot.
// Their answers are not known.
func addCrawledURLs(corpus string, files []*file) error {
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(corpus, "urls", filepath.Base(f.name)))
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			return err
		}
		for _, u := range strings.Split(string(data), "\n") {
			if u = strings.TrimSpace(u); u != "" {
				f.crawled = append(f.crawled, question{agent: "Googlebot", url: u})
			}
		}
	}
	return nil
}
