#!/usr/bin/env bash
# Packs diagext as a RID-specific .NET tool (.NET 10 SDK) into artifacts/nupkg (or the folder given):
#   diagext.linux-x64.<v>.nupkg   diagext compiled by Native AOT, what 'dotnet tool install diagext' gives on linux-x64
#   diagext.any.<v>.nupkg         framework-dependent, what every other platform gets (needs the .NET 10 runtime)
#   diagext.<v>.nupkg             the pointer package users install: no code, it names the two above
# Native AOT compiles for this machine's OS only (clang or gcc to link, scripts/setup-bench.sh installs clang), so a
# win-x64 or osx package cannot be packed here; those platforms get the 'any' package. On another Linux architecture
# only 'any' and the pointer are packed (the pointer still names linux-x64, which that machine never picks).
#
# usage: scripts/pack-tool.sh [OUTPUT_FOLDER]
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-artifacts/nupkg}
pack=(dotnet pack managed/DiagExt.Cli -c Release -o "$out" --nologo -v q -clp:"ErrorsOnly;NoSummary")
# The SDK packs every file of the publish folder: start from empty ones, so no file of an earlier publish (a .dbg of
# the days it was published) gets into a package.
rm -rf managed/DiagExt.Cli/bin/Release/net10.0/linux-x64/publish managed/DiagExt.Cli/bin/Release/net10.0/any/publish
if [ "$(uname -s)-$(uname -m)" = "Linux-x86_64" ]; then
    "${pack[@]}" -r linux-x64 >&2
else
    echo "pack-tool.sh: not linux-x64, so no Native AOT package: only 'any' and the pointer" >&2
fi
"${pack[@]}" -r any >&2
"${pack[@]}" >&2
ls "$out"/diagext*.nupkg
