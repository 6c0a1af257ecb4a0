#!/usr/bin/env bash
# Fake compiler: gcc for a compile (-c), but a link never finishes, as an -flto link, where the optimizers run, may not.
# A compile of one file (-c) or of a test with a second file (-r), or a version query, is gcc's.
for a in "$@"; do case "$a" in -c|-r|--version|-v|-dumpversion) exec gcc "$@";; esac; done
exec sleep 1000
