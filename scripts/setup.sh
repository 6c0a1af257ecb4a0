#!/usr/bin/env bash
# Installs what yarpj needs on a fresh Debian machine: a JDK 17 and Maven to build it,
# gcc and clang to compile what it generates, cvise for reduction, Csmith (fuzz --generator
# csmith), a private ispc
# (scripts/install-ispc.sh) and the newest gcc, GCC trunk and the newest clang, privately
# too (scripts/install-compilers.sh). Needs root (or sudo) for the first part.
set -euo pipefail
need=()
command -v java >/dev/null || need+=(openjdk-17-jdk-headless)
command -v mvn >/dev/null || need+=(maven)
command -v gcc >/dev/null || need+=(gcc)
command -v g++ >/dev/null || need+=(g++)
command -v clang >/dev/null || need+=(clang)
command -v cvise >/dev/null || need+=(cvise)
# Csmith, the other generator yarpj fuzz --generator csmith runs (its runtime headers are libcsmith-dev's).
command -v csmith >/dev/null || need+=(csmith)
[ -f /usr/include/csmith/csmith.h ] || need+=(libcsmith-dev)
if [ ${#need[@]} -gt 0 ]; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" >/dev/null
fi
echo "setup: java, mvn, gcc, g++, clang, cvise and csmith are installed"
# ispc: a private copy under .tools/ispc (see the script); the system is not changed.
"$(dirname "$0")/install-ispc.sh"
# GCC trunk, the newest gcc and clang: a private root under .tools/compilers (see the script).
"$(dirname "$0")/install-compilers.sh"
