#!/usr/bin/env bash
# Checks that two builds of yarpj generate byte-identical tests, as a refactoring that keeps
# every draw of the rng in order must: SEEDS seeds (from 1) of each language with the
# built-in policy, and SEEDS/2 C seeds with --swarm and with each policy in POLICIES.
# Both jars write to the same --out directory in turn (a generated file's header names it).
# Usage: scripts/same-output.sh OLD_JAR NEW_JAR [SEEDS]    (SEEDS: default 200)
# POLICIES: policy files to try as well (default: policies/control-flow.yaml
# policies/vectorize.yaml, which draw forms the built-in policy rarely does).
# Prints the number of files compared and every difference; exits 1 on any.
set -eu
old=$(realpath "$1"); new=$(realpath "$2"); seeds=${3:-200}
half=$(( (seeds + 1) / 2 ))
here=$(cd "$(dirname "$0")/.." && pwd)
policies=${POLICIES:-policies/control-flow.yaml policies/vectorize.yaml}
work=$(mktemp -d "${TMPDIR:-/tmp}/yarpj-same.XXXXXX")
trap 'rm -rf "$work"' EXIT

generate() {  # JAR: every set of tests into $work/out
    local jar=$1 lang policy
    for lang in c cpp ispc sycl; do
        java -jar "$jar" gen --lang=$lang --seed 1 --count "$seeds" --out "$work/out/$lang" --quiet
    done
    java -jar "$jar" gen --lang=c --swarm --seed 1 --count "$half" --out "$work/out/swarm" --quiet
    for policy in $policies; do
        java -jar "$jar" gen --lang=c --policy "$here/$policy" --seed 1 --count "$half" \
            --out "$work/out/$(basename "$policy" .yaml)" --quiet
    done
}

generate "$old"
mv "$work/out" "$work/old"
generate "$new"
files=$(find "$work/old" -type f | wc -l)
if diff -rq "$work/old" "$work/out" > "$work/diff"; then
    echo "$files files compared, differences: none"
else
    echo "$files files compared, $(wc -l < "$work/diff") differences (set/seed/file, old and new):"
    sed "s|$work/old/||g; s|$work/out/||g" "$work/diff"
    exit 1
fi
