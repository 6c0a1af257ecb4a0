#!/usr/bin/env bash
# Fake emulator: "fake-emulator -cpu vlen=N[,...] BINARY" runs BINARY on this machine, but at
# vlen=256 prints its checksum with a 7 after it: a build that is wrong at one vector length
# only. With "spin" among the -cpu options, each run first spends about half a CPU-second.
cpu=$2
shift 2
if [[ ",$cpu," == *,spin,* ]]; then i=0; while [ $i -lt 300000 ]; do i=$((i + 1)); done; fi
out=$("$@")
rc=$?
case ",$cpu," in
  *,vlen=256,*) [ $rc -eq 0 ] && out="${out}7" ;;
esac
echo "$out"
exit $rc
