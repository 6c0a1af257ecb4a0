#!/usr/bin/env bash
# Fake compiler of a bug that needs AVX2: gcc for this machine whatever -march says (so that
# it runs on any x86-64), except that -march=native, x86-64-v3 or x86-64-v4 miscompile as
# miscompile.sh does.
args=(); bug=no
for a in "$@"; do
  case "$a" in
    -march=native|-march=x86-64-v3|-march=x86-64-v4) bug=yes ;;
    -march=*) ;;
    *) args+=("$a") ;;
  esac
done
[ $bug = yes ] && exec "$(dirname "$0")/miscompile.sh" "${args[@]}"
exec gcc "${args[@]}"
