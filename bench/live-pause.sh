#!/usr/bin/env bash
# The live pause (issue 33): how long 'diagext attach' keeps a process the size of the bench heap from running,
# against the pause of a snapshot ('attach --snapshot': createdump writes the dump, the process stopped meanwhile).
# Both numbers are diagext's own reports ("pause" in the JSON), so this also checks that a live report states it.
# Then the pause of one 'diagext watch' look (issue 42: stacks and lock owners, no heap walk), from the lines watch
# prints on stderr ("process stopped N ms"); the first look also loads the DAC and is shown apart.
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
looks=$(mktemp) dumps=$(mktemp -d)
trap 'kill $gen 2>/dev/null || true; rm -rf "$gen_log" "$looks" "$dumps"' EXIT

# watch: HeapGen's process is healthy and idle: watch runs to its timeout (exit 0), one look a second.
"${diagext[@]}" watch --pid "$gen" --interval 1s --timeout 12s --dump-dir "$dumps" > /dev/null 2> "$looks" || fail "watch failed: $(tail -n 1 "$looks")"
python3 - "$looks" <<'PY'
import re, statistics, sys
ms = []
for line in open(sys.argv[1]):
    m = re.search(r"look (\d+) .*process stopped ([\d.]+) (ms|s)\)", line)
    if m:
        ms.append(float(m.group(2)) * (1000 if m.group(3) == "s" else 1))
if len(ms) < 3:
    sys.exit("too few looks: %r" % ms)
rest = ms[1:]
print("watch: first look %.0f ms (loads the DAC); the next %d: median %.0f ms, %.0f-%.0f ms" % (ms[0], len(rest), statistics.median(rest), min(rest), max(rest)))
PY
