#!/usr/bin/env bash
# Issue 33's small-dump target: the native diagext's `analyze` against dotnet-dump's `dumpheap -stat` on the two
# small dumps the issue names, made here from the repository's samples: a healthy busy process (samples/Healthy)
# and the demo's corrupt Dictionary (samples/DictCycle, dumped as scripts/demo.sh dumps it, with the exceptions its
# threads keep throwing on the heap). Each command runs --repeat times (default 5), the fastest kept; one
# verdict line per dump. The dumps are deleted afterwards. Exits 1 if analyze does not find what each dump is known
# to hold (nothing in the healthy one, the corrupt table in the demo's), 2 if something it needs is missing.
# usage: bench/small.sh [--repeat N]
# Environment: DIAGEXT_AOT=<path> measures that native diagext instead of compiling one (scripts/publish-aot.sh);
#              DOTNET_DUMP=<command> measures that dotnet-dump, as bench/run.sh does.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh # log, calc, fail, measure, check, find_createdump, find_dotnet_dump

repeat=5
while [ $# -gt 0 ]; do
    case $1 in
        --repeat) repeat=${2:-}; shift ;;
        -h|--help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) fail "unknown option '$1' (bench/small.sh --help)" ;;
    esac
    shift
done
[[ "$repeat" =~ ^[1-9][0-9]*$ ]] || fail "--repeat takes a positive whole number"

command -v dotnet >/dev/null 2>&1 || fail "the .NET 10 SDK is missing: run scripts/setup.sh first"
bash scripts/setup-bench.sh
work=artifacts/bench
runs=$work/runs-small
mkdir -p "$runs" "$work/dumps"
rm -f "$runs"/*
report=$work/report-small.txt

if [ -n "${DIAGEXT_AOT:-}" ]; then
    [ -x "$DIAGEXT_AOT" ] || fail "DIAGEXT_AOT=$DIAGEXT_AOT is not an executable"
    diagext=$DIAGEXT_AOT
else
    log "compiling diagext by Native AOT (scripts/publish-aot.sh)"
    diagext=$(bash scripts/publish-aot.sh "$work/diagext-aot" 2>"$runs/publish.log") || { cat "$runs/publish.log" >&2; fail "publishing diagext (Native AOT) failed"; }
fi
find_dotnet_dump
[ ${#dotnet_dump[@]} -gt 0 ] || fail "no dotnet-dump to compare with: $dotnet_dump_note"
find_createdump

# dump_sample NAME SAMPLE [ARGS...]: runs the sample until it prints READY, dumps it with createdump -u, stops it.
dump_sample() {
    local name=$1 sample=$2; shift 2
    local out=$work/samples/$sample dump=$work/dumps/small-$name.core pid attempt
    dotnet build "samples/$sample" -c Release -o "$out" --nologo -v q -clp:"ErrorsOnly;NoSummary" >/dev/null || fail "building samples/$sample failed"
    "$out/$sample" "$@" > "$runs/$name.sample.log" 2>&1 &
    pid=$!
    for _ in $(seq 1 600); do grep -q '^READY' "$runs/$name.sample.log" && break; kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    grep -q '^READY' "$runs/$name.sample.log" || { kill "$pid" 2>/dev/null; cat "$runs/$name.sample.log" >&2; fail "samples/$sample did not get ready"; }
    rm -f "$dump"
    # createdump now and then dies gathering a process that throws steadily (scripts/demo.sh): try again.
    for attempt in 1 2 3; do
        "$createdump" -u -f "$PWD/$dump" "$pid" >/dev/null 2>&1 && break
        rm -f "$dump"
        [ "$attempt" -lt 3 ] || { kill "$pid"; fail "createdump failed on samples/$sample three times"; }
    done
    kill "$pid"
    wait "$pid" 2>/dev/null || true
    cat "$dump" > /dev/null # every command reads it from the page cache
    echo "$dump"
}

names=()
declare -A wall cpu rss code
dumps=(healthy demo)
declare -A dump_of
trap 'rm -f "$work"/dumps/small-*.core' EXIT
dump_of[healthy]=$(dump_sample healthy Healthy)
dump_of[demo]=$(dump_sample demo DictCycle)

log "measuring (fastest of $repeat run(s) each)"
for d in "${dumps[@]}"; do
    measure "$d: analyze" "$diagext" analyze "${dump_of[$d]}" --json
    measure "$d: dotnet-dump dumpheap -stat" "${dotnet_dump[@]}" analyze "${dump_of[$d]}" -c "dumpheap -stat" -c exit
done

# What the dumps are known to hold: the healthy process nothing (exit 0), the demo's a corrupt table (exit 1).
checks_failed=0
check "${code[healthy: analyze]}" 0 "analyze finds nothing in the healthy process"
check "${code[demo: analyze]}" 1 "analyze finds the demo's corrupt table"

{
    echo "bench/small.sh, $(date -u '+%Y-%m-%d %H:%M UTC'), load average $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "diagext: $diagext (Native AOT); dotnet-dump: $dotnet_dump_note"
    printf '%-36s %9s %9s %9s %10s %8s\n' command "objects" "wall s" "CPU s" "peak RSS" "exit"
    for d in "${dumps[@]}"; do
        objects=$(grep -m1 -o '"heapObjects": [0-9]*' "$runs/$d: analyze.out" | grep -o '[0-9]*$' || echo "?")
        findings=$(grep -c '"detector": "' "$runs/$d: analyze.out" || true)
        for c in analyze "dotnet-dump dumpheap -stat"; do
            name="$d: $c"
            printf '%-36s %9s %9.2f %9.2f %7d MB %8s\n' "$name" "$objects" "${wall[$name]}" "${cpu[$name]}" "${rss[$name]}" "${code[$name]}"
        done
        echo "  $d: $(du -h "${dump_of[$d]}" | cut -f1) dump, analyze reported $findings finding(s)"
    done
    echo
    echo "targets (issue 33, small dumps): analyze faster than dotnet-dump dumpheap -stat (wall)"
    for d in "${dumps[@]}"; do
        ratio=$(calc "${wall[$d: dotnet-dump dumpheap -stat]} / ${wall[$d: analyze]}")
        met=$(awk -v r="$ratio" 'BEGIN { print (r > 1 ? "met" : "NOT met") }')
        printf '  %-62s %8.2f >  1     %s\n' "$d dump: dotnet-dump / analyze" "$ratio" "$met"
    done
} | tee "$report"
log "report saved to $report"
exit $checks_failed
