#!/usr/bin/env bash
# Fake clang (its name says clang): spins on the CPU compiling a func file, as clang 23's
# LoopLoadElimination does, unless that pass is turned off (-mllvm -opt-disable=loop-load-elim);
# gcc does the compiling otherwise, without the -mllvm options it does not know.
args=()
off=
skip=
for a in "$@"; do
  if [ -n "$skip" ]; then skip=; [ "$a" = "-opt-disable=loop-load-elim" ] && off=1; continue; fi
  if [ "$a" = "-mllvm" ]; then skip=1; continue; fi
  args+=("$a")
done
for a in "${args[@]}"; do case "$a" in func.*) [ -z "$off" ] && exec perl -e '1 while 1';; esac; done
exec gcc "${args[@]}"
