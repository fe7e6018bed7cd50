#!/usr/bin/env bash
# The C compiler samples/NativeLocks builds its helper libraries with (a library constructor that holds glibc's
# loader lock, a pthread mutex gate). Installed with apt only when missing.
set -euo pipefail

command -v gcc >/dev/null 2>&1 && [ -e /usr/include/pthread.h ] && exit 0
echo "[setup] installing gcc and libc6-dev with apt (samples/NativeLocks)" >&2
sudo_cmd=""; [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo_cmd apt-get update -qq
$sudo_cmd apt-get install -y -qq gcc libc6-dev >/dev/null
