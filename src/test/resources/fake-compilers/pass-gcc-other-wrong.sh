#!/usr/bin/env bash
# Fake gcc for triage tests, as pass-gcc.sh (at -O2 and -O3 every plain integer constant in
# test() outside loop headers becomes one more, unless -fno-tree-loop-distribute-patterns or
# -fdisable-tree-ldist is given), except that with -fno-tree-ccp they become two more, with or
# without those: other wrong code, which a group of disabling options holding -fno-tree-ccp
# must not take for the bug still there.
level=-O0; off=0; ccp=0; src=""
for a in "$@"; do
  case "$a" in
    -O0|-O1|-O2|-O3) level=$a ;;
    -fno-tree-loop-distribute-patterns|-fdisable-tree-ldist) off=1 ;;
    -fno-tree-ccp) ccp=1 ;;
    *.c) src=$a ;;
  esac
done
add=1; [ $off = 1 ] && add=0; [ $ccp = 1 ] && add=2
if [ -n "$src" ] && [ $add != 0 ] && { [ $level = -O2 ] || [ $level = -O3 ]; } && [[ " $* " != *" -fdump-passes "* ]]; then
  tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
  perl -pe 'BEGIN { $in = 0 } $in = 1 if /^void test\(/; if ($in && !/\bfor\s*\(/) { s/(?<![\w.\[])(\d+)(?![\w.\]])/$1+'"$add"'/ge } $in = 0 if /^}/' "$src" > "$tmp/t.c"
  args=(); for a in "$@"; do [ "$a" = "$src" ] && args+=("$tmp/t.c") || args+=("$a"); done
  gcc "${args[@]}"; exit $?
fi
exec gcc "$@"
