#!/usr/bin/env bash
# Fake compiler of a miscompilation that shows two ways, as clang 23's LTO for SVE did on
# 2026-11-28: built as the harness builds func (-c, or -r: a partial link of func and its
# helpers) it miscompiles as miscompile.sh does (a wrong result); built in one step, as
# triage builds a test, the program it makes traps at the start of test() (a crash). gcc
# otherwise, and for every source without test().
srcs=(); partial=no
for a in "$@"; do case "$a" in *.c) grep -q '^void test(' "$a" && srcs+=("$a");; -r|-c) partial=yes;; esac; done
[ ${#srcs[@]} -eq 0 ] && exec gcc "$@"
src=${srcs[0]}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
if [ $partial = yes ]; then
  perl -pe 'BEGIN { $in = 0 } $in = 1 if /^void test\(/; if ($in && !/for \(/) { s/(?<![\w.\[])(\d+)(?![\w.\]])/$1+1/ge } $in = 0 if /^}/' "$src" > "$tmp/$(basename "$src")"
else
  perl -pe 'if (/^void test\(/) { $t = 1 } if ($t && /\{\s*$/) { s/\{\s*$/{ __builtin_trap();\n/; $t = 0 }' "$src" > "$tmp/$(basename "$src")"
fi
dir=$(cd "$(dirname "$src")" && pwd)
args=()
for a in "$@"; do if [ "$a" = "$src" ]; then args+=("$tmp/$(basename "$src")"); else args+=("$a"); fi; done
gcc -I"$dir" "${args[@]}"
