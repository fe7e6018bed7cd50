#!/usr/bin/env bash
# What sharding costs: one batch over a folder against the same folder listed once (--write-manifest), analysed as N
# shards one after another on this same machine (--manifest --shard I/N) and merged (diagext merge), with farm-bench
# pairing the two (A B A B ...) so the ratio holds on a shared machine. Checks the merged report equals the single
# batch's, timings aside, and prints the overhead (sharded / single - 1) with the load (uptime) it was measured under.
#   bench/shard-overhead.sh FOLDER [N] [RUNS]     N shards (default 4), RUNS pairs (default 3)
# FOLDER: dumps to analyse; a folder of distinct dumps measures the price of sharding itself (copies of one dump that
# land in different shards are analysed once per shard, a cost of its own, measured by giving such a folder).
# Needs the Release build (dotnet build DiagExt.sln -c Release) and farm-bench. Exit 2 on bad arguments, 1 if the
# merged report differs from the single batch's.
set -euo pipefail
cd "$(dirname "$0")/.."

[ $# -ge 1 ] && [ -d "$1" ] || { sed -n '6p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
folder=$(cd "$1" && pwd) shards=${2:-4} runs=${3:-3}
[[ "$shards" =~ ^[1-9][0-9]*$ ]] && [[ "$runs" =~ ^[1-9][0-9]*$ ]] || { echo "bench/shard-overhead.sh: N and RUNS are numbers" >&2; exit 2; }
diagext=$PWD/managed/DiagExt.Cli/bin/Release/net10.0/diagext
[ -x "$diagext" ] || { echo "bench/shard-overhead.sh: build first (dotnet build DiagExt.sln -c Release)" >&2; exit 2; }
command -v farm-bench >/dev/null || { echo "bench/shard-overhead.sh: needs farm-bench" >&2; exit 2; }

work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
# Both sides get the same --jobs (2) and run whole: the sharded side pays listing, content comparison per shard, N
# process starts, reading its parts back and merging.
cat > "$work/single.sh" <<SH
exec "$diagext" analyze "$folder" -j 2 -q --json "$work/single.json" >/dev/null
SH
cat > "$work/sharded.sh" <<SH
set -e
"$diagext" analyze "$folder" --write-manifest "$work/manifest.json" >/dev/null
for i in \$(seq 0 $((shards - 1))); do
    "$diagext" analyze --manifest "$work/manifest.json" --shard \$i/$shards -j 2 -q --json "$work/part-\$i.json" >/dev/null || [ \$? -le 3 ]
done
"$diagext" merge "$work"/part-*.json --json="$work/merged.json" >/dev/null || [ \$? -le 3 ]
SH
echo "load before: $(uptime)"
farm-bench -n "$runs" --warmup 0 --timeout 3600 --vs "sh $work/single.sh" -- sh "$work/sharded.sh" | tee "$work/bench.txt"
echo "load after:  $(uptime)"

strip='import json,sys
def clean(o):
    if isinstance(o, dict):
        return {k: clean(v) for k, v in o.items() if k not in ("elapsedMs", "analysisMs", "peakMemoryMb", "startup")}
    if isinstance(o, list):
        return [clean(v) for v in o]
    return o
print(json.dumps(clean(json.load(open(sys.argv[1]))), indent=1))'
if cmp -s <(python3 -c "$strip" "$work/single.json") <(python3 -c "$strip" "$work/merged.json"); then
    echo "merged report: identical to the single batch's, timings aside ($shards shards, $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["totals"]["dumps"])' "$work/single.json") dumps)"
else
    echo "merged report: DIFFERENT from the single batch's"; diff <(python3 -c "$strip" "$work/single.json") <(python3 -c "$strip" "$work/merged.json") | head -20; exit 1
fi
