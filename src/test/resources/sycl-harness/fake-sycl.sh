#!/usr/bin/env bash
# Fake SYCL compiler for the harness tests: drops --acpp-targets=..., and for func.cpp (the
# SYCL lowering) compiles func_ref.cpp beside it (the C++ lowering of the same program)
# with g++; links with g++. A correct compiler, as far as the harness can tell.
args=()
for a in "$@"; do
  case "$a" in
    --acpp-targets=*) ;;
    func.cpp) args+=("${FAKE_SYCL_SOURCE:-func_ref.cpp}") ;;
    *) args+=("$a") ;;
  esac
done
exec g++ -w "${args[@]}"
