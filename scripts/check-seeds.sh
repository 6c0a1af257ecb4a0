#!/usr/bin/env bash
# Generates tests for a range of seeds and checks them with real compilers:
#   agreement: func built by gcc and clang at -O0 and -O3, linked to one driver built at
#              -O0, must all print the interpreter's predicted checksum;
#   asserts:   the --check=asserts driver must print OK;
#   sanitize:  built with -fsanitize=undefined,address -fno-sanitize-recover=all by gcc and
#              clang, the test must run clean and still print the prediction.
# Usage: scripts/check-seeds.sh LANG FIRST LAST [MODE...]   (MODE: agree asserts sanitize; default all)
# Extra options for 'yarpj gen' (e.g. --swarm, --policy FILE) can be given in YARPJ_GEN_FLAGS.
# Prints one line per failure and a summary line "N passed, M failed"; exits 1 on any failure.
set -u
lang=$1; first=$2; last=$3; shift 3
modes=${*:-agree asserts sanitize}
here=$(cd "$(dirname "$0")/.." && pwd)
yarpj="${YARPJ:-$here/yarpj}"   # YARPJ: another yarpj to run, e.g. a jar wrapper
work=$(mktemp -d "${TMPDIR:-/tmp}/yarpj-check.XXXXXX")
trap 'rm -rf "$work"' EXIT
count=$((last - first + 1))
ext=$lang; [ "$lang" = cpp ] && gcc=g++ clang=clang++ || { gcc=gcc; clang=clang; }
# shellcheck disable=SC2086
"$yarpj" gen --quiet --lang="$lang" --seed="$first" --count="$count" --out "$work/hash" ${YARPJ_GEN_FLAGS:-} || exit 1
case " $modes " in *" asserts "*)
  # shellcheck disable=SC2086
  "$yarpj" gen --quiet --lang="$lang" --seed="$first" --count="$count" --out "$work/asserts" --check=asserts ${YARPJ_GEN_FLAGS:-} || exit 1;;
esac
export lang ext gcc clang modes work
check_one() {
  s=$1; d="$work/hash/$s"; fail=""
  want=$(cat "$d/expected.txt")
  run() { timeout 10 "$@" 2>&1; }
  if [[ " $modes " == *" agree "* ]]; then
    $gcc -O0 -w -c "$d/driver.$ext" -o "$d/driver.o" -I"$d" || fail="$fail driver-build"
    for cc in $gcc $clang; do for o in -O0 -O3; do
      if ! $cc $o -w -c "$d/func.$ext" -o "$d/func.o" -I"$d" 2>"$d/err"; then fail="$fail $cc$o:build"; continue; fi
      $gcc "$d/driver.o" "$d/func.o" -o "$d/a.out" || { fail="$fail $cc$o:link"; continue; }
      got=$(run "$d/a.out"); [ "$got" = "$want" ] || fail="$fail $cc$o:got[$got]"
    done; done
  fi
  if [[ " $modes " == *" asserts "* ]]; then
    a="$work/asserts/$s"
    $gcc -O0 -w "$a/driver.$ext" "$a/func.$ext" -I"$a" -o "$a/a.out" && got=$(run "$a/a.out") && [ "$got" = OK ] || fail="$fail asserts:[$got]"
  fi
  if [[ " $modes " == *" sanitize "* ]]; then
    for cc in $gcc $clang; do
      san="-fsanitize=undefined,address -fno-sanitize-recover=all"
      if $cc -O0 -g $san -w "$d/driver.$ext" "$d/func.$ext" -I"$d" -o "$d/san.out" 2>"$d/err"; then
        got=$(ASAN_OPTIONS=detect_leaks=0 run "$d/san.out")
        [ "$got" = "$want" ] || fail="$fail $cc-sanitize:[$(echo "$got" | head -c 300)]"
      else fail="$fail $cc-sanitize:build"; fi
    done
  fi
  if [ -n "$fail" ]; then echo "FAIL seed $s:$fail"; else echo "PASS seed $s"; fi
}
export -f check_one
seq "$first" "$last" | xargs -P "$(nproc)" -I{} bash -c 'check_one {}' > "$work/results.txt"
grep FAIL "$work/results.txt"
passed=$(grep -c PASS "$work/results.txt"); failed=$(grep -c FAIL "$work/results.txt")
echo "$lang seeds $first..$last ($modes${YARPJ_GEN_FLAGS:+, $YARPJ_GEN_FLAGS}): $passed passed, $failed failed"
[ "$failed" -eq 0 ]
