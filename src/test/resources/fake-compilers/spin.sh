#!/usr/bin/env bash
# Fake compiler: spends 4.5 CPU-seconds before compiling a func file (a compile that finishes,
# many times slower than gcc), gcc otherwise.
for a in "$@"; do case "$a" in func.*) perl -e '1 while (times)[0] < 4.5';; esac; done
exec gcc "$@"
