#!/usr/bin/env bash
# The pause of one 'diagext watch' look (issue 42): how long each look keeps a process the size of the bench heap
# (bench/HeapGen, 10.5 M objects in full) from running, beside createdump's pause for a dump of it ('attach --snapshot').
# watch prints each look's pause on stderr ("process stopped N ms"); the first look also loads the DAC and is shown apart.
# A benchmark, not a test: the numbers depend on the machine and its load (printed with them).
#   bench/watch-pause.sh [quick|full] [DIAGEXT...]   (default: full, and the clone's Release build of diagext)
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-full}
shift || true
diagext=("$@")
[ ${#diagext[@]} -gt 0 ] || diagext=(dotnet managed/DiagExt.Cli/bin/Release/net10.0/diagext.dll)
source bench/lib.sh # log, fail, start_heapgen

start_heapgen "$mode"
looks=$(mktemp) dumps=$(mktemp -d)
trap 'kill $gen 2>/dev/null || true; rm -rf "$gen_log" "$looks" "$dumps"' EXIT

# HeapGen's process is healthy and idle: watch runs to its timeout (exit 0), one look a second.
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
json=$("${diagext[@]}" attach "$gen" --snapshot --json) || [ $? -eq 1 ] || fail "diagext attach --snapshot failed"
python3 -c 'import json, sys
p = json.loads(sys.stdin.read())["pause"]
print("createdump: process stopped %.0f ms for a dump (attach --snapshot)" % p["stoppedMs"])' <<< "$json"
