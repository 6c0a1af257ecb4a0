#!/usr/bin/env bash
# Installs a private ispc into .tools/ispc without touching the system's packages.
#
# Debian's stable suite has no ispc; the unstable suite (sid) has one, built against a
# newer glibc and LLVM. This script makes its own apt configuration for sid on the same
# mirror the machine already uses, resolves ispc's run-time dependencies there, downloads
# them, unpacks them with `dpkg -x` into .tools/ispc/root, and writes .tools/ispc/bin/ispc:
# a wrapper that starts the real binary through that prefix's own dynamic loader and
# libraries. Nothing is installed system-wide and dpkg's database is never written.
# Running it again does nothing once the wrapper works. Set YARPJ_ISPC_SUITE to use
# another suite than sid.
set -euo pipefail
cd "$(dirname "$0")/.."
here=$(pwd)
tools="$here/.tools/ispc"
root="$tools/root"
apt_dir="$tools/apt"
wrapper="$tools/bin/ispc"
suite="${YARPJ_ISPC_SUITE:-sid}"

if [ -x "$wrapper" ] && "$wrapper" --version >/dev/null 2>&1; then
  "$wrapper" --version
  exit 0
fi

# shellcheck source=lib/private-apt.sh
. "$here/scripts/lib/private-apt.sh"
private_apt_init "$apt_dir" "$suite" install-ispc
mkdir -p "$root" "$tools/bin"

# Run-time dependencies, resolved by apt in this configuration: Depends and Pre-Depends,
# recursively, each virtual package replaced by what provides it.
mapfile -t pkgs < <(papt_closure ispc)
if [ ${#pkgs[@]} -eq 0 ]; then
  echo "install-ispc: apt found no package ispc in $suite" >&2
  exit 1
fi
echo "install-ispc: ${#pkgs[@]} packages (ispc and its run-time dependencies)"
( cd "$apt_dir/archives" && papt-get -qq download "${pkgs[@]}" )

for deb in "$apt_dir"/archives/*.deb; do
  dpkg -x "$deb" "$root"
done

# The prefix's loader and library directories (merged /usr or not).
loader=""
for l in "$root/usr/lib/$(uname -m)-linux-gnu/ld-linux-x86-64.so.2" "$root/usr/lib64/ld-linux-x86-64.so.2" \
         "$root/lib64/ld-linux-x86-64.so.2" "$root/lib/$(uname -m)-linux-gnu/ld-linux-x86-64.so.2"; do
  if [ -e "$l" ]; then loader=$l; break; fi
done
[ -n "$loader" ] || { echo "install-ispc: no dynamic loader in the unpacked packages" >&2; exit 1; }
multiarch="$(uname -m)-linux-gnu"
libpath="$root/usr/lib/$multiarch:$root/lib/$multiarch:$root/usr/lib"

cat > "$wrapper" <<EOF
#!/bin/sh
# Written by scripts/install-ispc.sh: runs ispc from $suite through its own loader and
# libraries under this prefix, so the system's libraries are never mixed in.
exec "$loader" --library-path "$libpath" "$root/usr/bin/ispc" "\$@"
EOF
chmod +x "$wrapper"
"$wrapper" --version
