#!/usr/bin/env bash
# Fake compiler: never finishes a test file (func.* of the harness, merged.* of a reduction)
# that has a for loop, gcc otherwise. Reduction must keep a loop while removing the rest.
for a in "$@"; do case "$a" in func.*|merged.*)
  grep -q 'for *(' "$a" && exec sleep 1000;;
esac; done
exec gcc "$@"
