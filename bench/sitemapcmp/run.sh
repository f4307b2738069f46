#!/usr/bin/env bash
# Package sitemap side by side with github.com/aafeher/go-sitemap-parser, in
# one run: entries per second and peak memory on a 50,000-URL sitemap, plain
# and gzipped, and on a 50,000-entry sitemap index. See bench/README.md,
# "Sitemaps". Run from anywhere: bash bench/sitemapcmp/run.sh
#
# That library's source is never part of this repository: it is found at run
# time and built, with driver.go here, in a temporary module outside it.
#
# Environment:
#   AAFEHER_SRC      an extracted tree of github.com/aafeher/go-sitemap-parser
#   MIRROR_DIR       where bare git mirrors OWNER+NAME/repo are looked up when
#                    AAFEHER_SRC is unset: HEAD of aafeher+go-sitemap-parser/repo
#   SITEMAPCMP_ROUNDS  interleaved rounds (default 5)
#   SITEMAPCMP_PASSES  timed passes in each reader's process (default 5)
# Exit: 0 the targets hold (at least 3x aafeher's entries per second and at
# most a tenth of its peak heap, on every document); 1 a target missed, the
# entry counts differ, or a run failed; 2 aafeher's source or a tool is
# missing; 4 the driver does not build. The last line printed is the result.
set -u
here=$(cd "$(dirname "$0")" && pwd)
proj=$(cd "$here/../.." && pwd)
rounds=${SITEMAPCMP_ROUNDS:-5}
passes=${SITEMAPCMP_PASSES:-5}

fail() { # exit-code message
	echo "sitemapcmp: FAIL: $2"
	exit "$1"
}

case "$rounds$passes" in '' | *[!0-9]*) fail 2 "SITEMAPCMP_ROUNDS and SITEMAPCMP_PASSES must be positive integers" ;; esac
[ "$rounds" -gt 0 ] && [ "$passes" -gt 0 ] || fail 2 "SITEMAPCMP_ROUNDS and SITEMAPCMP_PASSES must be positive integers"
for tool in go git tar; do
	command -v "$tool" >/dev/null 2>&1 || fail 2 "missing tool: $tool"
done
mod=$(awk '$1 == "module" { print $2; exit }' "$proj/go.mod")
[ -n "$mod" ] || fail 2 "no module line in $proj/go.mod"

work=$(mktemp -d "${TMPDIR:-/tmp}/sitemapcmp.XXXXXX")
trap 'rm -rf "$work"' EXIT

# ---- aafeher's source: AAFEHER_SRC, else HEAD of the bare mirror
src=${AAFEHER_SRC:-}
if [ -n "$src" ]; then
	from="AAFEHER_SRC=$src"
	[ -f "$src/go.mod" ] && [ -f "$src/sitemap.go" ] ||
		fail 2 "AAFEHER_SRC=$src is not a tree of github.com/aafeher/go-sitemap-parser (no go.mod or sitemap.go)"
	src=$(cd "$src" && pwd)
else
	g=${MIRROR_DIR:-}/aafeher+go-sitemap-parser/repo
	if [ -z "${MIRROR_DIR:-}" ] || ! git --git-dir="$g" rev-parse -q --verify 'HEAD^{commit}' >/dev/null 2>&1; then
		fail 2 "aafeher/go-sitemap-parser not found: set AAFEHER_SRC to an extracted tree of github.com/aafeher/go-sitemap-parser, or MIRROR_DIR to a folder holding its bare mirror as aafeher+go-sitemap-parser/repo (now: ${MIRROR_DIR:-unset})"
	fi
	src=$work/aafeher
	mkdir -p "$src"
	git --git-dir="$g" archive HEAD | tar -x -C "$src" || fail 2 "cannot extract HEAD of the mirror $g"
	from="mirror $g at $(git --git-dir="$g" describe --tags --always HEAD 2>/dev/null) ($(git --git-dir="$g" rev-parse --short HEAD))"
fi
amod=$(awk '$1 == "module" { print $2; exit }' "$src/go.mod")
[ "$amod" = github.com/aafeher/go-sitemap-parser ] || fail 2 "$src/go.mod declares module '$amod', not github.com/aafeher/go-sitemap-parser"

# ---- the driver: a temporary module requiring both, each replaced by its tree.
# Its path lies under the library's so that it may import internal/sitemaptest.
mkdir -p "$work/drv"
cp "$here/driver.go" "$work/drv/main.go"
sed -i '/^\/\/go:build ignore$/d' "$work/drv/main.go"
gover=$(go env GOVERSION | sed 's/^go//')
cat >"$work/drv/go.mod" <<EOF
module $mod/bench/sitemapcmp/drv

go $gover

require (
	$mod v0.0.0
	$amod v0.0.0
)

replace $mod => $proj

replace $amod => $src
EOF
cat "$proj/go.sum" "$src/go.sum" 2>/dev/null | sort -u >"$work/drv/go.sum"
export GOTOOLCHAIN=local GOWORK=off GOFLAGS="-mod=mod -buildvcs=false"
gobuild() { (cd "$work/drv" && go build -trimpath -o "$work/driver" .) >"$work/build.log" 2>&1; }
# Offline first (module cache only); then with the configured proxy.
if ! GOPROXY=off gobuild && ! gobuild; then
	sed 's/^/  /' "$work/build.log" | tail -30
	fail 4 "the driver does not build against $amod ($from) and $proj"
fi

rev=$(git -C "$proj" rev-parse --short HEAD 2>/dev/null)$(git -C "$proj" diff --quiet HEAD -- . 2>/dev/null || echo "+dirty")
echo "$(date -u +%FT%TZ) $(uname -srm); cpu:$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-)"
echo "aafeher/go-sitemap-parser: $from; ours: $mod at ${rev:-?}"
"$work/driver" compare -rounds "$rounds" -passes "$passes"
