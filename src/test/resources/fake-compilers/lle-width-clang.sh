#!/usr/bin/env bash
# Fake clang: as lle-clang.sh, but its LoopLoadElimination spins only under a forced vector
# width (-mllvm -force-vector-width=N), as clang 23's forced-width bug does; gcc compiles otherwise.
args=()
off=
width=
skip=
for a in "$@"; do
  if [ -n "$skip" ]; then
    skip=
    [ "$a" = "-opt-disable=loop-load-elim" ] && off=1
    case "$a" in -force-vector-width=*) width=1;; esac
    continue
  fi
  if [ "$a" = "-mllvm" ]; then skip=1; continue; fi
  args+=("$a")
done
for a in "${args[@]}"; do case "$a" in func.*) [ -z "$off" ] && [ -n "$width" ] && exec perl -e '1 while 1';; esac; done
exec gcc "${args[@]}"
