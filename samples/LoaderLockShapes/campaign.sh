#!/usr/bin/env bash
# The issue 32 shapes dumped many times, with the counts for the issue's note. Under Wine:
#   - each hang shape (threadwait, sectionload, detachwait) is started RUNS times afresh and each run dumped twice,
#     by Wine's own writer (memory copied while the process runs) and with --suspend (every thread suspended first);
#     each dump must give exit 1 with the owner and victims shapes.exe printed and the shape's deadlock value
#     (threadwait certain, sectionload certain, detachwait likely);
#   - the busy loader (eight threads looping LoadLibrary/GetProcAddress/FreeLibrary, healthy) is started once and
#     dumped N times each way; every dump must give exit 0 and no finding.
# Prints one line per dump and a tally per sample and writer; exits 1 when any dump gave a wrong answer.
#
#   campaign.sh [RUNS] [N] [MODES]   RUNS runs per hang shape (default 5), N busy dumps of each kind (default 20),
#                                    MODES the samples to run (default "threadwait sectionload detachwait busy").
#   DIAGEXT=path overrides the Release build. Uses its own Wine prefix under artifacts/ and stops only its wineserver.
set -euo pipefail
runs=${1:-5}
n=${2:-20}
modes=${3:-threadwait sectionload detachwait busy}
root=$(cd "$(dirname "$0")/../.." && pwd)
diagext=${DIAGEXT:-$root/managed/DiagExt.Cli/bin/Release/net10.0/diagext}
work=$root/artifacts/loaderlock-campaign
export WINEPREFIX=$work/prefix WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
mkdir -p "$work"
bash "$root/samples/LoaderLockShapes/build.sh" x86_64 "$work/bin" >/dev/null
[ -d "$WINEPREFIX/drive_c" ] || wineboot -i >/dev/null 2>&1
wineserver -k 2>/dev/null || true
wineserver -w 2>/dev/null || true
trap 'wineserver -k 2>/dev/null || true' EXIT # no shape ends by itself: never leave one running

declare -A tally
wrong=0

# start MODE: runs shapes.exe MODE in the background, sets $ready to its READY line.
start() {
    wineserver -k 2>/dev/null || true
    wineserver -w 2>/dev/null || true
    (cd "$work/bin" && exec wine shapes.exe "$1") > "$work/$1.out" 2>&1 &
    ready=
    for _ in $(seq 1 600); do ready=$(grep -m1 READY "$work/$1.out" || true); [ -n "$ready" ] && break; sleep 0.2; done
    [ -n "$ready" ] || { echo "shapes.exe $1 never printed READY:"; cat "$work/$1.out"; exit 1; }
}

# dump MODE KIND I EXPECTED: writes one dump (KIND running|suspended), runs diagext, judges its answer against the
# READY line; EXPECTED is the deadlock value for a hang shape, "none" for the busy loader.
dump() {
    local mode=$1 kind=$2 i=$3 expected=$4 pid flag=() code verdict
    local file=$work/$mode-$kind-$i.dmp
    pid=$(awk '{print $2}' <<< "$ready")
    [ "$kind" = suspended ] && flag=(--suspend)
    (cd "$work/bin" && wine minidumpwriter.exe "${flag[@]}" "$pid" "Z:${file//\//\\}") >/dev/null
    set +e
    "$diagext" loaderlock "$file" --json > "$file.json" 2> "$file.err"
    code=$?
    set -e
    verdict=$(python3 - "$file.json" "$code" "$expected" "$ready" <<'PY' 2>&1 || true
import json, sys
path, code, expected, ready = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4].split()
try:
    r = json.load(open(path))
except ValueError:
    print("unreadable"); sys.exit()
if expected == "none":
    if r["findings"]:
        print("WRONG: hazard: " + r["findings"][0]["title"]); sys.exit()
    d = [x for x in r["detectors"] if x["name"] == "loaderlock"][0].get("reason") or ""
    print("inconsistent dump" if "not one moment" in d else "contention" if "contention" in d
          else "free" if "is free" in d else "normal moment" if "normal moment" in d else "other: " + d[:100])
    sys.exit()
owner, victims = int(ready[3]), sorted(int(v) for v in ready[5].split(","))
if code != 1 or len(r["findings"]) != 1:
    print(f"WRONG: exit {code}, {len(r['findings'])} findings"); sys.exit()
f = r["findings"][0]
got_owner = f.get("owner", {}).get("osThreadId")
got_victims = sorted(v["osThreadId"] for v in f.get("victims", []))
bad = [] if got_owner == owner else [f"owner {got_owner} not {owner}"]
bad += [] if got_victims == victims else [f"victims {got_victims} not {victims}"]
bad += [] if f.get("deadlock") == expected else [f"deadlock {f.get('deadlock')} not {expected}"]
print("WRONG: " + "; ".join(bad) if bad else f"owner, victims, deadlock {expected}")
PY
)
    if [ "$expected" = none ] && [ "$code" -ne 0 ]; then
        verdict="WRONG: exit $code: $verdict $(head -c 200 "$file.err")"
    fi
    case $verdict in WRONG*|unreadable) wrong=$((wrong + 1)) ;; esac
    echo "$mode $kind $i: exit $code, $verdict"
    tally["$mode $kind: exit $code, $verdict"]=$(( ${tally["$mode $kind: exit $code, $verdict"]:-0} + 1 ))
    rm -f "$file"
}

for mode in $modes; do
    case $mode in
        threadwait|sectionload) expected=certain ;;
        detachwait) expected=likely ;;
        busy) expected=none ;;
        *) echo "unknown mode $mode"; exit 2 ;;
    esac
    if [ "$mode" = busy ]; then
        start busy
        echo "busy: $ready"
        for i in $(seq 1 "$n"); do dump busy running "$i" none; done
        for i in $(seq 1 "$n"); do dump busy suspended "$i" none; done
    else
        for i in $(seq 1 "$runs"); do
            start "$mode"
            echo "$mode run $i: $ready"
            dump "$mode" running "$i" "$expected"
            dump "$mode" suspended "$i" "$expected"
        done
    fi
done
wineserver -k; wineserver -w
echo "tally (load: $(uptime | sed 's/.*load average: //')):"
for key in "${!tally[@]}"; do echo "  $key: ${tally[$key]}"; done | sort
echo "$wrong wrong answers"
[ "$wrong" -eq 0 ]
