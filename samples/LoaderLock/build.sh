#!/usr/bin/env bash
# Builds the loader-lock fixtures with mingw-w64: build.sh x86_64|i686 OUTDIR
# OUTDIR gets loaderlock.exe, threadcleanup.dll, plugin.dll and minidumpwriter.exe (stripped: no symbols to lean on).
set -euo pipefail
arch=${1:?usage: build.sh x86_64|i686 OUTDIR}
out=${2:?usage: build.sh x86_64|i686 OUTDIR}
src=$(cd "$(dirname "$0")" && pwd)
cc="${arch}-w64-mingw32-gcc"
flags=(-O1 -s -Wall -Werror)
mkdir -p "$out"
"$cc" "${flags[@]}" -shared -o "$out/threadcleanup.dll" "$src/threadcleanup.c" -Wl,--out-implib,"$out/libthreadcleanup.a"
"$cc" "${flags[@]}" -shared -o "$out/plugin.dll" "$src/plugin.c"
"$cc" "${flags[@]}" -o "$out/loaderlock.exe" "$src/loaderlock.c" -L"$out" -lthreadcleanup
"$cc" "${flags[@]}" -o "$out/minidumpwriter.exe" "$src/minidumpwriter.c" -ldbghelp -lntdll
