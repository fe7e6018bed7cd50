#!/usr/bin/env bash
# The benchmark (bench/run.sh) measures peak RSS with GNU time (/usr/bin/time -v), which a minimal Debian
# image lacks. Installed with apt only when missing.
set -euo pipefail

[ -x /usr/bin/time ] && exit 0
echo "[setup] installing time (GNU time, for peak RSS) with apt" >&2
sudo_cmd=""; [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo_cmd apt-get update -qq
$sudo_cmd apt-get install -y -qq time >/dev/null
