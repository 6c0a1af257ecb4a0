#!/usr/bin/env bash
# Installs the newest compilers Debian has, privately, into .tools/compilers: GCC trunk
# (the unstable suite's gcc-snapshot), the newest released gcc and the newest clang of the
# unstable suite. The machine's packages are never changed: `dpkg -l` is the same before
# and after.
#
# These compilers need a newer C library than a stable Debian machine has, and gcc starts
# cc1, as and collect2 itself, so one wrapper around the binary (as scripts/install-ispc.sh
# does for ispc) is not enough. Instead:
#  - apt, in a configuration of its own (scripts/lib/private-apt.sh), asks the unstable
#    suite which gcc-N and clang-N exist, picks the highest N of each, resolves their
#    run-time dependencies and downloads them; dpkg -x unpacks them into
#    .tools/compilers/root, a private root of the unstable suite (no maintainer script runs);
#  - .tools/compilers/enter runs a program inside that root in a mount namespace of its
#    own (as root, or through a user namespace where those are allowed; a small C program,
#    scripts/lib/enter.c, built with the machine's cc, else the same steps with util-linux's
#    unshare), with every top-level directory of the machine that is not a system one
#    (/work, /home, /tmp, ...) and the working directory visible at the same paths;
#  - .tools/compilers/bin has one wrapper per compiler, named for its version: gcc-trunk,
#    g++-trunk, gcc-N, g++-N, clang-M, clang++-M, and gcc-newest, g++-newest,
#    clang-newest, clang++-newest pointing at the released ones. A wrapper that links
#    gives the executable the root's own loader and libraries (--dynamic-linker and
#    -rpath), so it runs on the machine as it is; objects from -c link with the machine's
#    gcc as well. GCC trunk is built without default PIE, unlike Debian's compilers, so its
#    wrappers add -fPIE (and -pie when they link) first, where any flag given later wins.
#
# Running it again does nothing while every wrapper works; --update builds a new root with
# what the suite has today and swaps it in. YARPJ_COMPILERS_SUITE picks another suite.
# YARPJ_COMPILERS_EXTRA="gcc-15 clang-22" adds older releases of the suite (wrappers
# gcc-15, clang-22, ...), for yarpj triage's "first fixed in" column; "cross-gcc-14" adds the
# suite's gcc 14 for each cross target beside the newest (aarch64-linux-gnu-gcc-14,
# riscv64-linux-gnu-gcc-14, ...), a release where bugs fixed since still show.
#
# Cross targets: the newest gcc that the suite has as a cross compiler for every target
# asked for (TRIPLE-gcc-N and TRIPLE-g++-N, with TRIPLE-gcc-newest and TRIPLE-g++-newest
# pointing at them; N is the highest that all of them have), their C libraries, and
# qemu-user to run what they build (wrappers qemu-ARCH, which find the target's C library in
# the root by themselves); clang-M builds for each with --target=TRIPLE.
# YARPJ_COMPILERS_TARGETS names the targets (default "aarch64 riscv64"), of:
#   aarch64      aarch64-linux-gnu      libc6-dev-arm64-cross    qemu-aarch64
#   riscv64      riscv64-linux-gnu      libc6-dev-riscv64-cross  qemu-riscv64
#   powerpc64le  powerpc64le-linux-gnu  libc6-dev-ppc64el-cross  qemu-ppc64le
#   s390x        s390x-linux-gnu        libc6-dev-s390x-cross    qemu-s390x
#   loongarch64  loongarch64-linux-gnu  libc6-dev-loong64-cross  qemu-loongarch64
# YARPJ_COMPILERS_CROSS=no leaves cross targets out.
# YARPJ_COMPILERS_DIR installs somewhere else than .tools/compilers.
set -euo pipefail
cd "$(dirname "$0")/.."
here=$(pwd)
tools="${YARPJ_COMPILERS_DIR:-$here/.tools/compilers}"
bin="$tools/bin"
suite="${YARPJ_COMPILERS_SUITE:-sid}"
cross="${YARPJ_COMPILERS_CROSS:-yes}"
who=install-compilers

die() { echo "$who: $*" >&2; exit 1; }

