#!/usr/bin/env bash
# Fake compiler: compiles func files so that the linked program crashes at start-up.
here=$(cd "$(dirname "$0")" && pwd)
for a in "$@"; do case "$a" in func.*) exec gcc -include "$here/segv.h" "$@";; esac; done
exec gcc "$@"
