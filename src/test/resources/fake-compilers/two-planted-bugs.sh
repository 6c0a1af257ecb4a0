#!/usr/bin/env bash
# Fake compiler of a configuration space with two planted bugs, each under an option of its
# own (options it takes and removes): with -mplanted-wrong it miscompiles every C source it
# compiles as miscompile.sh does (one added to each plain integer constant of test(), outside
# subscripts and loop headers); with -mplanted-ice it crashes on every C source with a loop
# (not on the probe that checks the testbed's flags) with an internal compiler error in a
# pass of its own. gcc otherwise.
args=(); wrong=no; ice=no
for a in "$@"; do case "$a" in -mplanted-wrong) wrong=yes;; -mplanted-ice) ice=yes;; *) args+=("$a");; esac; done
srcs=(); for a in "${args[@]}"; do case "$a" in *.c) srcs+=("$a");; esac; done
[ ${#srcs[@]} -eq 0 ] && exec gcc "${args[@]}"
if [ $ice = yes ] && grep -q 'for (' "${srcs[@]}"; then
  echo "${srcs[0]}: In function 'test':" >&2
  echo "${srcs[0]}:3:1: internal compiler error: in planted_ice_pass, at tree-planted.cc:77" >&2
  echo "Please submit a full bug report, with preprocessed source." >&2
  exit 4
fi
[ $wrong = yes ] || exec gcc "${args[@]}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
out=(); n=0
for a in "${args[@]}"; do
  case "$a" in *.c)
    n=$((n + 1)); mkdir -p "$tmp/$n"
    perl -pe 'BEGIN { $in = 0 } $in = 1 if /^void test\(/; if ($in && !/for \(/) { s/(?<![\w.\[])(\d+)(?![\w.\]])/$1+1/ge } $in = 0 if /^}/' "$a" > "$tmp/$n/$(basename "$a")"
    out+=("-I$(cd "$(dirname "$a")" && pwd)" "$tmp/$n/$(basename "$a")");;
  *) out+=("$a");;
  esac
done
gcc "${out[@]}"
