#!/usr/bin/env bash
# Fake compiler: gcc for a compile (-c), but a link fails as lto1 does when it crashes.
# A compile of one file (-c) or of a test with a second file (-r), or a version query, is gcc's.
for a in "$@"; do case "$a" in -c|-r|--version|-v|-dumpversion) exec gcc "$@";; esac; done
echo "during IPA pass: fake" >&2
echo "lto1: internal compiler error: Segmentation fault" >&2
exit 1
