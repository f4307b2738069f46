#!/bin/bash
# bands.sh: where the instructions of a parse go, per band of file size.
#
#	bash bench/bands.sh [PASS ...]    # default: q1 lines lex
#
# Run from the repository root, with ../shared beside it and valgrind
# installed. It builds the root package's test binary and counts, with
# callgrind, one pass of BenchmarkBands (bench_test.go) over the real files
# of each band (at most 4 KiB, up to 32 KiB, larger): q1 is Parse and one
# question, lines the first question of a deferred parse, lex the lexer
# alone. The collector is off (GOGC=off) and one P runs (GOMAXPROCS=1), so
# the counts do not move with the machine's load; only the pass function is
# counted (--toggle-collect). Each pass's instructions are then summed by
# what the function does (see kinds below): the lexer (lexer.go's line scan
# with the IndexByte calls it makes), the split of the lines that are not a
# quick directive (lexer.go's split, twoTokens and the trim, or the look at a
# line's first byte that passes it over: parse.go's keepsNothing), the builder
# (keys, agents and rules as they are read), the compile (finish: the
# layout's sorts, the encode, the index's decisions), the question, and the
# runtime (allocation, memmove). A run takes under a minute.
set -eu
passes=${*:-q1 lines lex}
command -v valgrind >/dev/null || { echo "bands.sh: valgrind is not installed" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go test -c -o "$work/r.test" .
# count FILE: one callgrind run of $pass-$band into FILE.
count() {
	# callgrind now and then stops on a signal of the Go runtime: try again.
	for try in 1 2 3; do
		if GOGC=off GOMAXPROCS=1 GODEBUG=asyncpreemptoff=1 valgrind --tool=callgrind \
			--callgrind-out-file="$1" --toggle-collect="*.$fn" \
			"$work/r.test" -test.run XXX -test.bench "Bands/$pass-$band\$" -test.benchtime 1x \
			>"$work/log" 2>&1 && grep -q 'ns/op' "$work/log"; then
			return
		fi
		[ "$try" -lt 3 ] || { echo "bands.sh: callgrind failed on $pass-$band" >&2; exit 1; }
	done
}
for band in small mid large; do
	for pass in $passes; do
		case $pass in
		q1) fn=bandQ1 ;;
		lines) fn=bandLines ;;
		lex) fn=bandLex ;;
		*) echo "bands.sh: unknown pass $pass" >&2; exit 2 ;;
		esac
		out=$work/$pass-$band
		# A run can also stop counting early: callgrind turns counting on
		# for the thread that enters the pass function, and when the pass's
		# goroutine moves to another thread (as the runtime may do around a
		# system call, which valgrind makes slow), the rest goes uncounted (seen with --separate-threads=yes: 0.15M
		# of 23.4M, the other threads 0). Such a run only loses
		# instructions, so each pass runs until a run comes within 1% of
		# the largest so far, at most five times, and the largest is kept;
		# whole runs differ by about 0.4%.
		best=0
		for run in 1 2 3 4 5; do
			count "$out.$run"
			n=$(sed -n 's/^\(summary\|totals\): *//p' "$out.$run" | head -1)
			near=$(( best > 0 && (n - best) * 100 <= best && (best - n) * 100 <= best ))
			if [ "$n" -gt "$best" ]; then
				best=$n
				cp "$out.$run" "$out"
			fi
			[ "$near" = 0 ] || break
		done
		python3 - "$out" "$pass-$band" <<'PY'
import re, subprocess, sys
path, name = sys.argv[1], sys.argv[2]
def annotate(*args):
    return subprocess.run(['callgrind_annotate', '--auto=no', '--threshold=100', *args, path],
                          capture_output=True, text=True, check=True).stdout
# kinds: the first whose words one appears in the function's name.
kinds = [
    ('question', ['Allowed', 'decide', '(*Robots).', 'R.match', 'pathOf', 'pathFrom', 'pathStart',
                  'askRule', 'literal', 'TokenIs', 'CompareFold',
                  'scanPath', 'firstOrder', 'admits']),
    ('lexer', ['(*lexer).', 'lexStart', 'newLexer', 'bandLex']),
    ('split', ['R.split', 'keepsNothing', 'twoTokens', 'byteMap', 'wordMap', 'TrimSpace', 'indexSpaceTab',
               'ClassifyKey', 'IsSpace', 'byteBits', 'zeroBytes']),
    ('compile', ['finish', 'writeRules', 'encode', 'sortLayout', 'sortNames', 'nameKey', 'mergeSort',
                 'insertionSort', 'sortFew', 'indexes', 'partition', 'agentLens', 'addList',
                 'indexSitemaps', 'sortIndexed', 'orderRun', 'slices.', 'pdqsort', 'median',
                 'heapSort', 'breakPatterns', 'siftDown']),
]
runtime = ['runtime.', 'sync.', 'aeshash', 'memeqbody', 'countbody', 'indexbytebody',
           'internal/bytealg', 'internal/runtime', 'internal/stringslite']
def kind(fn):
    for k, words in kinds:
        if any(w in fn for w in words):
            return k
    if any(fn.startswith(w) for w in runtime):
        return 'runtime'
    return 'builder'
sums, total, started = {}, 0, False
for line in annotate('--inclusive=no').splitlines():
    if 'file:function' in line:
        started = True
        continue
    m = re.match(r'\s*([\d,]+)\s+\([^)]*\)\s+(\S+)', line)
    if not (started and m):
        continue
    n = int(m.group(1).replace(',', ''))
    fn = m.group(2).split(':', 1)[-1].replace('github.com/robotstxt-go/robotstxt', 'R')
    total += n
    sums[kind(fn)] = sums.get(kind(fn), 0) + n
# IndexByte (with its body) goes to the kind of its caller: the lexer's
# searches to the lexer, split's to the split.
block = []
for line in annotate('--tree=caller', '--inclusive=yes').splitlines():
    if '*  ' in line and 'IndexByte.abi0' in line:
        for b in block:
            m = re.match(r'\s*([\d,]+).*<\s+\S+?:(\S+)', b)
            if m:
                n = int(m.group(1).replace(',', ''))
                fn = m.group(2).replace('github.com/robotstxt-go/robotstxt', 'R')
                k = kind(fn)
                sums[k] = sums.get(k, 0) + n
                sums['runtime'] = sums.get('runtime', 0) - n
        break
    block = [] if not line.strip() else block + [line]
order = ['lexer', 'split', 'builder', 'compile', 'question', 'runtime']
print('%-12s %8.2fM  ' % (name, total / 1e6) +
      '  '.join('%s %.2fM (%.0f%%)' % (k, sums.get(k, 0) / 1e6, 100 * sums.get(k, 0) / total) for k in order))
PY
	done
done
