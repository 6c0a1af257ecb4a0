#!/usr/bin/env bash
# Fake compiler: spends 2.5 CPU-seconds before compiling a func file (a compile that finishes,
# many times slower than gcc), gcc otherwise. The clock is read between busy loops, not in one:
# reading it in a tight loop is a system call each time, which spends more system time than the
# user time it waits for.
for a in "$@"; do case "$a" in func.*) perl -e 'while ((times)[0] < 2.5) { for (1..100000) {} }';; esac; done
exec gcc "$@"
