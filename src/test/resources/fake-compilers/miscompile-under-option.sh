#!/usr/bin/env bash
# Fake compiler of a configuration space: gcc, except that with -mplanted-bug (an option it
# takes and removes) it miscompiles as miscompile.sh does. Only the configurations that draw
# that option show the bug.
args=(); bug=no
for a in "$@"; do if [ "$a" = -mplanted-bug ]; then bug=yes; else args+=("$a"); fi; done
[ $bug = yes ] && exec "$(dirname "$0")/miscompile.sh" "${args[@]}"
exec gcc "${args[@]}"
