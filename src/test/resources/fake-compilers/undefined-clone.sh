#!/usr/bin/env bash
# Fake compiler of gcc's missing SVE simd clone (bugs.md, "gcc SVE: missing simd clone"):
# with -mplanted-clone, a source with test() gets a caller of a vector variant of a function
# that no file defines, so that every program built with it fails to link with "undefined
# reference to `_ZGVsMxv_fn_7'". gcc otherwise.
args=(); planted=no
for a in "$@"; do case "$a" in -mplanted-clone) planted=yes;; *) args+=("$a");; esac; done
[ $planted = yes ] || exec gcc "${args[@]}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
out=()
for a in "${args[@]}"; do
  case "$a" in *.c)
    if grep -q '^void test(' "$a"; then
      cp "$a" "$tmp/$(basename "$a")"
      printf '\nextern void _ZGVsMxv_fn_7(void);\nvoid yarpj_planted_caller(void) { _ZGVsMxv_fn_7(); }\n' >> "$tmp/$(basename "$a")"
      out+=("-I$(cd "$(dirname "$a")" && pwd)" "$tmp/$(basename "$a")")
    else
      out+=("$a")
    fi;;
  *) out+=("$a");;
  esac
done
gcc "${out[@]}"
