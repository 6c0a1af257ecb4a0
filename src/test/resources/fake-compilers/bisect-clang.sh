#!/usr/bin/env bash
# Fake clang for triage tests: gcc underneath, with ten fake optional passes that honour
# -mllvm -opt-bisect-limit=N (printing clang's BISECT lines on stderr). Pass 7,
# FakeLoopManglePass, runs at -O2 and -O3 only and miscompiles: every plain integer
# constant in the body of test() outside loop headers and subscripts becomes one more.
[ "${1:-}" = --version ] && { echo "clang version 99.0.0 (fake, for yarpj tests)"; exit 0; }
limit=-1; level=-O0; args=(); src=""; skip=0
for a in "$@"; do
  if [ $skip = 1 ]; then skip=0; case "$a" in -opt-bisect-limit=*) limit=${a#-opt-bisect-limit=};; esac; continue; fi
  case "$a" in
    -mllvm) skip=1 ;;
    -O0|-O1|-O2|-O3) level=$a; args+=("$a") ;;
    *.c|*.cpp) src=$a; args+=("$a") ;;
    *) args+=("$a") ;;
  esac
done
bad=0
if [ -n "$src" ] && [ "$level" != -O0 ]; then
  for i in 1 2 3 4 5 6 7 8 9 10; do
    name=FakePass$i; [ $i = 7 ] && name=FakeLoopManglePass
    if [ "$limit" = -1 ] || [ $i -le "$limit" ]; then
      echo "BISECT: running pass ($i) $name on function (test)" >&2
      [ $i = 7 ] && { [ $level = -O2 ] || [ $level = -O3 ]; } && bad=1
    else
      echo "BISECT: NOT running pass ($i) $name on function (test)" >&2
    fi
  done
fi
if [ $bad = 1 ]; then
  tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
  out=$tmp/$(basename "$src")
  perl -pe 'BEGIN { $in = 0 } $in = 1 if /^void test\(/; if ($in && !/\bfor\s*\(/) { s/(?<![\w.\[])(\d+)(?![\w.\]])/$1+1/ge } $in = 0 if /^}/' "$src" > "$out"
  for i in "${!args[@]}"; do [ "${args[$i]}" = "$src" ] && args[$i]=$out; done
fi
exec gcc "${args[@]}"
