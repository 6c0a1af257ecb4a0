#!/usr/bin/env bash
# Fake compiler: an internal compiler error on a test file (func.* of the harness, merged.*
# of a reduction) that has a for loop, gcc otherwise. Reduction must keep a loop, and the
# crash message, while removing everything else.
for a in "$@"; do case "$a" in func.*|merged.*)
  if grep -q 'for *(' "$a"; then
    echo "$a: In function 'test':" >&2
    echo "$a:3:6: internal compiler error: in fake_loop_pass, at tree-loop-fake.cc:777" >&2
    echo "0x1234abcd fake_loop_pass(loop*)" >&2
    echo "Please submit a full bug report, with preprocessed source." >&2
    exit 4
  fi;;
esac; done
exec gcc "$@"
