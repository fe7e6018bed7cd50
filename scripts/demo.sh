#!/usr/bin/env bash
# The main job on an embedded default: reproduce the seed's corrupt Dictionary, dump the live process
# with createdump, and analyse the dump with diagext. Usage: scripts/demo.sh [--hashset]
# Installs only the .NET SDK when missing and builds only diagext and the sample (no Wine, mingw or tests);
# the build prints nothing unless it fails, so the report is what you see.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --sdk-only

work=artifacts/demo
mkdir -p "$work"
quiet_build() {
    local log="$work/build.log"
    if ! dotnet build "$@" -c Release --nologo -v q -clp:"ErrorsOnly;NoSummary" > "$log" 2>&1; then
        cat "$log" >&2
        echo "demo: building $1 failed (above)" >&2
        exit 2
    fi
}
quiet_build managed/DiagExt.Cli
quiet_build samples/DictCycle -o "$work/DictCycle"

"$work/DictCycle/DictCycle" "$@" > "$work/sample.log" 2>&1 &
sample=$!
trap 'kill $sample 2>/dev/null || true' EXIT
for _ in $(seq 1 600); do grep -q '^READY' "$work/sample.log" && break; sleep 0.1; done
grep -q '^READY' "$work/sample.log" || { echo "sample did not get ready:"; cat "$work/sample.log"; exit 2; }
grep -E '^corrupt' "$work/sample.log" >&2

runtime_dir=$(dirname "$(dotnet --list-runtimes | awk '/Microsoft.NETCore.App 10\./ {v=$2; p=$3} END {gsub(/[\[\]]/, "", p); print p "/" v "/x"}')")
dump="$work/dictcycle.core"
rm -f "$dump"
# createdump now and then dies (SIGSEGV) gathering the state of a process that throws steadily: try again.
for attempt in 1 2 3; do
    "$runtime_dir/createdump" -u -f "$dump" "$sample" >/dev/null 2>&1 && break
    echo "createdump failed (attempt $attempt of 3)" >&2
    rm -f "$dump"
    [ "$attempt" -lt 3 ] || exit 2
done
kill "$sample"
echo "dumped the running sample (pid $sample) to $dump ($(du -h "$dump" | cut -f1))" >&2

set +e
dotnet managed/DiagExt.Cli/bin/Release/net10.0/diagext.dll dictcycle "$dump"
code=$?
set -e
echo "diagext exit code: $code (0 nothing found, 1 hazards found, 2 usage or input error, 3 incomplete, 130/143 cancelled)" >&2
[ "$code" -eq 1 ]
