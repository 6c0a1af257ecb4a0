#!/usr/bin/env bash
# Fake compiler: wrong only where a loop runs 9 times (VF+1 for a vector factor of 8). Before
# each loop of test() that counts up by one from S to a bound N it notes whether the loop is
# about to run 9 times ((N) - (S), plus one for <=), and at the end of test() flips the low bit
# of an integer output scalar if one did; then compiles with gcc. A loop with a constant bound
# of 9 trips makes every input set wrong, one whose bound is an input only the sets that give
# it 9 trips.
src=""
for a in "$@"; do case "$a" in func.c|merged.c|*/func.c|*/merged.c) src="$a";; esac; done
[ -z "$src" ] && exec gcc "$@"
dir=$(cd "$(dirname "$src")" && pwd)
res=$(grep -oE '^extern (signed char|unsigned char|short|unsigned short|int|unsigned int|long long|unsigned long long) res_[0-9]+;' "$dir/init.h" 2>/dev/null | head -n 1 | grep -oE 'res_[0-9]+')
[ -z "$res" ] && exec gcc "$@"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# A loop's pragmas stay right before it: the note goes before them.
RES="$res" perl -ne 'BEGIN { $in = 0; $held = "" }
  if (/^void test\(/) { $in = 1; print "static int yarpj_wrong;\n$_"; next; }
  if ($in && /^\s*#pragma/) { $held .= $_; next; }
  if ($in && /^(\s*)for \([^;]*? (i_\d+) = ([^;]+); \(\2 (<|<=|!=) (.+?)\); \2\+\+\)/) {
    my $extra = $4 eq "<=" ? 1 : 0;
    print "$1yarpj_wrong |= ((long long)($5) - (long long)($3) + $extra == 9);\n";
  }
  if ($in && /^}/) { print "    if (yarpj_wrong) $ENV{RES} ^= 1;\n    yarpj_wrong = 0;\n"; $in = 0; }
  print $held, $_; $held = "";' "$src" > "$tmp/func.c"
args=()
for a in "$@"; do if [ "$a" = "$src" ]; then args+=("$tmp/func.c"); else args+=("$a"); fi; done
gcc -I"$dir" "${args[@]}"
