#!/usr/bin/env bash
# Edges of DiagExt.Core (SharpFuzz's AFL map) that each fuzzer's inputs reach, counted the same way for both:
# every input replayed once through the instrumented harness of the last `afl.sh TARGET` campaign (afl-showmap -C).
#
#   tests/Fuzz/afl-coverage.sh TARGET
#
# seeds:  what afl.sh gave afl-fuzz (artifacts/afl/TARGET/seeds)
# afl:    afl-fuzz's queue at the end of the campaign (artifacts/afl/TARGET/out/default/queue)
# runner: the structure-aware runner's inputs: its seeds, its kept corpus (artifacts/fuzz/seeds/TARGET,
#         artifacts/fuzz/TARGET/corpus) and the regression corpus (tests/Fuzz/corpus/TARGET)
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
[[ $# -eq 1 ]] || { echo "usage: tests/Fuzz/afl-coverage.sh TARGET" >&2; exit 2; }
TARGET="$1"
AFL_WORK="${AFL_WORK:-$ROOT/artifacts/afl}"
WORK="$AFL_WORK/$TARGET"
[[ -f "$WORK/bin/DiagExt.AflHarness.dll" ]] || { echo "error: no instrumented harness in $WORK/bin: run tests/Fuzz/afl.sh $TARGET first" >&2; exit 2; }
TIMEOUT_MS="${AFL_TIMEOUT_MS:-$([[ $TARGET == wcf ]] && echo 20000 || echo 10000)}"
export AFL_SKIP_BIN_CHECK=1 AFL_NO_AFFINITY=1 DOTNET_GCHeapHardLimit=0xC0000000
MAPS="$WORK/coverage"
rm -rf "$MAPS"
mkdir -p "$MAPS"
cd "$ROOT"

# One folder of plain inputs per side (the runner stores large mostly-zero inputs gzipped).
gather() {
    local into="$MAPS/$1-inputs"; shift
    mkdir -p "$into"
    local n=0 dir f
    for dir in "$@"; do
        [[ -d "$dir" ]] || continue
        while IFS= read -r -d '' f; do
            n=$((n + 1))
            case "$f" in
                *.txt|*.md) ;;
                *.gz) gunzip -c "$f" >"$into/$n" ;;
                *) cp "$f" "$into/$n" ;;
            esac
        done < <(find "$dir" -type f -print0)
    done
}

# Edge ids reached by a folder's inputs, one per line (afl-showmap writes "id:hits").
edges() {
    local side="$1"
    if [[ -z "$(ls -A "$MAPS/$side-inputs" 2>/dev/null)" ]]; then : >"$MAPS/$side.edges"; return; fi
    nice -n 10 afl-showmap -C -i "$MAPS/$side-inputs" -o "$MAPS/$side.map" -t "$TIMEOUT_MS" -m none \
        -- dotnet "$WORK/bin/DiagExt.AflHarness.dll" fuzz "$TARGET" >"$MAPS/$side.log" 2>&1 || true
    cut -d: -f1 "$MAPS/$side.map" 2>/dev/null | sort -u >"$MAPS/$side.edges"
}

gather seeds "$WORK/seeds"
gather afl "$WORK/out/default/queue"
gather runner "$ROOT/artifacts/fuzz/seeds/$TARGET" "$ROOT/artifacts/fuzz/$TARGET/corpus" "$ROOT/tests/Fuzz/corpus/$TARGET"
for side in seeds afl runner; do edges "$side"; done

count() { wc -l <"$1" | tr -d ' '; }
printf '%-10s %8s %8s %8s %8s %8s %8s %8s %8s\n' target seeds afl runner both afl-only run-only afl-in run-in
printf '%-10s %8s %8s %8s %8s %8s %8s %8s %8s\n' "$TARGET" "$(count "$MAPS/seeds.edges")" "$(count "$MAPS/afl.edges")" "$(count "$MAPS/runner.edges")" \
    "$(comm -12 "$MAPS/afl.edges" "$MAPS/runner.edges" | wc -l)" "$(comm -23 "$MAPS/afl.edges" "$MAPS/runner.edges" | wc -l)" \
    "$(comm -13 "$MAPS/afl.edges" "$MAPS/runner.edges" | wc -l)" "$(ls "$MAPS/afl-inputs" | wc -l)" "$(ls "$MAPS/runner-inputs" | wc -l)"
