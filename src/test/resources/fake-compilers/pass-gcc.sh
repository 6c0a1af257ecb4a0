#!/usr/bin/env bash
# Fake gcc for triage tests: real gcc, except that at -O2 and -O3 its "loop distribution"
# miscompiles (every plain integer constant in test() outside loop headers becomes one
# more) unless -fno-tree-loop-distribute-patterns or -fdisable-tree-ldist is given.
level=-O0; off=0; src=""
for a in "$@"; do
  case "$a" in
    -O0|-O1|-O2|-O3) level=$a ;;
    -fno-tree-loop-distribute-patterns|-fdisable-tree-ldist) off=1 ;;
    *.c) src=$a ;;
  esac
done
if [ -n "$src" ] && [ $off = 0 ] && { [ $level = -O2 ] || [ $level = -O3 ]; } && [[ " $* " != *" -fdump-passes "* ]]; then
  tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
  perl -pe 'BEGIN { $in = 0 } $in = 1 if /^void test\(/; if ($in && !/\bfor\s*\(/) { s/(?<![\w.\[])(\d+)(?![\w.\]])/$1+1/ge } $in = 0 if /^}/' "$src" > "$tmp/t.c"
  args=(); for a in "$@"; do [ "$a" = "$src" ] && args+=("$tmp/t.c") || args+=("$a"); done
  gcc "${args[@]}"; exit $?
fi
exec gcc "$@"
