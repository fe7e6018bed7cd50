#!/usr/bin/env bash
# Measures diagext on one large heap dump against the floor, a bare ClrMD walk of the same dump, and against
# dotnet-dump when it can be installed here. Builds what it needs, generates the heap (bench/HeapGen), dumps
# it with the runtime's createdump, then times each command: wall, CPU, peak RSS, objects per second, ratios.
#
# usage: bench/run.sh [--quick] [--scale N] [--reuse-dump] [--keep-dump] [--repeat N] [--pairs N] [--aot | --r2r]
#   --quick       about 1 million objects instead of over 10 million (about 20 s once built)
#   --scale N     every count of the plan times N (1-8; growth: --scale 4 is ~42 million objects, a ~4 GB dump)
#   --reuse-dump  measure the dump a previous run left in artifacts/bench/dumps instead of making a new one
#   --keep-dump   keep the full dump afterwards (the quick one is always kept; the full one is ~1 GB)
#   --repeat N    run each command N times and keep its fastest run (the machine may be shared)
#   --pairs N     alternated pairs per detector for its cost in analyze (analyze, then analyze --skip it; default 15,
#                 --quick 3)
#   --aot         measure only diagext compiled by Native AOT (scripts/publish-aot.sh); fail if it cannot be built
#   --r2r         measure only diagext published ReadyToRun (the dotnet tool's form)
#   default: every command with the Native AOT diagext (the native executable: diagext as best shipped), and
#   analyze again with the ReadyToRun one; ReadyToRun alone when this machine cannot compile AOT (no clang)
# Environment: DOTNET_DUMP=<command> measures that dotnet-dump (e.g. one built from source) when none installs;
#   DIAGEXT_AOT=<executable> measures that Native AOT diagext instead of compiling one (the suite passes the tool
#   package's, so the minutes of the AOT compile are paid once).
# Exit code: 0 when every check passed (analyze found exactly the generator's corrupt tables), 1 otherwise,
# 2 when something needed is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=full reuse=0 keep=0 repeat=1 builds=both scale=1 pairs=""
while [ $# -gt 0 ]; do
    case "$1" in
        --quick) mode=quick ;;
        --scale) scale=${2:-}; [[ "$scale" =~ ^[1-8]$ ]] || { echo "bench/run.sh: --scale needs a number from 1 to 8" >&2; exit 2; }; shift ;;
        --reuse-dump) reuse=1 ;;
        --keep-dump) keep=1 ;;
        --aot) builds=aot ;;
        --r2r) builds=r2r ;;
        --repeat) repeat=${2:-}; [[ "$repeat" =~ ^[1-9][0-9]*$ ]] || { echo "bench/run.sh: --repeat needs a number" >&2; exit 2; }; shift ;;
        --pairs) pairs=${2:-}; [[ "$pairs" =~ ^[1-9][0-9]*$ ]] || { echo "bench/run.sh: --pairs needs a number" >&2; exit 2; }; shift ;;
        -h|--help) sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "bench/run.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
    shift
done