# The cross targets, by the name YARPJ_COMPILERS_TARGETS gives: the GNU triple (gcc-N-TRIPLE;
# /usr/TRIPLE holds the C library), Debian's architecture in the C library's package
# (libc6-dev-ARCH-cross), qemu-user's program, the -cpu the check below runs a program
# with, and the name printed.
alltargets="aarch64 riscv64 powerpc64le s390x loongarch64"
deftargets="aarch64 riscv64"
declare -A triple=([aarch64]=aarch64-linux-gnu [riscv64]=riscv64-linux-gnu [powerpc64le]=powerpc64le-linux-gnu
                   [s390x]=s390x-linux-gnu [loongarch64]=loongarch64-linux-gnu)
declare -A libcarch=([aarch64]=arm64 [riscv64]=riscv64 [powerpc64le]=ppc64el [s390x]=s390x [loongarch64]=loong64)
declare -A qemu=([aarch64]=aarch64 [riscv64]=riscv64 [powerpc64le]=ppc64le [s390x]=s390x [loongarch64]=loongarch64)
declare -A checkcpu=([aarch64]=max [riscv64]=rv64,v=true,vlen=256 [powerpc64le]=power10 [s390x]=max [loongarch64]=max)
declare -A label=([aarch64]=AArch64 [riscv64]=RISC-V [powerpc64le]=POWER [s390x]="IBM Z" [loongarch64]=LoongArch)
targets=()
if [ "$cross" != no ]; then
  read -r -a asked <<< "${YARPJ_COMPILERS_TARGETS:-$deftargets}"
  for a in "${asked[@]}"; do
    case " $alltargets " in *" $a "*) ;; *) die "YARPJ_COMPILERS_TARGETS: '$a' is not one of $alltargets" ;; esac
  done
  # In one order, each once: the same targets are the same request.
  for a in $alltargets; do
    case " ${asked[*]} " in *" $a "*) targets+=("$a") ;; esac
  done
  [ ${#targets[@]} -gt 0 ] || die "YARPJ_COMPILERS_TARGETS names no target (YARPJ_COMPILERS_CROSS=no leaves cross targets out)"
fi
# The targets' names for a reader: "AArch64 and RISC-V".
targetnames() {
  local i n=${#targets[@]} out=""
  for ((i = 0; i < n; i++)); do
    if [ "$i" -eq 0 ]; then out=${label[${targets[$i]}]}
    elif [ "$i" -eq $((n - 1)) ]; then out="$out and ${label[${targets[$i]}]}"
    else out="$out, ${label[${targets[$i]}]}"; fi
  done
  echo "$out"
}

# What was asked for: a change (another suite, extra releases, cross targets) reinstalls.
# wrappers=2: clang's wrappers leave a link for another target (--target=) to that target's loader.
# wrappers=3: the newest clang's LLVM tools (opt, llc, llvm-reduce) and lld come with it.
# The default targets are not written: an install from before they could be chosen is still
# the one asked for.
request="suite=$suite cross=$cross extra=${YARPJ_COMPILERS_EXTRA:-} wrappers=3"
[ "$cross" = no ] || [ "${targets[*]}" = "$deftargets" ] || request="$request targets=$(IFS=,; echo "${targets[*]}")"

working() {
  [ -f "$tools/installed" ] && [ "$(cat "$tools/request" 2>/dev/null)" = "$request" ] || return 1
  local w
  for w in $(cat "$tools/installed"); do
    "$bin/$w" --version >/dev/null 2>&1 || return 1
  done
}

show() {
  local w
  for w in $(cat "$tools/installed"); do
    printf '%-28s %s\n' "$w" "$("$bin/$w" --version 2>&1 | head -n 1)"
  done
}

# enter ROOT PROGRAM ARGS...: runs PROGRAM inside ROOT, in a mount namespace of its own.
# Built from scripts/lib/enter.c with the machine's C compiler: every compile goes through
# it, and the C program costs about 0.005 CPU-s where the shell script below costs 0.06.
# The script does the same with util-linux's unshare and mount, for a machine without cc.
write_enter() {
  if command -v cc >/dev/null && cc -O2 -o "$tools/enter.new" "$here/scripts/lib/enter.c" 2>/dev/null; then
    mv "$tools/enter.new" "$tools/enter"
    return
  fi
  rm -f "$tools/enter.new"
cat > "$tools/enter" <<'EOF'
#!/bin/sh
# Written by scripts/install-compilers.sh. enter ROOT PROGRAM ARGS...: runs PROGRAM
# inside the private root ROOT (a path inside it), in a mount namespace of its own. Every
# top-level directory of this machine that is not a system one, the working directory and
# $TMPDIR appear at their own paths inside, so files named in ARGS are the same files.
if [ "$(id -u)" = 0 ]; then ns=--mount; else ns="--user --map-root-user --mount"; fi
exec unshare $ns --propagation private -- /bin/sh -c '
  root=$1; shift
  wd=$(pwd -P)
  bind() { [ -d "$root$1" ] || mkdir -p "$root$1" 2>/dev/null; mount --rbind "$1" "$root$1" || exit 126; }
  for d in /*; do
    [ -d "$d" ] && [ ! -L "$d" ] || continue
    case $d in /bin|/boot|/dev|/etc|/lib|/lib32|/lib64|/libx32|/proc|/run|/sbin|/sys|/usr|/var) continue ;; esac
    bind "$d"
  done
  bind /dev; bind /proc
  for d in "$wd" "${TMPDIR:-}"; do
    case $d in ""|/|/dev|/dev/*|/proc|/proc/*) continue ;; esac
    [ -e "$root$d" ] && [ "$(stat -c %d:%i "$d")" = "$(stat -c %d:%i "$root$d" 2>/dev/null)" ] || bind "$d"
  done
  PATH=/usr/bin:/bin; export PATH
  exec unshare --root="$root" --wd="$wd" -- "$@"
' sh "$@"
EOF
chmod +x "$tools/enter"
}
# An install from before enter.c, or from an older one, gets the current enter.
enter_current() {
  [ -x "$tools/enter" ] && [ "$tools/enter" -nt "$here/scripts/lib/enter.c" ] \
    && { ! command -v cc >/dev/null || ! head -c 2 "$tools/enter" | grep -q '#!'; }
}

update=no
case "${1:-}" in
  --update) update=yes ;;
  "") ;;
  -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
  *) die "unknown option '$1' (only --update)" ;;
esac

if [ $update = no ] && working; then
  enter_current || write_enter
  show
  exit 0
fi

command -v unshare >/dev/null || die "unshare (package util-linux) is needed to run the compilers in their root"
command -v dpkg-deb >/dev/null || die "dpkg-deb is needed to unpack the compilers (this is not a Debian machine?)"
# The wrappers need a mount namespace: root may make one; other users need user namespaces.
if [ "$(id -u)" -ne 0 ] && ! unshare --user --map-root-user --mount true 2>/dev/null; then
  die "cannot make a mount namespace: run as root, or allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1 or user.max_user_namespaces > 0)"
fi

# shellcheck source=lib/private-apt.sh
. "$here/scripts/lib/private-apt.sh"
start=$(date +%s)
private_apt_init "$tools/apt" "$suite" "$who"

# The version apt would install of package $1, or nothing.
candidate() { papt-cache policy "$1" 2>/dev/null | awk '$1 == "Candidate:" && $2 != "(none)" { print $2 }'; }
# The highest N of the packages named PREFIX-N that the suite can install.
newest() {
  local n
  for n in $(papt-cache pkgnames "$1-" | grep -E "^$1-[0-9]+\$" | sort -t- -k2 -n -r); do
    if [ -n "$(candidate "$n")" ]; then echo "${n#"$1"-}"; return; fi
  done
}
gccv=$(newest gcc); clangv=$(newest clang)
[ -n "$gccv" ] || die "apt finds no gcc-N package in $suite"
[ -n "$clangv" ] || die "apt finds no clang-N package in $suite"
[ -n "$(candidate gcc-snapshot)" ] || die "apt finds no gcc-snapshot package in $suite"
extra=(${YARPJ_COMPILERS_EXTRA:-})
for e in "${extra[@]}"; do
  [[ "$e" =~ ^(gcc|clang|cross-gcc)-[0-9]+$ ]] || die "YARPJ_COMPILERS_EXTRA: '$e' is not gcc-N, clang-N or cross-gcc-N"
  case $e in
    cross-gcc-*)
      [ "$cross" != no ] || die "YARPJ_COMPILERS_EXTRA: $e needs the cross targets (YARPJ_COMPILERS_CROSS is no)"
      for a in "${targets[@]}"; do
        [ -n "$(candidate "gcc-${e#cross-gcc-}-${triple[$a]}")" ] || die "apt finds no gcc-${e#cross-gcc-}-${triple[$a]} package in $suite"
      done ;;
    *) [ -n "$(candidate "$e")" ] || die "apt finds no $e package in $suite" ;;
  esac
done
# Older cross compilers (cross-gcc-N), beside the newest: where bugs fixed since still show.
crossextra=($(printf '%s\n' "${extra[@]}" | sed -n 's/^cross-gcc-//p'))
crossv=""
if [ "$cross" != no ]; then
  # The highest N that every target has: the first target's gcc-N-TRIPLE, tried on the others.
  for n in $(papt-cache pkgnames gcc- | sed -n "s/^gcc-\([0-9]*\)-${triple[${targets[0]}]}\$/\1/p" | sort -n -r); do
    all=yes
    for a in "${targets[@]}"; do
      [ -n "$(candidate "gcc-$n-${triple[$a]}")" ] || { all=no; break; }
    done
    if [ $all = yes ]; then crossv=$n; break; fi
  done
  [ -n "$crossv" ] || die "apt finds no N for which $suite has gcc-N-TRIPLE for every one of ${targets[*]} (YARPJ_COMPILERS_TARGETS picks others; YARPJ_COMPILERS_CROSS=no leaves cross targets out)"
  for a in "${targets[@]}"; do
    [ -n "$(candidate "libc6-dev-${libcarch[$a]}-cross")" ] || die "apt finds no libc6-dev-${libcarch[$a]}-cross in $suite (the C library for ${triple[$a]})"
  done
  [ -n "$(candidate qemu-user)" ] || die "apt finds no qemu-user in $suite (YARPJ_COMPILERS_CROSS=no leaves cross targets out)"
fi
echo "$who: GCC trunk (gcc-snapshot $(candidate gcc-snapshot)), gcc-$gccv, clang-$clangv${extra:+, ${extra[*]}}${crossv:+; for $(targetnames) gcc-$crossv and qemu-user $(candidate qemu-user)}"

# What the compilers need to compile and link C and C++. gcc-snapshot also depends on its
# offload compilers (nvptx, amdgcn), python3 and 32-bit C libraries, none of which a C or
# C++ build for x86-64 starts: they are left out (about 100 MB of downloads).
# The newest clang's LLVM tools (llvm-N: opt, llc, llvm-reduce) and linker (lld-N): yarpj
# triage hands LLVM developers an IR reproducer for one pass, and clang's LTO builds for
# another target link with lld.
pkgs=(gcc-"$gccv" g++-"$gccv" clang-"$clangv" llvm-"$clangv" lld-"$clangv" libc6-dev binutils)
for e in "${extra[@]}"; do
  [[ "$e" == cross-gcc-* ]] && continue
  pkgs+=("$e"); [[ "$e" == gcc-* ]] && pkgs+=("g++-${e#gcc-}")
done
for n in "${crossextra[@]}"; do
  for a in "${targets[@]}"; do
    pkgs+=(gcc-"$n"-"${triple[$a]}" g++-"$n"-"${triple[$a]}")
  done
done
if [ -n "$crossv" ]; then
  for a in "${targets[@]}"; do
    pkgs+=(gcc-"$crossv"-"${triple[$a]}" g++-"$crossv"-"${triple[$a]}" libc6-dev-"${libcarch[$a]}"-cross)
  done
  pkgs+=(qemu-user)
fi
mapfile -t snapdeps < <(papt-cache depends gcc-snapshot | awk '$1 == "Depends:" { print $2 }' \
  | grep -vE '^(python3|nvptx-tools|amdgcn-tools.*|lib32.*|libx32.*|.*-i386|.*-x32)$' | sort -u)
mapfile -t closure < <(papt_closure "${pkgs[@]}" "${snapdeps[@]}")
closure+=(gcc-snapshot)
echo "$who: ${#closure[@]} packages (the compilers and their run-time dependencies)"
( cd "$tools/apt/archives" && papt-get -qq download "${closure[@]}" ) || die "downloading the packages failed"

# Unpack into a new root and swap it in only when every wrapper works in it.
new="$tools/root.new"
rm -rf "$new"; mkdir -p "$new"
for p in "${closure[@]}"; do
  deb=$(ls "$tools/apt/archives/${p}_"*.deb 2>/dev/null | head -n 1)
  [ -n "$deb" ] || die "no downloaded package for $p"
  dpkg-deb -x "$deb" "$new"
done
# The merged-/usr links (base-files' in a real system) and the loader's usual path.
for d in bin sbin lib lib64; do
  [ -e "$new/$d" ] || [ ! -d "$new/usr/$d" ] || ln -s "usr/$d" "$new/$d"
done
[ -e "$new/lib64/ld-linux-x86-64.so.2" ] || die "the unpacked C library has no loader at /lib64/ld-linux-x86-64.so.2"
mkdir -p "$new/proc" "$new/dev" "$new/tmp" "$new/etc"
: > "$new/etc/ld.so.conf"
printf 'root:x:0:0:root:/root:/bin/sh\n' > "$new/etc/passwd"

write_enter

# wrapper NAME PROGRAM [pie|cross]: bin/NAME runs PROGRAM (a path inside the root). A cross
# compiler's programs are for its target: they link as they are and run under qemu.
mkdir -p "$bin"
wrapper() {
  local name=$1 prog=$2 pie=${3:-} libs="$tools/root/usr/lib/x86_64-linux-gnu" linkpie="" compilepie="" linkflags note="
# A build that links gets that root's loader and libraries, so the executable runs on
# this machine."
  [ -x "$new$prog" ] || [ -L "$new$prog" ] || die "the unpacked packages have no $prog"
  case $prog in /usr/lib/gcc-snapshot/*) libs="$tools/root/usr/lib/gcc-snapshot/lib:$libs" ;; esac
  linkflags="-Wl,--dynamic-linker=$tools/root/lib64/ld-linux-x86-64.so.2 -Wl,-rpath,$libs"
  if [ "$pie" = cross ]; then
    pie=""; linkflags=""
    note="
# It builds for another target: run what it links with the root's qemu (bin/qemu-*)."
  elif [ -n "$pie" ]; then
    note="$note
# GCC trunk is not built for default PIE as Debian's compilers are: -fPIE (and -pie to
# link) come first, and a later flag wins."
    linkpie="-fPIE -pie "
    compilepie='[ $only = no ] || set -- -fPIE "$@"'
  fi
  cat > "$bin/$name" <<EOF
#!/bin/sh
# Written by scripts/install-compilers.sh: $prog of Debian $suite, run inside the private
# root $tools/root.$note
link=no; only=no
for a in "\$@"; do
  case \$a in
    -c|-S|-E|-M|-MM|-fsyntax-only|-print-*|--print-*|-dump*|--version|--help*|-Q|-###) only=yes ;;
    --target=*) only=yes ;; # builds for another target (clang --target=riscv64-linux-gnu): its own loader, not this root's
    -*) ;;
    *) link=yes ;;
  esac
done
if [ \$only = no ] && [ \$link = yes ]; then
  set -- $linkpie"\$@" $linkflags
fi
$compilepie
exec "$tools/enter" "$tools/root" "$prog" "\$@"
EOF
  chmod +x "$bin/$name"
  echo "$name" >> "$tools/installed.new"
}
: > "$tools/installed.new"
wrapper gcc-trunk /usr/lib/gcc-snapshot/bin/gcc pie
wrapper g++-trunk /usr/lib/gcc-snapshot/bin/g++ pie
for v in "$gccv" $(printf '%s\n' "${extra[@]}" | sed -n 's/^gcc-//p'); do
  wrapper gcc-"$v" /usr/bin/gcc-"$v"
  wrapper g++-"$v" /usr/bin/g++-"$v"
done
for v in "$clangv" $(printf '%s\n' "${extra[@]}" | sed -n 's/^clang-//p'); do
  wrapper clang-"$v" /usr/bin/clang-"$v"
  wrapper clang++-"$v" /usr/bin/clang++-"$v"
done
# llvmtool NAME PROGRAM: bin/NAME runs PROGRAM (an LLVM tool of the root) on this machine
# as it is, through the root's loader and libraries, not inside the root: llvm-reduce
# starts its interestingness test, a script of this machine that runs the other wrappers.
llvmtool() {
  local name=$1 prog=$2
  [ -x "$new$prog" ] || [ -L "$new$prog" ] || die "the unpacked packages have no $prog"
  cat > "$bin/$name" <<EOF
#!/bin/sh
# Written by scripts/install-compilers.sh: $prog of Debian $suite, run from the private root
# $tools/root by that root's loader, on this machine's files.
exec "$tools/root/lib64/ld-linux-x86-64.so.2" --library-path "$tools/root/usr/lib/x86_64-linux-gnu:$tools/root/usr/lib/llvm-$clangv/lib" "$tools/root$prog" "\$@"
EOF
  chmod +x "$bin/$name"
  echo "$name" >> "$tools/installed.new"
}
for t in opt llc llvm-reduce; do
  llvmtool "$t-$clangv" "/usr/lib/llvm-$clangv/bin/$t"
  ln -sfn "$t-$clangv" "$bin/$t-newest"
done
if [ -n "$crossv" ]; then
  for a in "${targets[@]}"; do
    t=${triple[$a]}
    wrapper "$t-gcc-$crossv" "/usr/bin/$t-gcc-$crossv" cross
    wrapper "$t-g++-$crossv" "/usr/bin/$t-g++-$crossv" cross
    ln -sfn "$t-gcc-$crossv" "$bin/$t-gcc-newest"; ln -sfn "$t-g++-$crossv" "$bin/$t-g++-newest"
    for n in "${crossextra[@]}"; do
      wrapper "$t-gcc-$n" "/usr/bin/$t-gcc-$n" cross
      wrapper "$t-g++-$n" "/usr/bin/$t-g++-$n" cross
    done
  done
  # qemu-user is linked statically: it runs on the machine as it is. -L is where it finds the
  # target's loader and C library.
  for a in "${targets[@]}"; do
    q=${qemu[$a]}
    [ -x "$new/usr/bin/qemu-$q" ] || die "the unpacked packages have no /usr/bin/qemu-$q"
    [ -d "$new/usr/${triple[$a]}/lib" ] || die "the unpacked packages have no /usr/${triple[$a]}/lib (libc6-dev-${libcarch[$a]}-cross)"
    cat > "$bin/qemu-$q" <<EOF
#!/bin/sh
# Written by scripts/install-compilers.sh: qemu-user of Debian $suite, with the target's C
# library from the private root.
exec "$tools/root/usr/bin/qemu-$q" -L "$tools/root/usr/${triple[$a]}" "\$@"
EOF
    chmod +x "$bin/qemu-$q"
    echo "qemu-$q" >> "$tools/installed.new"
  done
fi
ln -sfn gcc-"$gccv" "$bin/gcc-newest"; ln -sfn g++-"$gccv" "$bin/g++-newest"
ln -sfn clang-"$clangv" "$bin/clang-newest"; ln -sfn clang++-"$clangv" "$bin/clang++-newest"

# Swap the new root in, then check that every wrapper builds a program that runs here.
rm -rf "$tools/root.old"
[ ! -e "$tools/root" ] || mv "$tools/root" "$tools/root.old"
mv "$new" "$tools/root"
mv "$tools/installed.new" "$tools/installed"
echo "$request" > "$tools/request"
rm -rf "$tools/root.old"
check="$tools/check"
rm -rf "$check"; mkdir -p "$check"
printf 'int main(void) { return 0; }\n' > "$check/t.c"
for w in $(cat "$tools/installed"); do
  lang=c; case $w in *g++*|clang++*) lang=c++ ;; esac
  case $w in qemu-*) continue ;; esac
  # An LLVM tool: opt must read and vectorize the IR the newest clang makes of the check's
  # program; llc and llvm-reduce must start.
  case $w in
    opt-*) (cd "$check" && "$bin/clang-$clangv" -O1 -S -emit-llvm t.c -o t.ll && "$bin/$w" -passes=loop-vectorize -S t.ll -o t.opt.ll) \
             || die "$w does not run; see $check"
           continue ;;
    llc-*|llvm-reduce-*) "$bin/$w" --version >/dev/null || die "$w does not run"; continue ;;
  esac
  # A cross compiler's program runs under its target's qemu.
  run=""
  for a in "${targets[@]}"; do
    case $w in "${triple[$a]}"-*) run="$bin/qemu-${qemu[$a]} -cpu ${checkcpu[$a]}" ;; esac
  done
  (cd "$check" && "$bin/$w" -x $lang -O2 t.c -o "t-$w" && $run "./t-$w") \
    || die "$w does not build a program that runs; see $check"
done
rm -rf "$check"
rm -f "$tools"/apt/archives/*.deb   # unpacked and checked: about 660 MB less on disk
echo "$who: $(du -sh "$tools/root" | cut -f1) in $tools/root, $(( $(date +%s) - start )) s"
show
