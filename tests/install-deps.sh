#!/bin/bash
# install-deps.sh: installs the Debian packages scope needs to build and
# test (listed in .ci/debian-packages), as root or through sudo. Skips the
# download when everything is already installed, unless FORCE=1.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
mapfile -t packages < <(grep -v '^#' "$top/.ci/debian-packages" | grep .)
if [ "${FORCE:-0}" != 1 ] && dpkg -s "${packages[@]}" >/dev/null 2>&1; then
    exit 0
fi
sudo=""
[ "$(id -u)" -eq 0 ] || sudo=sudo
$sudo apt-get update
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y "${packages[@]}"
