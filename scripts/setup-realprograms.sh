#!/usr/bin/env bash
# The RealPrograms tests (tests/DiagExt.Tests/RealPrograms) load a real Redis-compatible server with
# redis-benchmark and check it with redis-cli, both from Debian's redis-tools (clients only, no server).
# Installed with apt only when missing. The server itself (garnet-server) is a dotnet tool the tests install.
set -euo pipefail

command -v redis-benchmark >/dev/null 2>&1 && command -v redis-cli >/dev/null 2>&1 && exit 0
echo "[setup] installing redis-tools (redis-benchmark, redis-cli) with apt" >&2
sudo_cmd=""; [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo_cmd apt-get update -qq
$sudo_cmd apt-get install -y -qq --no-install-recommends redis-tools >/dev/null
