#!/bin/sh
# Install the Debian packages the build, the tests and the benchmarks need,
# if any is missing. As root it runs apt-get; otherwise it prints the exact
# command to run and fails.
set -eu

PACKAGES="build-essential make pkg-config mpich libmpich-dev libfabric-dev libfabric-bin \
libibverbs-dev ibverbs-providers libhwloc-dev hwloc gnuplot-nox procps iproute2 \
clang libclang-rt-dev python3"

missing=""
for p in $PACKAGES; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed"; then
        missing="$missing $p"
    fi
done
[ -z "$missing" ] && exit 0

cmd="apt-get install -y --no-install-recommends$missing"
if [ "$(id -u)" -ne 0 ]; then
    echo "install-deps: missing Debian packages:$missing" >&2
    echo "install-deps: run as root: apt-get update && $cmd" >&2
    exit 1
fi
echo "install-deps: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $missing >/dev/null
