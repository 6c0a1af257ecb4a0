#!/usr/bin/env bash
# Each idiom enabled alone: for every idiom, a policy that is policies/no-idioms.yaml with
# just that idiom switched on is compared with no-idioms itself over the same seeds
# (yarpj stats --compare), and the rows of the remarks the idiom's optimization emits are
# printed: mean per program with the idiom, without, ratio, Welch's p and verdict.
# Usage: scripts/idiom-table.sh [FIRST LAST]   (default seeds 1..200; YARPJ=... to run another yarpj)
set -euo pipefail
first=${1:-1}; last=${2:-200}
here=$(cd "$(dirname "$0")/.." && pwd)
yarpj=${YARPJ:-$here/yarpj}
work=$(mktemp -d "${TMPDIR:-/tmp}/yarpj-idioms.XXXXXX")
trap 'rm -rf "$work"' EXIT
base=$here/policies/no-idioms.yaml

# name | compiler | keys replacing no-idioms' (YAML, ';' between keys) | regexes on "pass,remark", '|' between
rows=(
"vectorizable|clang|idiom_weights: {plain: 1, vectorizable: 3, reduction: 0, stencil: 0, memset: 0, memcpy: 0}|^loop-vectorize,Vectorized$"
"reduction|clang|idiom_weights: {plain: 1, vectorizable: 0, reduction: 3, stencil: 0, memset: 0, memcpy: 0}|^loop-vectorize,Vectorized$|^licm,PromoteLoopAccessesToScalar$"
"stencil|clang|idiom_weights: {plain: 1, vectorizable: 0, reduction: 0, stencil: 3, memset: 0, memcpy: 0}|^loop-vectorize,Vectorized$|^loop-unroll,"
"memset|clang|idiom_weights: {plain: 1, vectorizable: 0, reduction: 0, stencil: 0, memset: 3, memcpy: 0}|^loop-idiom,ProcessLoopStridedStore$"
"memcpy|clang|idiom_weights: {plain: 1, vectorizable: 0, reduction: 0, stencil: 0, memset: 0, memcpy: 3}|^loop-idiom,ProcessLoopStoreOfLoopLoad$"
"fusible sequences|clang|p_shared_space: 1.0;stmt_weights: {loop_seq: 6, invariant_if: 0, guarded_div: 0, redundant_expr: 0}|^loop-fus|^loop-interchange"
"fusible sequences|gcc|p_shared_space: 1.0;stmt_weights: {loop_seq: 6, invariant_if: 0, guarded_div: 0, redundant_expr: 0}|fus|interchang|distribut"
"column-major|gcc|access_weights: {random: 1, in_order: 0, column_major: 3, diagonal: 0, slice: 0}|interchang"
"in-order|clang|access_weights: {random: 1, in_order: 3, column_major: 0, diagonal: 0, slice: 0}|^loop-vectorize,Vectorized$"
"diagonal|clang|access_weights: {random: 1, in_order: 0, column_major: 0, diagonal: 3, slice: 0}|^licm,Hoisted$|^loop-vectorize,Vectorized$"
"slice|clang|access_weights: {random: 1, in_order: 0, column_major: 0, diagonal: 0, slice: 3}|^licm,Hoisted$|^loop-delete,"
"pragmas|clang|pragma_weights: {none: 1, clang_vectorize: 1, clang_interleave: 1, clang_unroll: 1, clang_unroll_count: 1, clang_vectorize_predicate: 1, clang_distribute: 1, gcc_unroll: 1, gcc_ivdep: 1}|^loop-unroll,|^loop-vectorize,Vectorized$|^loop-distribute,"
"invariant if|gcc|stmt_weights: {invariant_if: 6, guarded_div: 0, redundant_expr: 0}|[Uu]nswitch"
"invariant if|clang|stmt_weights: {invariant_if: 6, guarded_div: 0, redundant_expr: 0}|^licm,Hoisted$|^simple-loop-unswitch"
"guarded division|clang|stmt_weights: {invariant_if: 0, guarded_div: 6, redundant_expr: 0}|^licm,Hoisted$|^gvn,"
"redundancy under ==|clang|stmt_weights: {invariant_if: 0, guarded_div: 0, redundant_expr: 6}|^gvn,|^licm,Hoisted$"
)
printf '%-20s %-6s %-42s %9s %9s %8s %9s %s\n' idiom cc remark "with" without ratio p verdict
for row in "${rows[@]}"; do
  IFS='|' read -r name cc keys patterns <<<"$row"
  pol="$work/p.yaml"
  { cat "$base"; } > "$pol"
  # Replace the keys the row sets: drop them (and their indented maps) from the base first.
  for k in $(echo "$keys" | tr ';' '\n' | cut -d: -f1); do
    awk -v k="$k" 'BEGIN{skip=0} $0 ~ "^"k":" {skip=1; next} skip && /^  / {next} {skip=0; print}' "$pol" > "$pol.tmp" && mv "$pol.tmp" "$pol"
  done
  # The row's maps name every idiom of their kind; names they leave out keep the built-in default.
  echo "$keys" | tr ';' '\n' >> "$pol"
  "$yarpj" stats --lang=c --seeds "$first..$last" --compiler "$cc" --policy "$pol" --compare "$base" --format csv \
      2>/dev/null > "$work/out.csv" || { echo "$name: stats failed"; continue; }
  IFS='|' read -r -a pats <<<"$patterns"
  for pat in "${pats[@]}"; do
    awk -F, -v pat="$pat" -v name="$name" -v cc="$cc" '$1=="remark_passed" && ($2","$4) ~ pat {
        printf "%-20s %-6s %-42s %9s %9s %8s %9s %s\n", name, cc, substr($2"/"$4,1,42), $5, $6, ($7==""?"only A":$7), $8, $9; found=1 }
      END { if (!found) printf "%-20s %-6s %-42s %9s\n", name, cc, "(no remark matching " pat ")", "-" }' "$work/out.csv"
  done
done
