#!/usr/bin/env bash
# How well a pair of dumps tells a stuck chain from busy contention (issue 42), over many pairs: runs samples/Hangs in
# a mode, takes --pairs pairs of createdump dumps --apart seconds apart (each pair of one process), runs
# 'diagext analyze A B --json' on each pair and counts, per pair: a chain in both dumps behind the same holder with the
# same waiters at the same frames (what frames, objects and owners alone would call stuck), and diagext's verdict
# (stuck-chain or moved). The dumps are deleted as it goes. A long campaign, not a test: the suite's HangSeriesTests
# take one pair of each.
# usage: scripts/series-campaign.sh [--mode contended|chain|chaingc] [--pairs N] [--apart SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
mode=contended pairs=20 apart=2
while [ $# -gt 0 ]; do
    case $1 in
        --mode) mode=${2:-}; shift ;;
        --pairs) pairs=${2:-}; shift ;;
        --apart) apart=${2:-}; shift ;;
        -h|--help) sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "series-campaign: unknown option '$1' (--help)" >&2; exit 2 ;;
    esac
    shift
done
[[ "$pairs" =~ ^[1-9][0-9]*$ ]] || { echo "series-campaign: --pairs takes a positive whole number" >&2; exit 2; }
bash scripts/setup.sh --sdk-only
work=artifacts/series-campaign/$mode
rm -rf "$work"; mkdir -p "$work"
dotnet build managed/DiagExt.Cli -c Release --nologo -v q -clp:"ErrorsOnly;NoSummary" > "$work/build.log" 2>&1 || { cat "$work/build.log"; exit 2; }
dotnet build samples/Hangs -c Release --nologo -v q -clp:"ErrorsOnly;NoSummary" -o "$work/Hangs" > "$work/build.log" 2>&1 || { cat "$work/build.log"; exit 2; }
runtime_dir=$(dotnet --list-runtimes | awk '/Microsoft.NETCore.App 10\./ {v=$2; p=$3} END {gsub(/[\[\]]/, "", p); print p "/" v}')
diagext=(dotnet managed/DiagExt.Cli/bin/Release/net10.0/diagext.dll)

same_by_frames=0 stuck=0 moved=0 neither=0
for pair in $(seq 1 "$pairs"); do
    "$work/Hangs/Hangs" "$mode" > "$work/sample.log" 2>&1 &
    sample=$!
    for _ in $(seq 1 600); do grep -q '^READY' "$work/sample.log" && break; sleep 0.1; done
    dir="$work/pair-$pair"; mkdir -p "$dir"
    for i in 1 2; do
        [ "$i" = 1 ] || sleep "$apart"
        "$runtime_dir/createdump" -u -f "$dir/${mode}_$(date +%s).core" "$sample" > /dev/null 2>&1
    done
    kill "$sample"; wait "$sample" 2>/dev/null || true
    "${diagext[@]}" analyze "$dir" --json --quiet > "$dir/report.json" || true
    # Frames alone: the same holder, the same waiters, each at the same frame in both dumps.
    read -r frames verdict < <(python3 - "$dir/report.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
series = r.get("series", [])
if not series:
    print("0 none"); sys.exit()
s = series[0]
by_dump = {}
for f in r["findings"]:
    if f.get("kind") == "blocked-chain":
        by_dump.setdefault(f["dump"], []).append(f)
names = [d["name"] for d in s["dumps"]]
def shape(f): return sorted((t["osThreadId"], t.get("frame"), t["role"]) for t in f["threads"])
a, b = by_dump.get(names[0], []), by_dump.get(names[1], [])
frames = int(any(shape(x) == shape(y) for x in a for y in b))
verdict = "stuck" if s["findings"] else ("moved" if s["moved"] else "none")
print(frames, verdict)
PY
)
    same_by_frames=$((same_by_frames + frames))
    case $verdict in stuck) stuck=$((stuck + 1)) ;; moved) moved=$((moved + 1)) ;; *) neither=$((neither + 1)) ;; esac
    echo "pair $pair: same by frames/objects/owners: $frames; diagext: $verdict" >&2
    rm -rf "$dir"
done
echo "$mode: $pairs pairs $apart s apart: $same_by_frames looked the same by frames, objects and owners alone; diagext said stuck $stuck, moved $moved, no chain to compare $neither"
