#!/bin/sh
# Install the Debian packages the build and the tests need, if missing.
# Run by "make check" and "make demo"; needs root (or sudo) only when
# something is missing.
set -e
# clang and its runtime (libFuzzer, the sanitizers) build the fuzz
# targets; --no-install-recommends would leave the runtime out.
pkgs="build-essential musl-tools pkg-config libevent-dev libsqlite3-dev libyaml-dev libjansson-dev munge libmunge-dev libsystemd-dev check procps psmisc iproute2 util-linux python3 clang libclang-rt-14-dev"
missing=""
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "installing:$missing"
if [ "$(id -u)" -eq 0 ]; then
	SUDO=
elif command -v sudo >/dev/null 2>&1; then
	SUDO=sudo
else
	echo "missing packages:$missing (run as root to install them)" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q || true
$SUDO apt-get install -y -q --no-install-recommends $missing
