#!/usr/bin/env bash
# Compares the JSON two builds of diagext write for the same dumps, timings aside: the check behind "the JSON
# of every suite dump is byte-identical to before" when a change is meant to leave output alone.
#   scripts/compare-json.sh BEFORE AFTER DUMP...
# BEFORE/AFTER: a diagext executable or diagext.dll. Runs `analyze DUMP --json` with each, drops the fields
# that measure time (elapsedMs, startup), prints one line per dump (same / DIFFERENT, with a diff), and exits 1
# if any differ, 2 on bad arguments.
set -uo pipefail
if [ $# -lt 3 ]; then
    echo "usage: scripts/compare-json.sh BEFORE AFTER DUMP..." >&2
    exit 2
fi
before=$1 after=$2; shift 2
run() { case "$1" in *.dll) dotnet "$1" "${@:2}" ;; *) "$1" "${@:2}" ;; esac; }
# Timing fields only; everything else must match byte for byte once re-indented the same way.
strip='import json,sys
def clean(o):
    if isinstance(o, dict):
        return {k: clean(v) for k, v in o.items() if k not in ("elapsedMs", "startup")}
    if isinstance(o, list):
        return [clean(v) for v in o]
    return o
print(json.dumps(clean(json.load(sys.stdin)), indent=1, ensure_ascii=False))'
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
differ=0 same=0
for dump in "$@"; do
    run "$before" analyze "$dump" --json 2>/dev/null | python3 -c "$strip" > "$tmp/before" 2>"$tmp/err1"
    run "$after" analyze "$dump" --json 2>/dev/null | python3 -c "$strip" > "$tmp/after" 2>"$tmp/err2"
    if [ ! -s "$tmp/before" ] && [ ! -s "$tmp/after" ]; then
        echo "same       $dump (neither writes JSON: not analysable)"; same=$((same + 1))
    elif [ ! -s "$tmp/before" ] || [ ! -s "$tmp/after" ]; then
        echo "NO JSON    $dump (before: $(head -c 200 "$tmp/err1"), after: $(head -c 200 "$tmp/err2"))"; differ=$((differ + 1))
    elif cmp -s "$tmp/before" "$tmp/after"; then
        echo "same       $dump"; same=$((same + 1))
    else
        echo "DIFFERENT  $dump"; differ=$((differ + 1))
        diff "$tmp/before" "$tmp/after" | head -20 | sed 's/^/    /'
    fi
done
echo "$same same, $differ different"
[ "$differ" -eq 0 ]
