#!/usr/bin/env bash
# Windows-side tools for the loader-lock fixtures and the WinDbg extension: Wine runs mingw-built
# programs and writes real Windows minidumps of them. Installed with apt only when missing.
# Not installed: Debian's 32-bit Wine (wine32:i386). Adding the i386 architecture makes every later
# `apt-get update` exit 100 here (the mirror's bookworm-security i386 Packages.xz has the wrong size), and
# wine32:i386 then resolves only with -t bookworm and amd64 downgrades. The x86 loader-lock tests run where
# wine32 is present and are skipped elsewhere (docs/commands/loaderlock.md).
set -euo pipefail

missing=()
command -v wine >/dev/null 2>&1 || missing+=(wine64)
command -v x86_64-w64-mingw32-gcc >/dev/null 2>&1 || missing+=(gcc-mingw-w64-x86-64)
command -v x86_64-w64-mingw32-g++ >/dev/null 2>&1 || missing+=(g++-mingw-w64-x86-64)
command -v i686-w64-mingw32-gcc >/dev/null 2>&1 || missing+=(gcc-mingw-w64-i686)
command -v i686-w64-mingw32-g++ >/dev/null 2>&1 || missing+=(g++-mingw-w64-i686)
command -v cmake >/dev/null 2>&1 || missing+=(cmake)   # native/ (the WinDbg extension)
command -v zip >/dev/null 2>&1 || missing+=(zip)       # scripts/package-windbg.sh
[ ${#missing[@]} -eq 0 ] && exit 0

echo "[setup] installing ${missing[*]} with apt" >&2
sudo_cmd=""; [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo_cmd apt-get update -qq
$sudo_cmd apt-get install -y -qq "${missing[@]}" >/dev/null
