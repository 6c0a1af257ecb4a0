# Sourced by the install scripts: an apt configuration of its own for one Debian suite
# (unstable by default) on the mirror the machine already uses, kept in a directory of
# the project's. apt-get and apt-cache run with it read and download packages only: the
# machine's dpkg database, its apt state and its sources are never written.
#
#   private_apt_init DIR SUITE   writes the configuration under DIR and reads the suite
#   papt-get ARGS / papt-cache ARGS   apt-get / apt-cache in that configuration
#   papt_closure PKG...          PKG and its run-time dependencies (Depends, Pre-Depends,
#                                recursively, virtual packages replaced by a provider)

# The mirror: the first Debian archive URI in the machine's apt sources (deb822 .sources
# files or one-line .list files), never a host name of ours.
private_apt_mirror() {
  local f
  {
    for f in /etc/apt/sources.list.d/*.sources; do
      [ -f "$f" ] || continue
      awk 'tolower($1)=="uris:" { for (i = 2; i <= NF; i++) print $i }' "$f"
    done
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
      [ -f "$f" ] || continue
      awk '$1=="deb" { for (i = 2; i <= NF; i++) if ($i !~ /^\[/ && $i !~ /\]$/) { print $i; break } }' "$f"
    done
  } | grep -E '/debian/?$' | head -n 1 || true
}

private_apt_init() {
  local dir=$1 suite=$2 who=${3:-private-apt} uri keyring=/usr/share/keyrings/debian-archive-keyring.gpg
  uri=$(private_apt_mirror)
  if [ -z "$uri" ]; then
    echo "$who: no Debian archive URI (ending in /debian) found in /etc/apt sources" >&2
    return 1
  fi
  [ -f "$keyring" ] || { echo "$who: $keyring is missing (package debian-archive-keyring)" >&2; return 1; }
  mkdir -p "$dir"/{lists/partial,archives/partial,cache,etc/preferences.d,etc/apt.conf.d,etc/sources.list.d}
  : > "$dir/status"
  echo "deb [signed-by=$keyring] $uri $suite main" > "$dir/etc/sources.list"
  local arch
  arch=$(dpkg --print-architecture)
  PRIVATE_APT_OPTS=(
    -o "Dir::Etc::SourceList=$dir/etc/sources.list"
    -o "Dir::Etc::SourceParts=$dir/etc/sources.list.d"
    -o "Dir::Etc::Preferences=$dir/etc/preferences"
    -o "Dir::Etc::PreferencesParts=$dir/etc/preferences.d"
    -o "Dir::Etc::Parts=$dir/etc/apt.conf.d"
    -o "Dir::State=$dir"
    -o "Dir::State::Lists=$dir/lists"
    -o "Dir::State::status=$dir/status"
    -o "Dir::Cache=$dir/cache"
    -o "Dir::Cache::Archives=$dir/archives"
    -o "APT::Architecture=$arch"
    -o "APT::Architectures::=$arch"
    -o "Debug::NoLocking=1"
    -o "APT::Sandbox::User=root"
    # The unstable suite's Release file on a mirror or snapshot can be past its Valid-Until.
    -o "Acquire::Check-Valid-Until=false"
  )
  echo "$who: reading $suite from $uri"
  apt-get "${PRIVATE_APT_OPTS[@]}" -qq update
}

papt-get() { apt-get "${PRIVATE_APT_OPTS[@]}" "$@"; }
papt-cache() { apt-cache "${PRIVATE_APT_OPTS[@]}" "$@"; }

papt_closure() {
  apt-cache "${PRIVATE_APT_OPTS[@]}" depends --recurse --no-recommends --no-suggests \
      --no-conflicts --no-breaks --no-replaces --no-enhances "$@" \
    | awk '/^[a-zA-Z0-9]/ { print $1 }' | sort -u
}
