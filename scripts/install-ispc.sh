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
arch=$(dpkg --print-architecture)

if [ -x "$wrapper" ] && "$wrapper" --version >/dev/null 2>&1; then
  "$wrapper" --version
  exit 0
fi

# The mirror: the first Debian archive URI in the machine's apt sources (deb822 .sources
# files or one-line .list files), never a host name of ours.
mirror_uri() {
  local f
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    awk 'tolower($1)=="uris:" { for (i = 2; i <= NF; i++) print $i }' "$f"
  done
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -f "$f" ] || continue
    awk '$1=="deb" { for (i = 2; i <= NF; i++) if ($i !~ /^\[/ && $i !~ /\]$/) { print $i; break } }' "$f"
  done
}
uri=$(mirror_uri | grep -E '/debian/?$' | head -n 1 || true)
if [ -z "$uri" ]; then
  echo "install-ispc: no Debian archive URI (ending in /debian) found in /etc/apt sources" >&2
  exit 1
fi
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
[ -f "$keyring" ] || { echo "install-ispc: $keyring is missing (package debian-archive-keyring)" >&2; exit 1; }

mkdir -p "$apt_dir"/{lists/partial,archives/partial,etc/preferences.d,etc/apt.conf.d} "$root" "$tools/bin"
: > "$apt_dir/status"
cat > "$apt_dir/etc/sources.list" <<EOF
deb [signed-by=$keyring] $uri $suite main
EOF
apt_opts=(
  -o "Dir::Etc::SourceList=$apt_dir/etc/sources.list"
  -o "Dir::Etc::SourceParts=$apt_dir/etc/sources.list.d"
  -o "Dir::Etc::Preferences=$apt_dir/etc/preferences"
  -o "Dir::Etc::PreferencesParts=$apt_dir/etc/preferences.d"
  -o "Dir::Etc::Parts=$apt_dir/etc/apt.conf.d"
  -o "Dir::State=$apt_dir"
  -o "Dir::State::Lists=$apt_dir/lists"
  -o "Dir::State::status=$apt_dir/status"
  -o "Dir::Cache=$apt_dir/cache"
  -o "Dir::Cache::Archives=$apt_dir/archives"
  -o "APT::Architecture=$arch"
  -o "APT::Architectures::=$arch"
  -o "Debug::NoLocking=1"
  -o "APT::Sandbox::User=root"
)
mkdir -p "$apt_dir/etc/sources.list.d" "$apt_dir/cache"

echo "install-ispc: reading $suite from $uri"
apt-get "${apt_opts[@]}" -qq update

# Run-time dependencies, resolved by apt in this configuration: Depends and Pre-Depends,
# recursively, each virtual package replaced by what provides it.
mapfile -t pkgs < <(apt-cache "${apt_opts[@]}" depends --recurse --no-recommends --no-suggests \
    --no-conflicts --no-breaks --no-replaces --no-enhances ispc \
  | awk '/^[a-zA-Z0-9]/ { print $1 }' | sort -u)
if [ ${#pkgs[@]} -eq 0 ]; then
  echo "install-ispc: apt found no package ispc in $suite" >&2
  exit 1
fi
echo "install-ispc: ${#pkgs[@]} packages (ispc and its run-time dependencies)"
( cd "$apt_dir/archives" && apt-get "${apt_opts[@]}" -qq download "${pkgs[@]}" )

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
