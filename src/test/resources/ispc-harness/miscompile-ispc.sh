#!/usr/bin/env bash
# Fake ispc: "optimizes" func.ispc by adding one to every plain integer constant of the
# exported test function that is not a subscript or part of a loop header, then compiles
# with the real ispc (first on PATH).
args=(); src=""
for a in "$@"; do case "$a" in func.*) src="$a";; *) args+=("$a");; esac; done
[ -z "$src" ] && exec ispc "$@"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
perl -pe 'BEGIN { $in = 0 } $in = 1 if /^export void test\(/; if ($in && !/\b(for|foreach|foreach_tiled)\s*\(/) { s/(?<![\w.\[])(\d+)(?![\w.\]])/$1+1/ge } $in = 0 if /^}/' "$src" > "$tmp/func.ispc"
dir=$(cd "$(dirname "$src")" && pwd)
ispc -I"$dir" "${args[@]}" "$tmp/func.ispc"
