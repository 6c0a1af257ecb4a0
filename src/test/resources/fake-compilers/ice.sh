#!/usr/bin/env bash
# Fake compiler: an internal compiler error on every func file, gcc otherwise.
for a in "$@"; do case "$a" in func.*)
  echo "func.c: In function 'test':" >&2
  echo "func.c:12:1: internal compiler error: in vect_fake_pass, at tree-vect-fake.cc:4242" >&2
  echo "0x1234abcd vect_fake_pass(loop_vec_info)" >&2
  echo "0x5678ef01 execute_one_pass(opt_pass*)" >&2
  echo "Please submit a full bug report, with preprocessed source." >&2
  exit 4;;
esac; done
exec gcc "$@"
