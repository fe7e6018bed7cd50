#!/usr/bin/env bash
# The busy loader dumped many times (issue 32): shapes.exe busy (eight threads looping LoadLibrary/GetProcAddress/
# FreeLibrary) runs under Wine and is dumped N times while it runs, by Wine's own writer (which copies memory while
# the process runs) and, with --suspend, by the same writer with every thread suspended first. diagext loaderlock must
# never give a hazard (exit 1): the process is healthy. Prints one line per dump and a tally. Wine's writer lists the
# memory regions before it copies them and skips what was unmapped in between (FreeLibrary), so a dump written while
# the process runs can be shorter than its own headers: diagext says "truncated" (exit 2); those are counted apart.
#
#   busy-campaign.sh [N] [DIAGEXT]     N dumps of each kind (default 20); DIAGEXT defaults to the Release build.
# Uses its own Wine prefix under artifacts/ and stops only that prefix's wineserver.
set -euo pipefail
n=${1:-20}
root=$(cd "$(dirname "$0")/../.." && pwd)
diagext=${2:-$root/managed/DiagExt.Cli/bin/Release/net10.0/diagext}
work=$root/artifacts/busy-campaign
export WINEPREFIX=$work/prefix WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
mkdir -p "$work"
bash "$root/samples/LoaderLockShapes/build.sh" x86_64 "$work/bin" >/dev/null
[ -d "$WINEPREFIX/drive_c" ] || wineboot -i >/dev/null 2>&1
wineserver -k 2>/dev/null || true
wineserver -w 2>/dev/null || true
trap 'wineserver -k 2>/dev/null || true' EXIT # the busy loader never ends by itself: never leave it running

cd "$work/bin"
wine shapes.exe busy > "$work/busy.out" 2>&1 &
for _ in $(seq 1 300); do grep -q READY "$work/busy.out" && break; sleep 0.2; done
pid=$(awk '/READY/{print $2}' "$work/busy.out")
[ -n "$pid" ] || { echo "shapes.exe busy never printed READY:"; cat "$work/busy.out"; wineserver -k; exit 1; }
echo "busy loader: $(grep READY "$work/busy.out")"

declare -A tally
failures=0
for kind in running suspended; do
    for i in $(seq 1 "$n"); do
        dump=$work/busy-$kind-$i.dmp
        flag=(); [ "$kind" = suspended ] && flag=(--suspend)
        wine minidumpwriter.exe "${flag[@]}" "$pid" "Z:${dump//\//\\}" >/dev/null
        set +e
        "$diagext" loaderlock "$dump" --json > "$dump.json" 2> "$dump.err"
        code=$?
        set -e
        # What the note says: free, a normal moment, contention, or an inconsistent dump.
        verdict=$(python3 -c '
import json,sys
r=json.load(open(sys.argv[1]))
if r["findings"]: print("HAZARD:"+r["findings"][0]["title"]); sys.exit()
d=[x for x in r["detectors"] if x["name"]=="loaderlock"][0].get("reason") or ""
print("inconsistent" if "not one moment" in d else "contention" if "contention" in d else "free" if "is free" in d else "normal-moment" if "normal moment" in d else "other:"+d[:120])
' "$dump.json" 2>/dev/null || echo "unreadable")
        if [ "$code" -eq 2 ] && grep -q "the dump is truncated" "$dump.err"; then
            verdict="truncated by the writer"
        elif [ "$code" -ne 0 ]; then
            failures=$((failures + 1))
        fi
        echo "$kind $i: exit $code, $verdict"
        tally["$kind $verdict"]=$(( ${tally["$kind $verdict"]:-0} + 1 ))
        rm -f "$dump"
    done
done
wineserver -k; wineserver -w
echo "tally:"
for key in "${!tally[@]}"; do echo "  $key: ${tally[$key]}"; done | sort
echo "$((2 * n)) dumps, $failures with a hazard or an error other than a truncated file"
[ "$failures" -eq 0 ]
