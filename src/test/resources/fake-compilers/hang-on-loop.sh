#!/usr/bin/env bash
# Fake compiler: never finishes a test file (func.* of the harness, merged.* of a reduction)
# that has a for loop, spinning as a real hang does (a limit on CPU time ends it), gcc otherwise.
# Reduction must keep a loop while removing the rest.
for a in "$@"; do case "$a" in func.*|merged.*)
  grep -q 'for *(' "$a" && exec perl -e '1 while 1';;
esac; done
exec gcc "$@"
