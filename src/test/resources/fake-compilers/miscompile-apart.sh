#!/usr/bin/env bash
# Fake compiler: miscompiles a C source with no main() (func.c as the harness builds it, apart
# from its driver) as miscompile.sh does, gcc otherwise. A test merged into one file with its
# driver does not show the bug: triage must build it as the harness does.
src=""
for a in "$@"; do case "$a" in *.c) grep -q 'int main' "$a" || src="$a";; esac; done
[ -z "$src" ] && exec gcc "$@"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
perl -pe 'BEGIN { $in = 0 } $in = 1 if /^void test\(/; if ($in && !/for \(/) { s/(?<![\w.\[])(\d+)(?![\w.\]])/$1+1/ge } $in = 0 if /^}/' "$src" > "$tmp/$(basename "$src")"
dir=$(cd "$(dirname "$src")" && pwd)
args=()
for a in "$@"; do if [ "$a" = "$src" ]; then args+=("$tmp/$(basename "$src")"); else args+=("$a"); fi; done
gcc -I"$dir" "${args[@]}"
