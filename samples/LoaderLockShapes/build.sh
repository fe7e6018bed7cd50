#!/usr/bin/env bash
# Builds the loader-lock shapes with mingw-w64: build.sh x86_64|i686 OUTDIR
# OUTDIR gets shapes.exe, its DLLs, plugin.dll and minidumpwriter.exe (from ../LoaderLock); stripped, as shipped code is.
set -euo pipefail
arch=${1:?usage: build.sh x86_64|i686 OUTDIR}
out=${2:?usage: build.sh x86_64|i686 OUTDIR}
src=$(cd "$(dirname "$0")" && pwd)
common=$src/../LoaderLock
cc="${arch}-w64-mingw32-gcc"
flags=(-O1 -s -Wall -Werror)
mkdir -p "$out"
for dll in threadwait sectionload detachwait busyplugin; do
    "$cc" "${flags[@]}" -shared -o "$out/$dll.dll" "$src/$dll.c"
done
"$cc" "${flags[@]}" -shared -o "$out/plugin.dll" "$common/plugin.c"
"$cc" "${flags[@]}" -o "$out/shapes.exe" "$src/shapes.c"
"$cc" "${flags[@]}" -o "$out/minidumpwriter.exe" "$common/minidumpwriter.c" -ldbghelp -lntdll
