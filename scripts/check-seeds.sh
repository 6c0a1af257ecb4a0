#!/usr/bin/env bash
# Generates tests for a range of seeds and checks them with real compilers:
#   agreement: func built by gcc and clang at -O0 and -O3, linked to one driver built at
#              -O0, must all print the interpreter's predicted checksum;
#   asserts:   the --check=asserts driver must print OK;
#   sanitize:  built with -fsanitize=undefined,address,float-cast-overflow,float-divide-by-zero
#              -fno-sanitize-recover=all by gcc and clang, the test must run clean and still
#              print the prediction;
#   fast:      (not by default) func built by gcc and clang at -Ofast -march=native
#              (fast-math: what floating point, floats: p_float, is made for) prints it too;
#              for ispc, func.ispc by ispc -O2 --opt=fast-math for every target in ISPC_TARGETS
#              and func.cpp at -Ofast; for sycl, func.cpp by the SYCL compiler at -O3
#              -ffast-math for every target in SYCL_TARGETS and func_ref.cpp at -Ofast;
#   lto:       (not by default) func and its second file helpers.c (extern helpers), when it
#              has one, built at -O3 -flto into one object (-r, as the harness builds them) and
#              linked with the driver by the same compiler, gcc and clang, print the prediction.
# A test with a second file builds it with func everywhere. CHECK_GCC and CHECK_CLANG name
# other C compilers than gcc and clang (C++, and the C++ lowerings of ISPC and SYCL: their
# g++ and clang++ counterparts), e.g. gcc-trunk and clang-23 of scripts/install-compilers.sh,
# or clang-16 for half precision (floats: p_half), which clang 14 refuses on x86-64.
# For LANG ispc, agreement means func.ispc built by ispc for every target and level in
# ISPC_TARGETS and ISPC_LEVELS (default: all seven targets the harness knows, -O0 -O1 -O2)
# and func.cpp (the C++ lowering of the same program) built by g++ and clang++ at -O0 and
# -O3, all linked to one driver, print the prediction; asserts uses ispc at -O2 for the
# first target; sanitize builds the C++ lowering.
# For LANG sycl, agreement means func.cpp built by the SYCL compiler SYCL_CXX (default acpp)
# for every --acpp-targets in SYCL_TARGETS (default: omp generic) at -O0 and -O3, and
# func_ref.cpp (the C++ lowering) by g++ and clang++ at -O0 and -O3, print the prediction;
# asserts uses the first target at -O3 (without one, the host SYCL by g++); sanitize builds
# the C++ lowering, and func.cpp itself against the host SYCL of the tests
# (src/test/resources/sycl-host: kernels run on the host one work-item after another), by
# g++ and clang++. SYCL_TARGETS=none builds no SYCL target (where no SYCL compiler is
# installed): agree checks the C++ lowering only.
# Usage: scripts/check-seeds.sh LANG FIRST LAST [MODE...]   (MODE: agree asserts sanitize fast lto; default the first three)
# Extra options for 'yarpj gen' (e.g. --swarm, --policy FILE) can be given in YARPJ_GEN_FLAGS.
# CHECK_JOBS: seeds checked at once (default: the number of cores).
# ONLY_SEEDS: check only these seeds of FIRST..LAST (space-separated), e.g. to recheck the
# seeds whose files a change altered.
# Prints one line per failure and a summary line "N passed, M failed"; exits 1 on any failure.
set -u
lang=$1; first=$2; last=$3; shift 3
modes=${*:-agree asserts sanitize}
here=$(cd "$(dirname "$0")/.." && pwd)
yarpj="${YARPJ:-$here/yarpj}"   # YARPJ: another yarpj to run, e.g. a jar wrapper
work=$(mktemp -d "${TMPDIR:-/tmp}/yarpj-check.XXXXXX")
trap 'rm -rf "$work"' EXIT
count=$((last - first + 1))
ext=$lang; gcc=${CHECK_GCC:-gcc}; clang=${CHECK_CLANG:-clang}
[ "$lang" = c ] || { gcc=${gcc/%gcc/g++}; gcc=${gcc/gcc-/g++-}; clang=${clang/clang/clang++}; }
ispc_targets=${ISPC_TARGETS:-sse4-i32x4 avx2-i32x8 avx2-i32x16 avx2-i64x4 avx512skx-x16 avx512skx-x8 avx512skx-x32}
ispc_levels=${ISPC_LEVELS:--O0 -O1 -O2}
[ -x "$here/.tools/ispc/bin/ispc" ] && export PATH="$here/.tools/ispc/bin:$PATH"
sycl_cxx=${SYCL_CXX:-acpp}
sycl_targets=${SYCL_TARGETS:-omp generic}; [ "$sycl_targets" = none ] && sycl_targets=""
sycl_host="$here/src/test/resources/sycl-host"
export ispc_targets ispc_levels sycl_cxx sycl_targets sycl_host
export ACPP_DEBUG_LEVEL=0   # AdaptiveCpp prints its JIT cache notes on stdout
# shellcheck disable=SC2086
# One test goes to the output directory itself, several to a directory per seed: always one per seed here.
sub() { [ "$count" = 1 ] && echo "/$first" || echo ""; }
"$yarpj" gen --quiet --lang="$lang" --seed="$first" --count="$count" --out "$work/hash$(sub)" ${YARPJ_GEN_FLAGS:-} || exit 1
case " $modes " in *" asserts "*)
  # shellcheck disable=SC2086
  "$yarpj" gen --quiet --lang="$lang" --seed="$first" --count="$count" --out "$work/asserts$(sub)" --check=asserts ${YARPJ_GEN_FLAGS:-} || exit 1;;
