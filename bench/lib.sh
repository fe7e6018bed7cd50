# Shared by the bench scripts (sourced, not run): logging, arithmetic, timing a command, checking a
# result, and finding the programs both measure (dotnet-dump, the runtime's createdump).
# The caller sets: work (artifacts folder), runs (where outputs go), repeat (runs per command), and declares
#   names=() and declare -A wall cpu rss code   before calling measure.

log() { printf '[bench] %s\n' "$*" >&2; }
calc() { awk "BEGIN { printf \"%.4f\", $* }"; }
fail() { log "$*"; exit 2; }

# measure NAME COMMAND...: the fastest of $repeat runs under GNU time; stdout/stderr kept in $runs/NAME.*
measure() {
    local name=$1; shift
    local best="" i
    for i in $(seq 1 "$repeat"); do
        set +e
        /usr/bin/time -f '%e %U %S %M' -o "$runs/$name.time" "$@" > "$runs/$name.out.$i" 2> "$runs/$name.err.$i" < /dev/null
        local status=$?
        set -e
        # GNU time prefixes "Command exited with non-zero status N" on failure: the numbers are the last line.
        read -r w u s m < <(tail -n 1 "$runs/$name.time")
        if [ -z "$best" ] || awk -v a="$w" -v b="$best" 'BEGIN { exit !(a < b) }'; then
            best=$w
            wall[$name]=$w cpu[$name]=$(calc "$u + $s") rss[$name]=$((m / 1024)) code[$name]=$status
            cp "$runs/$name.out.$i" "$runs/$name.out"
            cp "$runs/$name.err.$i" "$runs/$name.err"
        fi
    done
    names+=("$name")
    log "$(printf '%-28s %7.2fs wall %7.2fs CPU %6d MB  (exit %s)' "$name" "${wall[$name]}" "${cpu[$name]}" "${rss[$name]}" "${code[$name]}")"
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

