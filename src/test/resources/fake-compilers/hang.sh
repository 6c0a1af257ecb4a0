#!/usr/bin/env bash
# Fake compiler: never finishes compiling a func file, spinning on the CPU as a compiler in an
# endless loop does (until its CPU limit kills it), gcc otherwise.
for a in "$@"; do case "$a" in func.*) exec perl -e '1 while 1';; esac; done
exec gcc "$@"
