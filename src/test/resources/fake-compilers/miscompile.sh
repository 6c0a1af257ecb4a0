#!/usr/bin/env bash
# Fake compiler: "optimizes" func files (or the merged files of a reduction; by name or path) by adding one
# to every plain integer constant of the test function that is not a subscript or part of
# a loop header, then compiles with gcc (the changed file where the source was: a -lm after
# it must stay after it).
src=""
for a in "$@"; do case "$a" in func.*|merged.*|*/func.c|*/func.cpp|*/merged.c|*/merged.cpp) src="$a";; esac; done
[ -z "$src" ] && exec gcc "$@"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
ext="${src##*.}"
perl -pe 'BEGIN { $in = 0 } $in = 1 if /^void test\(/; if ($in && !/for \(/) { s/(?<![\w.\[])(\d+)(?![\w.\]])/$1+1/ge } $in = 0 if /^}/' "$src" > "$tmp/func.$ext"
dir=$(cd "$(dirname "$src")" && pwd)
args=()
for a in "$@"; do if [ "$a" = "$src" ]; then args+=("$tmp/func.$ext"); else args+=("$a"); fi; done
gcc -I"$dir" "${args[@]}"
