# Shared by the bench scripts (sourced, not run): logging, arithmetic, timing a command, a cost from alternated
# pairs, checking a result, starting HeapGen, and finding the programs measured (dotnet-dump, the runtime's createdump).
# The caller sets: work (artifacts folder), runs (where outputs go), repeat (runs per command), and declares
#   names=() and declare -A wall cpu rss code   before calling measure.

log() { printf '[bench] %s\n' "$*" >&2; }
calc() { awk "BEGIN { printf \"%.4f\", $* }"; }
fail() { log "$*"; exit 2; }

# timed_run FILE COMMAND...: one run under GNU time, stdout/stderr in FILE.out/FILE.err; sets run_wall (GNU time's, 0.01 s),
# run_clock (the same run's wall from a nanosecond clock, for ratios of runs a few tenths of a second long), run_cpu,
# run_rss (MB) and run_status.
timed_run() {
    local file=$1; shift
    local start u s m
    start=$(date +%s%N)
    set +e
    /usr/bin/time -f '%e %U %S %M' -o "$file.time" "$@" > "$file.out" 2> "$file.err" < /dev/null
    run_status=$?
    set -e
    run_clock=$(calc "($(date +%s%N) - $start) / 1e9")
    # GNU time prefixes "Command exited with non-zero status N" on failure: the numbers are the last line.
    read -r run_wall u s m < <(tail -n 1 "$file.time")
    run_cpu=$(calc "$u + $s") run_rss=$((m / 1024))
}

# measure NAME COMMAND...: the fastest of $repeat runs under GNU time; stdout/stderr kept in $runs/NAME.*
measure() {
    local name=$1; shift
    local best="" i
    for i in $(seq 1 "$repeat"); do
        timed_run "$runs/$name.$i" "$@"
        if [ -z "$best" ] || awk -v a="$run_wall" -v b="$best" 'BEGIN { exit !(a < b) }'; then
            best=$run_wall
            wall[$name]=$run_wall cpu[$name]=$run_cpu rss[$name]=$run_rss code[$name]=$run_status
            cp "$runs/$name.$i.out" "$runs/$name.out"
            cp "$runs/$name.$i.err" "$runs/$name.err"
        fi
    done
    names+=("$name")
    log "$(printf '%-28s %7.2fs wall %7.2fs CPU %6d MB  (exit %s)' "$name" "${wall[$name]}" "${cpu[$name]}" "${rss[$name]}" "${code[$name]}")"
}

# cost_pairs NAME PAIRS A... -- B...: what A costs over B, from PAIRS alternated runs (A, B, A, B ...: a machine whose
# speed drifts slows both sides of a pair alike), each pair's ratio A/B - 1 in %, wall and CPU. Sets cost_wall and
# cost_cpu to "MEDIAN MIN MAX LOW HIGH" of the pair ratios (quote the median; LOW to HIGH holds the true median with 95 %
# confidence, see median_spread; the spread says how noisy the machine was), and
# cost_b_wall to the median wall of B's runs, in seconds.
# Fails when a run exits above 3 (an error, not an analysis).
cost_pairs() {
    local name=$1 pairs=$2; shift 2
    local a=() b=() side=a arg i wa ca
    for arg in "$@"; do
        if [ "$side" = a ] && [ "$arg" = -- ]; then side=b; elif [ "$side" = a ]; then a+=("$arg"); else b+=("$arg"); fi
    done
    local walls=() cpus=() b_walls=()
    for i in $(seq 1 "$pairs"); do
        timed_run "$runs/$name.a$i" "${a[@]}"
        [ "$run_status" -le 3 ] || { cat "$runs/$name.a$i.err" >&2; fail "$name: ${a[*]} exited $run_status"; }
        wa=$run_clock ca=$run_cpu
        timed_run "$runs/$name.b$i" "${b[@]}"
        [ "$run_status" -le 3 ] || { cat "$runs/$name.b$i.err" >&2; fail "$name: ${b[*]} exited $run_status"; }
        walls+=("$(calc "($wa / $run_clock - 1) * 100")")
        b_walls+=("$run_clock")
        cpus+=("$(awk -v a="$ca" -v b="$run_cpu" 'BEGIN { printf "%.4f", (b > 0 ? (a / b - 1) * 100 : 0) }')")
    done
    cost_wall=$(printf '%s\n' "${walls[@]}" | median_spread)
    cost_cpu=$(printf '%s\n' "${cpus[@]}" | median_spread)
    cost_b_wall=$(printf '%s\n' "${b_walls[@]}" | median_spread | cut -d' ' -f1)
    log "$(printf '%-28s %s pairs: wall %+.1f %% (median; %+.1f to %+.1f), CPU %+.1f %%' "$name" "$pairs" $(cut -d' ' -f1-3 <<< "$cost_wall") ${cost_cpu%% *})"
}

