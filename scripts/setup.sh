#!/usr/bin/env bash
# Installs what DiagExt needs and is missing on a fresh Debian machine, then restores and builds.
# Safe to run again: every step checks first. Never downloads dumps, DACs or symbols.
# usage: scripts/setup.sh [--sdk-only]   (--sdk-only: just the .NET SDK, for scripts/demo.sh, which builds
#                                        what it runs itself and needs no Wine, mingw or test tools)
set -euo pipefail
sdk_only=0
[ "${1:-}" = "--sdk-only" ] && sdk_only=1
cd "$(dirname "$0")/.."

log() { printf '[setup] %s\n' "$*" >&2; }

need_dotnet_major=10
if ! command -v dotnet >/dev/null 2>&1 || ! dotnet --list-sdks | grep -q "^${need_dotnet_major}\."; then
    log "the .NET ${need_dotnet_major} SDK is missing; installing it with apt"
    if command -v apt-get >/dev/null 2>&1; then
        sudo_cmd=""; [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
        $sudo_cmd apt-get update -qq && $sudo_cmd apt-get install -y -qq "dotnet-sdk-${need_dotnet_major}.0"
    else
        log "no apt-get: install the .NET ${need_dotnet_major} SDK from https://dot.net and run again"; exit 2
    fi
fi

[ "$sdk_only" -eq 1 ] && exit 0

# Extra tools are installed by the parts that need them (scripts/setup-*.sh), each guarded the same way.
for extra in scripts/setup-*.sh; do
    [ -e "$extra" ] && bash "$extra"
done

log "restoring and building (Release)"
dotnet build DiagExt.sln -c Release --nologo -v q -clp:"ErrorsOnly;NoSummary"
