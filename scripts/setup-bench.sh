#!/usr/bin/env bash
# What bench/run.sh needs beyond the SDK, installed with apt only when missing: GNU time (/usr/bin/time, for peak
# RSS), and clang with zlib's headers, which Native AOT links diagext with (scripts/publish-aot.sh). Without them
# the bench still runs, measuring the ReadyToRun diagext only.
set -euo pipefail

missing=()
[ -x /usr/bin/time ] || missing+=(time)
command -v clang >/dev/null 2>&1 || missing+=(clang)
[ -e /usr/include/zlib.h ] || missing+=(zlib1g-dev)
[ ${#missing[@]} -eq 0 ] && exit 0
echo "[setup] installing ${missing[*]} with apt (for bench/run.sh)" >&2
sudo_cmd=""; [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
export DEBIAN_FRONTEND=noninteractive
if ! { $sudo_cmd apt-get update -qq && $sudo_cmd apt-get install -y -qq "${missing[@]}" >/dev/null; }; then
    # GNU time is required; the AOT toolchain is not (bench/run.sh falls back to ReadyToRun).
    [ -x /usr/bin/time ] || { echo "[setup] could not install GNU time: bench/run.sh needs /usr/bin/time" >&2; exit 2; }
    echo "[setup] could not install ${missing[*]}: Native AOT will not be measured" >&2
fi