# median_spread: numbers on stdin, one a line -> "MEDIAN MIN MAX LOW HIGH": LOW and HIGH the order statistics that hold
# the true median with at least 95 % confidence whatever the distribution (the k-th smallest and largest, k the largest
# with P(Binomial(n, 1/2) < k) <= 2.5 %): from 15 pairs the 4th and the 12th; under 9 pairs no k fits, they are MIN and MAX.
median_spread() {
    sort -g | awk '{ v[NR] = $1 } END {
        n = NR; m = n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
        k = 1; below = 0.5 ^ n; term = n * 0.5 ^ n # below: P(X < k), term: P(X = k)
        while (k < n / 2 && below + term <= 0.025) { below += term; k++; term = term * (n - k + 1) / k }
        printf "%.2f %.2f %.2f %.2f %.2f\n", m, v[1], v[n], v[k], v[n + 1 - k] }'
}

# check ACTUAL EXPECTED WHAT: one line saying whether a run gave what it must; a miss sets checks_failed=1 (the
# caller sets checks_failed=0 first and exits with it).
check() { if [ "$1" = "$2" ]; then log "check ok: $3 ($1)"; else log "CHECK FAILED: $3: expected $2, got $1"; checks_failed=1; fi; }

# The createdump of the newest installed .NET 10 runtime (the one the bench programs and samples run on); sets
# runtime_dir and createdump.
find_createdump() {
    runtime_dir=$(dotnet --list-runtimes | awk '/Microsoft.NETCore.App 10\./ {v=$2; p=$3} END {gsub(/[\[\]]/, "", p); print p "/" v}')
    createdump=$runtime_dir/createdump
    [ -x "$createdump" ] || fail "no createdump in $runtime_dir"
}

# dotnet-dump, when it is here or installs (the NuGet mirror of a build machine may not have it); DOTNET_DUMP names
# one built elsewhere, to measure it anyway. Sets dotnet_dump (empty when there is none) and dotnet_dump_note.
find_dotnet_dump() {
    dotnet_dump=() dotnet_dump_note=""
    local install_log
    if command -v dotnet-dump >/dev/null 2>&1; then
        dotnet_dump=(dotnet-dump)
    elif [ -x "$work/tools/dotnet-dump" ]; then
        dotnet_dump=("$work/tools/dotnet-dump")
    else
        log "dotnet-dump is not installed: trying 'dotnet tool install dotnet-dump'"
        if install_log=$(timeout 300 dotnet tool install dotnet-dump --tool-path "$work/tools" 2>&1); then
            dotnet_dump=("$work/tools/dotnet-dump")
        else
            dotnet_dump_note="'dotnet tool install dotnet-dump' failed here: $(echo "$install_log" | grep -m1 -iE 'error|unable|not found|could not' || echo "$install_log" | head -n 1)"
        fi
    fi
    if [ -n "${DOTNET_DUMP:-}" ]; then
        read -r -a dotnet_dump <<< "$DOTNET_DUMP"
    fi
    if [ ${#dotnet_dump[@]} -gt 0 ]; then
        dotnet_dump_note="${dotnet_dump_note:+$dotnet_dump_note; }measured: dotnet-dump $("${dotnet_dump[@]}" --version 2>/dev/null | head -n 1) (${dotnet_dump[*]})"
    else
        dotnet_dump_note="$dotnet_dump_note; not measured"
    fi
}

# start_heapgen MODE: builds bench/HeapGen, runs it in MODE (quick|full) in the background until it prints READY, and
# prints its PLAN line and size; sets gen (its pid) and gen_log (its output), and kills it when the script exits.
start_heapgen() {
    dotnet build bench/HeapGen -c Release --nologo -v q -clp:"ErrorsOnly;NoSummary" >/dev/null || fail "building bench/HeapGen failed"
    gen_log=$(mktemp)
    bench/HeapGen/bin/Release/net10.0/HeapGen "$1" > "$gen_log" 2>&1 &
    gen=$!
    trap 'kill $gen 2>/dev/null || true; rm -f "$gen_log"' EXIT
    for _ in $(seq 1 3000); do grep -q '^READY' "$gen_log" && break; kill -0 "$gen" 2>/dev/null || break; sleep 0.2; done
    grep -q '^READY' "$gen_log" || { cat "$gen_log" >&2; fail "HeapGen did not get ready"; }
    grep '^PLAN' "$gen_log"
    echo "process $gen: RSS $(awk '/VmRSS/ {printf "%.0f MB", $2 / 1024}' "/proc/$gen/status"); $(uptime | sed 's/.*load average/load average/')"
}

