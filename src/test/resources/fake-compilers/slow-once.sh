#!/usr/bin/env bash
# Fake compiler: the first compile of a func file waits without using the CPU, as a niced
# compile starved by other work does, until the wall-clock backstop kills it; every later one
# (the recheck) is gcc's. "First" is told by a marker file named in a -DYARPJ_FAKE_MARK= flag.
mark=
for a in "$@"; do case "$a" in -DYARPJ_FAKE_MARK=*) mark="${a#-DYARPJ_FAKE_MARK=}";; esac; done
for a in "$@"; do case "$a" in func.*) if [ -n "$mark" ] && [ ! -e "$mark" ]; then : > "$mark"; exec sleep 1000; fi;; esac; done
exec gcc "$@"
