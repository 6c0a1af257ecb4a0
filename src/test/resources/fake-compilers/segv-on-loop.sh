#!/usr/bin/env bash
# Fake compiler: builds a test file (func.* of the harness, merged.* of a reduction) that has
# a for loop into a program that dies of SIGSEGV at start-up, gcc otherwise. Reduction must
# keep a loop while removing the rest.
here=$(cd "$(dirname "$0")" && pwd)
for a in "$@"; do case "$a" in func.*|merged.*)
  grep -q 'for *(' "$a" && exec gcc -include "$here/segv.h" "$@";;
esac; done
exec gcc "$@"
