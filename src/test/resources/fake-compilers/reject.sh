#!/usr/bin/env bash
# Fake compiler: rejects every func file with a front-end error, gcc otherwise.
for a in "$@"; do case "$a" in func.*)
  echo "func.c:7:12: error: expected ';' before 'yarpj_fake' token" >&2
  exit 1;;
esac; done
exec gcc "$@"
