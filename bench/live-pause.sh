#!/usr/bin/env bash
# The live pause (issue 33): how long 'diagext attach' keeps a process the size of the bench heap from running,
# against the pause of a snapshot ('attach --snapshot': createdump writes the dump, the process stopped meanwhile).
# Both numbers are diagext's own reports ("pause" in the JSON), so this also checks that a live report states it.
# A benchmark, not a test: the numbers depend on the machine and its load (printed with them).
#   bench/live-pause.sh [quick|full] [DIAGEXT...]   (default: full, and the clone's Release build of diagext)
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-full}
shift || true
diagext=("$@")
[ ${#diagext[@]} -gt 0 ] || diagext=(dotnet managed/DiagExt.Cli/bin/Release/net10.0/diagext.dll)
source bench/lib.sh # log, fail, start_heapgen

start_heapgen "$mode"

pause() { # command label: the report's pause and diagext's own time, from its JSON
    local json
    json=$("${diagext[@]}" attach "$gen" "$@" --json) || [ $? -eq 1 ] || fail "diagext attach $* failed"
    python3 -c 'import json, sys
r = json.loads(sys.stdin.read()); p = r.get("pause")
if not p: sys.exit("no pause in the report")
print("%10s: process stopped %.2fs; diagext open %.2fs + analysis %.2fs; %s heap objects" % (p["by"], p["stoppedMs"] / 1000,
      r["startup"]["openMs"] / 1000, r["elapsedMs"] / 1000, format(r.get("heapObjects") or 0, ",")))' <<< "$json"
}
for round in 1 2; do
    echo "round $round ($(uptime | sed 's/.*load average/load average/'))"
    pause
    pause --snapshot
done