plan_args=("$mode" "$scale")
[ -n "$pairs" ] || pairs=$([ "$mode" = quick ] && echo 3 || echo 15)
[ "$scale" -eq 1 ] || mode=$mode-x$scale
work=artifacts/bench
runs=$work/runs-$mode
dump=$work/dumps/$mode.core
genlog=$work/dumps/$mode.heapgen.log
mkdir -p "$runs" "$work/dumps"
rm -f "$runs"/*
source bench/lib.sh # log, calc, fail, measure, check, find_createdump, find_dotnet_dump

# ---- what runs where -------------------------------------------------------------------------------------
command -v dotnet >/dev/null 2>&1 || fail "the .NET 10 SDK is missing: run scripts/setup.sh first"
bash scripts/setup-bench.sh
load_start=$(uptime | sed 's/.*load average: //')

log "building diagext and the bench programs (Release)"
for project in bench/HeapGen bench/BareWalk bench/ClassifyBig bench/FirstTouch; do
    dotnet build "$project" -c Release --nologo -v q -clp:"ErrorsOnly;NoSummary" >/dev/null || fail "building $project failed"
done
# diagext as it is shipped: the native executable (Native AOT: no JIT at all, so neither process, the command and
# its isolated child, spends its start compiling; since issue 33 also what 'dotnet tool install' gives on linux-x64),
# and ReadyToRun (precompiled, but generic code over other assemblies' types is still compiled at run time), which
# stands for the JIT forms (the tool's 'any' package is framework-dependent, not even ReadyToRun). bench/RESULTS.md
# compares the two. PublishAot=false: the project turns Native AOT on for linux-x64.
rid=linux-$(uname -m | sed 's/x86_64/x64/; s/aarch64/arm64/')
r2r=() aot=()
if [ "$builds" != aot ]; then
    dotnet publish managed/DiagExt.Cli -c Release -r "$rid" --self-contained false -p:PublishReadyToRun=true -p:PublishAot=false -o "$work/diagext" \
        --nologo -v q -clp:"ErrorsOnly;NoSummary" >/dev/null || fail "publishing diagext (ReadyToRun) failed"
    r2r=("$work/diagext/diagext")
fi
if [ "$builds" != r2r ] && [ -n "${DIAGEXT_AOT:-}" ]; then
    [ -x "$DIAGEXT_AOT" ] || fail "DIAGEXT_AOT=$DIAGEXT_AOT is not an executable"
    log "Native AOT: $DIAGEXT_AOT (DIAGEXT_AOT), not compiled again"
    aot=("$DIAGEXT_AOT")
elif [ "$builds" != r2r ]; then
    if aot_log=$(bash scripts/publish-aot.sh "$work/diagext-aot" 2>&1); then
        aot=("$work/diagext-aot/diagext")
    elif [ "$builds" = aot ]; then
        echo "$aot_log" >&2
        fail "publishing diagext (Native AOT) failed"
    else
        log "Native AOT cannot be built here ($(echo "$aot_log" | grep -m1 -iE 'error|not found|missing' || echo "$aot_log" | tail -n 1)): measuring ReadyToRun only"
    fi
fi
if [ ${#aot[@]} -gt 0 ]; then
    diagext=("${aot[@]}") build="Native AOT"
else
    diagext=("${r2r[@]}") build=ReadyToRun
fi
build_seconds=$SECONDS
barewalk=bench/BareWalk/bin/Release/net10.0/BareWalk
heapgen=bench/HeapGen/bin/Release/net10.0/HeapGen
classifybig=bench/ClassifyBig/bin/Release/net10.0/ClassifyBig
firsttouch=bench/FirstTouch/bin/Release/net10.0/FirstTouch
# The runtime HeapGen runs on (the newest 10.x) ships the createdump that must dump it.
find_createdump

# ---- the dump ----------------------------------------------------------------------------------------------
if [ "$reuse" -eq 1 ] && [ -s "$dump" ] && [ -s "$genlog" ]; then
    log "reusing $dump"
else
    need_gb=$(( ($([ "${plan_args[0]}" = full ] && echo 4 || echo 1)) * scale ))
    free_gb=$(df -P -BG "$work/dumps" | awk 'NR==2 {gsub("G", "", $4); print $4}')
    [ "$free_gb" -ge "$need_gb" ] || fail "$work/dumps has ${free_gb} GB free; the $mode dump needs about $need_gb GB"
    rm -f "$dump"
    log "generating the $mode heap"
    "$heapgen" "${plan_args[@]}" > "$genlog" 2>&1 &
    gen=$!
    trap 'kill $gen 2>/dev/null || true' EXIT
    for _ in $(seq 1 3000); do grep -q '^READY' "$genlog" && break; kill -0 "$gen" 2>/dev/null || break; sleep 0.2; done
    grep -q '^READY' "$genlog" || { cat "$genlog" >&2; fail "HeapGen did not get ready"; }
    dump_start=$(date +%s.%N)
    "$createdump" -u -f "$PWD/$dump" "$gen" >/dev/null || fail "createdump failed on HeapGen (pid $gen)"
    dump_seconds=$(calc "$(date +%s.%N) - $dump_start")
    kill "$gen"
    trap - EXIT
    echo "createdump took ${dump_seconds}s" >> "$genlog"
fi
expected_findings=$(awk '/^EXPECT-FINDINGS/ {print $2}' "$genlog")
plan=$(grep '^PLAN' "$genlog" | sed 's/^PLAN //')
dump_size=$(du -hL "$dump" | cut -f1)
log "dump: $dump ($dump_size); $plan"
# Every command below reads the dump from the page cache, not the disk: read it once first.
cat "$dump" > /dev/null
dump_done=$SECONDS

# ---- measuring -----------------------------------------------------------------------------------------------
names=()
declare -A wall cpu rss code
log "measuring (fastest of $repeat run(s) each)"
measure bare-walk "$barewalk" "$dump"
objects=$(awk '/^OBJECTS/ {print $2}' "$runs/bare-walk.out")
[ -n "$objects" ] || { cat "$runs/bare-walk.err" >&2; fail "the bare walk failed"; }

measure analyze "${diagext[@]}" analyze "$dump" --json
measure "analyze --threads 1" "${diagext[@]}" analyze "$dump" --json --threads 1
if [ ${#aot[@]} -gt 0 ] && [ ${#r2r[@]} -gt 0 ]; then
    measure "analyze (ReadyToRun)" "${r2r[@]}" analyze "$dump" --json
fi
# Every detector analyze runs, alone (a detector that does not apply to this dump exits 2 and says why).
detectors=$(awk '/"detectors": \[/ {in_list=1} in_list && /"name":/ {gsub(/[",]/, "", $2); print $2} in_list && /^  \]/ {exit}' "$runs/analyze.out")
for detector in $detectors; do
    measure "$detector alone" "${diagext[@]}" "$detector" "$dump" --json
done
# Each detector's cost inside analyze (issue 43): analyze against analyze --skip D, which leaves D out entirely, its heap
# interest too, in alternated pairs (fastest-of-N runs taken one command after the other read the machine's drift:
# 1.75-22 % for hang in four runs of one day). Only the detectors that ran on this dump: a skipped one costs nothing.
ran=$(awk '/"detectors": \[/ {in_list=1} in_list && /"name":/ {gsub(/[",]/, "", $2); n=$2} in_list && /"status": "ran"/ {print n} in_list && /^  \]/ {exit}' "$runs/analyze.out")
declare -A cost_of cpu_cost_of without_wall
log "each detector's cost in analyze: $pairs alternated pairs each (analyze, analyze --skip D)"
for detector in $ran; do
    cost_pairs "cost of $detector" "$pairs" "${diagext[@]}" analyze "$dump" --json -- "${diagext[@]}" analyze "$dump" --json --skip "$detector"
    cost_of[$detector]=$cost_wall cpu_cost_of[$detector]=$cost_cpu without_wall[$detector]=$cost_b_wall
done
# The floor under dictcycle's cost: the same pairs with dictcycle only reading its tables' bytes (entries and buckets,
# as the proof reads them) and classifying none (a bench-only hook, said in the report's notes). No proof can cost less.
floor_of=
if grep -qx dictcycle <<< "$ran"; then
    cost_pairs "read floor of dictcycle" "$pairs" env DIAGEXT_BENCH_DICTCYCLE_READ_FLOOR=1 "${diagext[@]}" analyze "$dump" --json -- "${diagext[@]}" analyze "$dump" --json --skip dictcycle
    floor_of="$cost_wall|$cost_cpu"
fi

find_dotnet_dump
if [ ${#dotnet_dump[@]} -gt 0 ]; then
    measure "dotnet-dump dumpheap -stat" "${dotnet_dump[@]}" analyze "$dump" -c "dumpheap -stat" -c exit
    measure "dotnet-dump dumpheap -type Dictionary" "${dotnet_dump[@]}" analyze "$dump" -c "dumpheap -type Dictionary" -c exit
fi

# What this host charges for the first write to fresh memory: dictcycle copies the big tables into fresh arrays, and
# on a VM that cost moves the ratio to the bare walk from one day (or host) to the next (bench/RESULTS.md).
log "the first write to fresh memory on this machine"
"$firsttouch" > "$runs/first-touch.out" 2>&1 || { cat "$runs/first-touch.out" >&2; fail "FirstTouch failed"; }

log "the dictcycle classifier alone on the largest table of the dump"
"$classifybig" "$dump" 5 > "$runs/classify-largest.out" 2>&1 || { cat "$runs/classify-largest.out" >&2; fail "ClassifyBig failed"; }

# ---- checks ------------------------------------------------------------------------------------------------------
checks_failed=0
findings=$(grep -c '"detector": "dictcycle"' "$runs/analyze.out" || true)
check "${code[analyze]}" 1 "analyze exits 1 (hazards found)"
check "$findings" "$expected_findings" "analyze reports the generator's corrupt tables, and only those"
check "$(grep -c '"detector": "dictcycle"' "$runs/analyze --threads 1.out" || true)" "$expected_findings" "analyze --threads 1 reports the same"
if [ -n "${wall[analyze (ReadyToRun)]:-}" ]; then
    check "$(grep -c '"detector": "dictcycle"' "$runs/analyze (ReadyToRun).out" || true)" "$expected_findings" "the ReadyToRun analyze reports the same"
fi
check "$(awk '/"heapObjects":/ {gsub(/,/, "", $2); print $2}' "$runs/analyze.out")" "$objects" "analyze walked the same objects as the bare walk"

# ---- report ------------------------------------------------------------------------------------------------------
load_end=$(uptime | sed 's/.*load average: //')
report=$work/report-$mode.txt
{
    echo "bench/run.sh $mode, $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo "machine: $(nproc) cores ($(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo)), $(awk '/MemTotal/ {printf "%.0f GB", $2 / 1048576}' /proc/meminfo) RAM, Linux $(uname -r)"
    echo "load average (1, 5, 15 min): $load_start at start, $load_end at end"
    echo "diagext: $build; .NET SDK $(dotnet --version), runtime $(basename "$runtime_dir"); ClrMD $(grep -o 'Microsoft.Diagnostics.Runtime" Version="[^"]*' Directory.Packages.props | sed 's/.*Version="//')"
    echo "dump: $dump_size ELF core (createdump -u, $(stat -Lc %s "$dump") bytes); $objects heap objects; $plan"
    echo "dotnet-dump: $dotnet_dump_note"
    echo
    printf '%-38s %9s %9s %10s %14s %11s %10s\n' command "wall s" "CPU s" "peak RSS" "objects/s" "wall/bare" "CPU/bare"
    for name in "${names[@]}"; do
        if [ "${code[$name]}" -gt 1 ]; then
            # Did not run on this dump (e.g. a detector for Windows minidumps): say why instead of a speed.
            printf '%-38s %9.2f %9.2f %7d MB   not applicable: %s\n' "$name" "${wall[$name]}" "${cpu[$name]}" "${rss[$name]}" "$(head -n 1 "$runs/$name.err")"
            continue
        fi
        printf '%-38s %9.2f %9.2f %7d MB %14s %11.2f %10.2f\n' "$name" "${wall[$name]}" "${cpu[$name]}" "${rss[$name]}" \
            "$(calc "$objects / ${wall[$name]}" | cut -d. -f1)" \
            "$(calc "${wall[$name]} / ${wall[bare-walk]}")" "$(calc "${cpu[$name]} / ${cpu[bare-walk]}")"
    done
    echo
    grep -E '^(largest table|read |careful walk|streamed proof|phases|hostile table)' "$runs/classify-largest.out"
    grep -E '^(first write|after madvise|a rewrite)' "$runs/first-touch.out" | sed 's/^/memory: /'
    awk '/"heapPass":/ {p=1} p && /elapsedMs/ {gsub(/,/, "", $2); ms=$2} p && /background/ {print "analyze: heap pass " ms " ms" ($2 == "true" ? ", on its own thread beside the detectors" : ", then the detectors"); exit}' "$runs/analyze.out"
    awk '/"startup":/ {p=1} p && /processStartMs/ {gsub(/,/, "", $2); s=$2} p && /openMs/ {gsub(/,/, "", $2); print "analyze: process start " s " ms (the isolated child: runtime start-up to the command), open " $2 " ms (dump headers, ClrMD, DAC)"; exit}' "$runs/analyze.out"
    # Each detector's own time, then its heap interest's share of the heap pass (the nested "heapInterest" object).
    awk '/"detectors": \[/ {d=1} d && /"name":/ {gsub(/[",]/, "", $2); n=$2; hi=0} d && /"heapInterest":/ {hi=1} d && /"objects":/ {gsub(/,/, "", $2); o=$2}
         d && /"elapsedMs":/ {gsub(/,/, "", $2); print "analyze: " n (hi ? " heap interest " $2 " ms of the heap pass (" o " objects)" : " " $2 " ms")} d && /^  \]/ {exit}' "$runs/analyze.out"
    echo
    echo "bench/run.sh took $SECONDS s: build $build_seconds s, dump $((dump_done - build_seconds)) s, measurements $((SECONDS - dump_done)) s"
    if [ -n "${wall[analyze (ReadyToRun)]:-}" ]; then
        printf 'analyze (ReadyToRun, the dotnet tool)/bare-walk ratio: %.2f\n' "$(calc "${wall[analyze (ReadyToRun)]} / ${wall[bare-walk]}")"
    fi
    echo
    echo "targets (issues 33 and 43; the first two and the table's are set for the full dump):"
    target() { # WHAT VALUE OP LIMIT [VERDICT]: one line with its verdict (VALUE against LIMIT unless one is given)
        local met=${5:-}; [ -n "$met" ] || met=$(awk -v v="$2" -v l="$4" -v op="$3" 'BEGIN { print ((op == "<=" ? v <= l : v >= l) ? "met" : "NOT met") }')
        printf '  %-62s %8.2f %s %-5s %s\n' "$1" "$2" "$3" "$4" "$met"
    }
    target "analyze ($build)/bare walk" "$(calc "${wall[analyze]} / ${wall[bare-walk]}")" "<=" 0.30
    if [ -n "${wall[dotnet-dump dumpheap -stat]:-}" ]; then
        target "dotnet-dump dumpheap -stat / analyze" "$(calc "${wall[dotnet-dump dumpheap -stat]} / ${wall[analyze]}")" ">=" 10
    else
        echo "  dotnet-dump dumpheap -stat / analyze: not measured (dotnet-dump is not here)"
    fi
    target "largest table's first classification, s" "$(awk '/^CLASSIFY_SECONDS/ {print $2}' "$runs/classify-largest.out")" "<=" 0.2
    echo "  each detector's cost in analyze: analyze / analyze --skip D - 1, in %, the median of $pairs alternated pairs; in brackets"
    echo "  where the true median lies with 95 % confidence, then the spread; met when all of that interval is <= 5, NOT met"
    echo "  when all of it is above, cannot tell when it holds 5 (more pairs, --pairs N, narrow it):"
    for detector in $ran; do
        read -r median low high lower upper <<< "${cost_of[$detector]}"
        verdict=$(awk -v lo="$lower" -v hi="$upper" 'BEGIN { print (hi <= 5 ? "met" : lo > 5 ? "NOT met" : "cannot tell") }')
        target "$detector's cost in analyze, % ($lower to $upper; $low to $high)" "$median" "<=" 5 "$verdict"
    done
    if [ -n "$floor_of" ]; then
        read -r median low high _ <<< "${floor_of%%|*}"
        printf '  %-62s %8.2f\n' "dictcycle's read floor in analyze, % ($low to $high)" "$median"
        read -r median low high _ <<< "${floor_of##*|}"
        printf '  %-62s %8.2f\n' "dictcycle's read floor in analyze, CPU % ($low to $high)" "$median"
    fi
    for detector in $ran; do
        read -r median low high _ <<< "${cpu_cost_of[$detector]}"
        printf '  %-62s %8.2f\n' "$detector's CPU cost in analyze, % ($low to $high)" "$median"
    done
    # What analyze costs without each detector (the pairs' other side, median wall): with dictcycle left out this is
    # the rest of analyze against the floor, which no change to dictcycle can bring below.
    for detector in $ran; do
        printf '  %-62s %8.2f\n' "analyze --skip $detector / bare walk" "$(calc "${without_wall[$detector]} / ${wall[bare-walk]}")"
    done
    echo "  small dumps (a healthy process, the demo's corrupt table) against dotnet-dump: bench/small.sh"
    printf 'analyze/bare-walk ratio: %.2f (%s)\n' "$(calc "${wall[analyze]} / ${wall[bare-walk]}")" "$build"
} | tee "$report"
log "report saved to $report; outputs of each command in $runs/"

if [ "${plan_args[0]}" = full ] && [ "$keep" -eq 0 ]; then
    rm -f "$dump"
    log "deleted the full dump (--keep-dump keeps it)"
fi
exit "$checks_failed"
