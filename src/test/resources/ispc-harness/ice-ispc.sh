#!/usr/bin/env bash
# Fake ispc: an assertion failure, as ispc reports one, and death by SIGABRT on every
# func file; the real ispc (first on PATH) otherwise.
for a in "$@"; do case "$a" in func.*)
  echo '/build/ispc/src/opt/FakePass.cpp:4242: Assertion failed: "lanes == fakeWidth".' >&2
  echo '***' >&2
  echo '*** Please file a bug report at https://github.com/ispc/ispc/issues' >&2
  echo '*** (Including as much information as you can about how to reproduce this error).' >&2
  echo "*** You have apparently encountered a bug in the compiler that we'd like to fix!" >&2
  echo '***' >&2
  kill -s ABRT $$;;
esac; done
exec ispc "$@"
