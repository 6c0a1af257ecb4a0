#!/usr/bin/env bash
# Fake SYCL compiler that "optimizes" wrongly: as fake-sycl.sh, but on a copy of
# func_ref.cpp in which every plain integer constant of test() outside loop headers and
# subscripts is one more.
if [[ " $* " == *" -c "* ]]; then
  perl -pe 'BEGIN { $in = 0 } $in = 1 if /^void test\(/; if ($in && !/\bfor\s*\(/) { s/(?<![\w.\[])(\d+)(?![\w.\]])/$1+1/ge } $in = 0 if /^}/' func_ref.cpp > func_wrong.cpp
  FAKE_SYCL_SOURCE=func_wrong.cpp exec "$(dirname "$0")/fake-sycl.sh" "$@"
fi
exec "$(dirname "$0")/fake-sycl.sh" "$@"
