#!/usr/bin/env bash
# Builds the WinDbg extension for both architectures with mingw-w64:
#   artifacts/windbg/x64/DiagExt.dll and artifacts/windbg/x86/DiagExt.dll
# Needs cmake and mingw-w64 (scripts/setup-windows-tools.sh installs them), and the .NET SDK: the exports are
# generated from diagext's own command list ('diagext help --list'), so diagext is built (or found built) first.
set -euo pipefail
cd "$(dirname "$0")/.."

commands=artifacts/native-build/commands.tsv
mkdir -p artifacts/native-build
dotnet build managed/DiagExt.Cli -c Release --nologo -v q -clp:"ErrorsOnly;NoSummary" >/dev/null
dotnet managed/DiagExt.Cli/bin/Release/net10.0/diagext.dll help --list > "$commands.new"
# Only a changed list reconfigures the build.
cmp -s "$commands.new" "$commands" && rm "$commands.new" || mv "$commands.new" "$commands"

generator=()
command -v ninja >/dev/null 2>&1 && generator=(-G Ninja)

build_one() {
    local arch=$1 triple=$2
    local build=artifacts/native-build/$arch
    cmake -S native -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release -DMINGW_TRIPLE="$triple" \
        -DCMAKE_TOOLCHAIN_FILE="$PWD/native/cmake/mingw.cmake" -DDIAGEXT_COMMANDS="$PWD/$commands" >/dev/null
    cmake --build "$build" >/dev/null
    mkdir -p "artifacts/windbg/$arch"
    cp "$build/DiagExt.dll" "artifacts/windbg/$arch/DiagExt.dll"
    echo "artifacts/windbg/$arch/DiagExt.dll"
}

build_one x64 x86_64-w64-mingw32
build_one x86 i686-w64-mingw32
