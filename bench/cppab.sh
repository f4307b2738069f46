#!/bin/bash
# cppab.sh: the time of cppspeed's Go workloads for two or more versions of
# the library, side by side in one run.
#
#	bash bench/cppab.sh [-r ROUNDS] [-m w1|w2] [-s small|full] A B [C ...]
#
# Run from the repository root, with ../shared beside it. Each of A, B, ...
# is a directory holding the library or a git revision of this repository
# (extracted with git archive). Each is built into cppspeed's Go driver
# (../shared/tools/cppspeed/godrv.go) and the drivers run in turns, ROUNDS
# times (default 15), pinned to one CPU, GOMAXPROCS=1, the collector at its
# default: the setting in which cppspeed times the library. A process times
# its passes (100 for w1 on the small files) and reports their median CPU
# time; the table gives, for each version, the median over the rounds and
# the median over the rounds of its ratio to A's time in the same round.
# CPPAB_ANCHORS=1 adds Google's parser and the fork as cppspeed last built
# them (its cache), for scale.
#
# On a machine shared with other work, rounds vary by several percent: take
# 15 rounds or more, and read the paired ratio.
set -eu
rounds=15 mode=w1 set=small
while getopts r:m:s: o; do
	case $o in
	r) rounds=$OPTARG ;;
	m) mode=$OPTARG ;;
	s) set=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 2 ] || { echo "usage: bash bench/cppab.sh [-r ROUNDS] [-m w1|w2] [-s small|full] A B [C ...]" >&2; exit 2; }
root=$(pwd)
cpp=$root/../shared/tools/cppspeed
corpus=$root/../shared/corpus/real
[ -f "$cpp/godrv.go" ] && [ -d "$corpus" ] || { echo "cppab: needs ../shared (tools/cppspeed and corpus/real) beside the repository" >&2; exit 2; }
mod=$(sed -n 's/^module //p' go.mod)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 "$cpp/gen_data.py" "$corpus" "$work/data" >/dev/null

bins=() names=()
k=0
for v in "$@"; do
	src=$v
	if [ ! -d "$v" ]; then
		src=$work/src$k
		mkdir -p "$src"
		git archive "$v" | tar -x -C "$src"
	fi
	src=$(cd "$src" && pwd)
	d=$work/drv$k
	mkdir -p "$d"
	sed "s#bar.invalid/project#$mod#" "$cpp/godrv.go" >"$d/main.go"
	printf 'module cppab\n\ngo 1.24\n\nrequire %s v0.0.0\n\nreplace %s => %s\n' "$mod" "$mod" "$src" >"$d/go.mod"
	cp "$src/go.sum" "$d/go.sum"
	(cd "$d" && GOWORK=off GOFLAGS=-mod=mod go build -trimpath -o drv .)
	bins+=("$d/drv") names+=("$v")
	k=$((k + 1))
done
if [ "${CPPAB_ANCHORS:-}" = 1 ]; then
	cache=${XDG_CACHE_HOME:-$HOME/.cache}/robotstxt-cppspeed
	for a in google-O3 nzrsky-O3; do
		b=$(ls -t "$cache"/$a-* 2>/dev/null | head -1)
		[ -n "$b" ] && bins+=("$b") names+=("$a")
	done
fi

case $set/$mode in
small/w1) p=100 q=100 ;;
small/w2) p=50 q=10 ;;
full/w1) p=5 q=5 ;;
full/w2) p=5 q=3 ;;
*) echo "cppab: -m w1|w2, -s small|full" >&2; exit 2 ;;
esac
cpu=$(awk '/^Cpus_allowed_list/ { n = split($2, a, /[-,]/); print a[n] }' /proc/self/status)
for r in $(seq "$rounds"); do
	for i in "${!bins[@]}"; do
		n=$p
		case ${names[$i]} in google-O3 | nzrsky-O3) n=$q ;; esac
		# The ninth field of the driver's RESULT line is its median CPU ns a pass.
		t=$(GOMAXPROCS=1 taskset -c "$cpu" "${bins[$i]}" "$mode" "$n" "$corpus" "$work/data/$set" | awk '{print $9}')
		echo "$r $i $t" >>"$work/times"
	done
done
python3 - "$work/times" "${names[@]}" <<'EOF'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
names = sys.argv[2:]
t = {}
for r, i, v in rows:
    t.setdefault(int(i), {})[int(r)] = int(v)
print(f"{'version':32} {'median ms a pass':>17} {'paired ratio to the first':>26}")
for i in sorted(t):
    med = statistics.median(t[i].values()) / 1e6
    ratio = statistics.median(t[i][r] / t[0][r] for r in t[i])
    print(f"{names[i][:32]:32} {med:17.3f} {ratio:26.3f}")
EOF
