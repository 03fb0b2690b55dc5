#!/bin/sh
# install-deps.sh - `make deps`: install the Debian packages vmscope needs to
# build, test and plot, when they are missing. Quiet and quick when nothing is
# missing, so `make check` and `make demo` can run it every time.
set -u
PKGS="gcc make pkg-config libtracefs-dev libtraceevent-dev libtracecmd-dev libsqlite3-dev
zlib1g-dev libzstd-dev liblzma-dev sqlite3 gnuplot-nox trace-cmd gzip zstd xz-utils
go-md2man man-db"
PKGS="$PKGS clang libbpf-dev bpftool"	# the BPF exact inputs of record (optional at build time)
# `install-deps.sh fuzz` (make fuzz): clang and libFuzzer too, only then
[ "${1:-}" = fuzz ] && PKGS="$PKGS clang libfuzzer-$(clang --version 2>/dev/null | sed -n 's/.*clang version \([0-9]*\).*/\1/p;q' | grep . || echo 14)-dev"

missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0

if ! command -v apt-get >/dev/null 2>&1; then
	echo "vmscope: missing packages:$missing; install them (Debian names) with your package manager" >&2
	exit 1
fi
if [ "$(id -u)" != 0 ]; then
	echo "vmscope: missing packages:$missing" >&2
	echo "vmscope: run 'sudo make deps' (or: sudo apt-get install$missing)" >&2
	exit 1
fi
echo "vmscope: installing:$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >&2 || { echo "vmscope: apt-get update failed" >&2; exit 1; }
# shellcheck disable=SC2086
apt-get install -y -qq $missing >&2 || { echo "vmscope: apt-get install failed" >&2; exit 1; }