esac
export lang ext gcc clang modes work
check_one() {
  s=$1; d="$work/hash/$s"; fail=""
  want=$(cat "$d/expected.txt")
  # A SYCL test's first run may compile its kernels just in time (AdaptiveCpp's generic target).
  run() { timeout "$([ "$lang" = sycl ] && echo 60 || echo 10)" "$@" 2>&1; }
  if [ "$lang" = ispc ]; then check_ispc; return; fi
  if [ "$lang" = sycl ]; then check_sycl; return; fi
  # A test with extern helpers has a second file; func and it build into one object, as the harness builds them.
  helpers=""; [ -f "$d/helpers.$ext" ] && helpers="$d/helpers.$ext"
  build() { if [ -n "$helpers" ]; then echo "-r $d/func.$ext $helpers"; else echo "-c $d/func.$ext"; fi; }
  if [[ " $modes " == *" agree "* || " $modes " == *" lto "* || " $modes " == *" fast "* ]]; then
    $gcc -O0 -w -c "$d/driver.$ext" -o "$d/driver.o" -I"$d" || fail="$fail driver-build"
  fi
  if [[ " $modes " == *" agree "* ]]; then
    for cc in $gcc $clang; do for o in -O0 -O3; do
      # shellcheck disable=SC2046
      if ! $cc $o -w $(build) -o "$d/func.o" -I"$d" 2>"$d/err"; then fail="$fail $cc$o:build"; continue; fi
      $gcc "$d/driver.o" "$d/func.o" -o "$d/a.out" -lm || { fail="$fail $cc$o:link"; continue; }
      got=$(run "$d/a.out"); [ "$got" = "$want" ] || fail="$fail $cc$o:got[$(printf %s "$got" | tr "\n" " ")]"
    done; done
  fi
  if [[ " $modes " == *" fast "* ]]; then
    for cc in $gcc $clang; do
      # shellcheck disable=SC2046
      if ! $cc -Ofast -march=native -w $(build) -o "$d/func-fast.o" -I"$d" 2>"$d/err"; then fail="$fail $cc-Ofast:build"; continue; fi
      # Linked by the same compiler with -Ofast: its start-up code sets flush-to-zero, as fast-math builds run.
      $cc -Ofast "$d/driver.o" "$d/func-fast.o" -o "$d/fast.out" -lm || { fail="$fail $cc-Ofast:link"; continue; }
      got=$(run "$d/fast.out"); [ "$got" = "$want" ] || fail="$fail $cc-Ofast:got[$(printf %s "$got" | tr "\n" " ")]"
    done
  fi
  if [[ " $modes " == *" lto "* ]]; then
    # Link-time optimization across func and the second file: the compiler links what it built.
    for cc in $gcc $clang; do
      # shellcheck disable=SC2046
      if ! $cc -O3 -flto -w $(build) -o "$d/func-lto.o" -I"$d" 2>"$d/err"; then fail="$fail $cc-lto:build"; continue; fi
      $cc -O3 -flto "$d/driver.o" "$d/func-lto.o" -o "$d/lto.out" -lm 2>"$d/err" || { fail="$fail $cc-lto:link"; continue; }
      got=$(run "$d/lto.out"); [ "$got" = "$want" ] || fail="$fail $cc-lto:got[$(printf %s "$got" | tr "\n" " ")]"
    done
  fi
  if [[ " $modes " == *" asserts "* ]]; then
    a="$work/asserts/$s"
    ah=""; [ -f "$a/helpers.$ext" ] && ah="$a/helpers.$ext"
    # shellcheck disable=SC2086
    $gcc -O0 -w "$a/driver.$ext" "$a/func.$ext" $ah -I"$a" -o "$a/a.out" -lm && got=$(run "$a/a.out") && [ "$got" = OK ] || fail="$fail asserts:[$got]"
  fi
  if [[ " $modes " == *" sanitize "* ]]; then
    for cc in $gcc $clang; do
      san="-fsanitize=undefined,address,float-cast-overflow,float-divide-by-zero -fno-sanitize-recover=all"
      # shellcheck disable=SC2086
      if $cc -O0 -g $san -w "$d/driver.$ext" "$d/func.$ext" $helpers -I"$d" -o "$d/san.out" -lm 2>"$d/err"; then
        got=$(ASAN_OPTIONS=detect_leaks=0 run "$d/san.out")
        [ "$got" = "$want" ] || fail="$fail $cc-sanitize:[$(printf %s "$got" | tr "\n" " " | head -c 300)]"
      else fail="$fail $cc-sanitize:build"; fi
    done
  fi
  if [ -n "$fail" ]; then echo "FAIL seed $s:$fail"; else echo "PASS seed $s"; fi
}
# The C++ lowering of an ISPC or SYCL test ($1), built by g++ and clang++ at -O0 and -O3 and
# linked with the driver: it must print the prediction, as the test does.
agree_lowering() {
  for cc in $gcc $clang; do for o in -O0 -O3; do
    if ! $cc $o -w -c "$d/$1" -o "$d/lowering.o" -I"$d" 2>"$d/err"; then fail="$fail cpp-$cc$o:build"; continue; fi
    g++ "$d/driver.o" "$d/lowering.o" -o "$d/a.out" -lm || { fail="$fail cpp-$cc$o:link"; continue; }
    got=$(run "$d/a.out"); [ "$got" = "$want" ] || fail="$fail cpp-$cc$o:got[$(printf %s "$got" | tr "\n" " ")]"
  done; done
}
# The same lowering with its driver under UBSan and ASan (gcc and clang): clean, and the prediction.
# usage: sanitize_lowering FILE [LABEL FLAGS...]   (LABEL names the check in $fail; FLAGS go to the compiler)
sanitize_lowering() {
  local file=$1 label=${2:-}; shift; [ $# -gt 0 ] && shift
  san="-fsanitize=undefined,address,float-cast-overflow,float-divide-by-zero -fno-sanitize-recover=all"
  for cc in $gcc $clang; do
    if $cc -O0 -g $san -w "$d/driver.cpp" "$d/$file" -I"$d" "$@" -o "$d/san.out" -lm 2>"$d/err"; then
      got=$(ASAN_OPTIONS=detect_leaks=0 run "$d/san.out")
      [ "$got" = "$want" ] || fail="$fail $cc-sanitize$label:[$(printf %s "$got" | tr "\n" " " | head -c 300)]"
    else fail="$fail $cc-sanitize$label:build"; fi
  done
}
# The same lowering built by g++ and clang++ at -Ofast and linked by the same compiler, as the
# fast mode builds C and C++: its start-up code sets flush-to-zero.
fast_lowering() {
  for cc in $gcc $clang; do
    if ! $cc -Ofast -march=native -w -c "$d/$1" -o "$d/fast.o" -I"$d" 2>"$d/err"; then fail="$fail cpp-$cc-Ofast:build"; continue; fi
    $cc -Ofast "$d/driver.o" "$d/fast.o" -o "$d/fast.out" -lm || { fail="$fail cpp-$cc-Ofast:link"; continue; }
    got=$(run "$d/fast.out"); [ "$got" = "$want" ] || fail="$fail cpp-$cc-Ofast:got[$(printf %s "$got" | tr "\n" " ")]"
  done
}
# Builds $d/func.o by the command after LINKER, links it to driver.o by LINKER (split into words) and
# runs it: the prediction must print. A step that fails is named in $fail as LABEL:build, :link or :got.
# usage: build_link_run LABEL LINKER COMMAND...
build_link_run() {
  local label=$1 linker=$2; shift 2
  if ! "$@" 2>"$d/err"; then fail="$fail $label:build[$({ grep -m1 -i error "$d/err" || head -n1 "$d/err"; } | head -c 200)]"; return; fi
  $linker "$d/driver.o" "$d/func.o" -o "$d/a.out" -lm 2>/dev/null || { fail="$fail $label:link"; return; }
  got=$(run "$d/a.out"); [ "$got" = "$want" ] || fail="$fail $label:got[$(printf %s "$got" | tr "\n" " ")]"
}
check_ispc() {
  ispc_build() { ispc --pic --woff "$@" 2>"$d/err"; }
  first_target=${ispc_targets%% *}
  if [[ " $modes " == *" agree "* || " $modes " == *" fast "* ]]; then
    ispc_build -O0 --target="$first_target" "$d/func.ispc" -o "$d/h.o" -h "$d/func_ispc.h" || fail="$fail ispc-header:build"
    g++ -O0 -w -DYARPJ_ISPC -c "$d/driver.cpp" -o "$d/driver.o" -I"$d" || fail="$fail driver-build"
  fi
  if [[ " $modes " == *" agree "* ]]; then
    for t in $ispc_targets; do for o in $ispc_levels; do
      build_link_run "ispc-$t$o" g++ ispc_build $o --target="$t" "$d/func.ispc" -o "$d/func.o"
    done; done
    agree_lowering func.cpp
  fi
  if [[ " $modes " == *" fast "* ]]; then
    for t in $ispc_targets; do
      build_link_run "ispc-$t-fast-math" g++ ispc_build -O2 --opt=fast-math --target="$t" "$d/func.ispc" -o "$d/func.o"
    done
    fast_lowering func.cpp
  fi
  if [[ " $modes " == *" asserts "* ]]; then
    a="$work/asserts/$s"
    if ispc --pic --woff -O2 --target="$first_target" "$a/func.ispc" -o "$a/func.o" -h "$a/func_ispc.h" 2>/dev/null \
        && g++ -O0 -w -DYARPJ_ISPC "$a/driver.cpp" "$a/func.o" -I"$a" -o "$a/a.out" -lm; then
      got=$(run "$a/a.out"); [ "$got" = OK ] || fail="$fail asserts:[$got]"
    else fail="$fail asserts:build"; fi
  fi
  [[ " $modes " == *" sanitize "* ]] && sanitize_lowering func.cpp
  if [ -n "$fail" ]; then echo "FAIL seed $s:$fail"; else echo "PASS seed $s"; fi
}
check_sycl() {
  first_target=${sycl_targets%% *}
  if [[ " $modes " == *" agree "* || " $modes " == *" fast "* ]]; then
    g++ -O0 -w -c "$d/driver.cpp" -o "$d/driver.o" -I"$d" || fail="$fail driver-build"
  fi
  if [[ " $modes " == *" agree "* ]]; then
    for t in $sycl_targets; do for o in -O0 -O3; do
      build_link_run "sycl-$t$o" "$sycl_cxx --acpp-targets=$t" $sycl_cxx $o --acpp-targets="$t" -w -c "$d/func.cpp" -o "$d/func.o" -I"$d"
    done; done
    agree_lowering func_ref.cpp
  fi
  if [[ " $modes " == *" fast "* ]]; then
    for t in $sycl_targets; do
      build_link_run "sycl-$t-ffast-math" "$sycl_cxx --acpp-targets=$t" $sycl_cxx -O3 -ffast-math --acpp-targets="$t" -w -c "$d/func.cpp" -o "$d/func.o" -I"$d"
    done
    fast_lowering func_ref.cpp
  fi
  if [[ " $modes " == *" asserts "* ]]; then
    a="$work/asserts/$s"
    # Without a SYCL compiler, the asserts driver runs func.cpp on the host SYCL.
    if [ -n "$first_target" ]; then asserts_cxx=($sycl_cxx -O3 --acpp-targets="$first_target"); else asserts_cxx=($gcc -std=c++17 -O3 -I"$sycl_host"); fi
    if "${asserts_cxx[@]}" -w "$a/driver.cpp" "$a/func.cpp" -I"$a" -o "$a/a.out" -lm 2>/dev/null; then
      got=$(run "$a/a.out"); [ "$got" = OK ] || fail="$fail asserts:[$got]"
    else fail="$fail asserts:build"; fi
  fi
  if [[ " $modes " == *" sanitize "* ]]; then
    sanitize_lowering func_ref.cpp
    sanitize_lowering func.cpp -host-sycl -std=c++17 -I"$sycl_host"
  fi
  if [ -n "$fail" ]; then echo "FAIL seed $s:$fail"; else echo "PASS seed $s"; fi
}
export -f check_one check_ispc check_sycl build_link_run agree_lowering sanitize_lowering fast_lowering
{ if [ -n "${ONLY_SEEDS:-}" ]; then tr ' ' '\n' <<< "$ONLY_SEEDS" | grep .; else seq "$first" "$last"; fi; } | xargs -P "${CHECK_JOBS:-$(nproc)}" -I{} bash -c 'check_one {}' > "$work/results.txt"
grep FAIL "$work/results.txt"
passed=$(grep -c PASS "$work/results.txt"); failed=$(grep -c FAIL "$work/results.txt")
echo "$lang seeds $first..$last ($modes${YARPJ_GEN_FLAGS:+, $YARPJ_GEN_FLAGS}): $passed passed, $failed failed"
[ "$failed" -eq 0 ]
