#!/usr/bin/env bash
# Tools the WinDbg extension's build and package need besides mingw-w64 and Wine
# (scripts/setup-windows-tools.sh): cmake for native/, zip for the release archives.
set -euo pipefail

missing=()
command -v cmake >/dev/null 2>&1 || missing+=(cmake)
command -v zip >/dev/null 2>&1 || missing+=(zip)
[ ${#missing[@]} -eq 0 ] && exit 0

echo "[setup] installing ${missing[*]} with apt" >&2
sudo_cmd=""; [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo_cmd apt-get update -qq
$sudo_cmd apt-get install -y -qq "${missing[@]}" >/dev/null
