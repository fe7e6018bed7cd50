#!/usr/bin/env bash
# Builds the dlopen mode's libraries with gcc: build.sh OUTDIR
# libnlgate.so: a pthread mutex (the gate) and functions to take it; libnlslowinit.so: a constructor that waits for the
# gate; libnlstuckinit.so: a constructor that sleeps for good;
# libnlother.so: nothing, a library to dlopen. Unstripped: their exported names are what a finding shows.
set -euo pipefail
out=${1:?usage: build.sh OUTDIR}
src=$(cd "$(dirname "$0")" && pwd)
flags=(-O1 -fPIC -shared -Wall -Werror)
mkdir -p "$out"
gcc "${flags[@]}" -o "$out/libnlgate.so" "$src/gate.c" -lpthread
gcc "${flags[@]}" -o "$out/libnlslowinit.so" "$src/slowinit.c" -L"$out" -lnlgate -Wl,-rpath,'$ORIGIN'
gcc "${flags[@]}" -o "$out/libnlstuckinit.so" "$src/stuckinit.c" -L"$out" -lnlgate -Wl,-rpath,'$ORIGIN'
gcc "${flags[@]}" -o "$out/libnlother.so" "$src/other.c"
