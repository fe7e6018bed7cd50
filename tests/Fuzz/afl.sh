#!/usr/bin/env bash
# Coverage-guided fuzzing of one DiagExt reader with AFL++ and SharpFuzz (see tests/Fuzz/README.md).
#
#   tests/Fuzz/afl.sh TARGET SECONDS      TARGET: minidump pe elf il hashtable dml wcf hang, or all (one after the other)
#
# Installs AFL++ (apt) and the SharpFuzz tool when missing, builds DiagExt.AflHarness, copies its output to
# artifacts/afl/TARGET/bin and instruments that copy's DiagExt.Core.dll (never the build output other projects use),
# exports the runner's seeds and tokens, runs afl-fuzz for SECONDS, prints its numbers (and appends them to
# artifacts/afl/campaigns.tsv), and minimises every crash and hang with afl-tmin into tests/Fuzz/corpus/TARGET/,
# which the suite replays. Exit code: 0 nothing found, 1 crashes or hangs found, 2 usage or setup error, 3 AFL++
# is missing and cannot be installed.
#
# Environment: AFL_WORK (instead of artifacts/afl), AFL_FINDINGS_DIR (instead of tests/Fuzz/corpus/TARGET), AFL_TIMEOUT_MS (per input, default 10000 as the runner's watchdog; wcf and hang 20000), AFL_SKIP_BUILD=1
# (reuse the harness build), AFL_HARNESS_OUT (a copy of its output to use instead), AFL_NO_TMIN=1, SHARPFUZZ (the
# tool's path).
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
TARGETS=(minidump pe elf il hashtable dml wcf hang)
SHARPFUZZ_VERSION=2.3.0

usage() { echo "usage: tests/Fuzz/afl.sh TARGET SECONDS   (TARGET: ${TARGETS[*]} or all)" >&2; exit 2; }
[[ $# -eq 2 && "$2" =~ ^[0-9]+$ ]] || usage
TARGET="$1"
SECONDS_PER_TARGET="$2"
if [[ "$TARGET" == all ]]; then
    status=0
    for t in "${TARGETS[@]}"; do "$0" "$t" "$SECONDS_PER_TARGET" || status=$(( $? > status ? $? : status )); done
    exit $status
fi
[[ " ${TARGETS[*]} " == *" $TARGET "* ]] || usage

as_root() { if [[ $(id -u) -eq 0 ]]; then "$@"; else sudo -n "$@"; fi; }

if ! command -v afl-fuzz >/dev/null; then
    echo "installing AFL++ (apt)" >&2
    as_root apt-get install -y afl++ >/dev/null || { echo "error: AFL++ could not be installed (apt-get install afl++)" >&2; exit 3; }
fi
SHARPFUZZ="${SHARPFUZZ:-$(command -v sharpfuzz || echo "$ROOT/artifacts/afl/tools/sharpfuzz")}"
if [[ ! -x "$SHARPFUZZ" ]]; then
    echo "installing SharpFuzz.CommandLine $SHARPFUZZ_VERSION" >&2
    dotnet tool install SharpFuzz.CommandLine --version "$SHARPFUZZ_VERSION" --tool-path "$ROOT/artifacts/afl/tools" >/dev/null \
        || { echo "error: the SharpFuzz tool could not be installed" >&2; exit 2; }
    SHARPFUZZ="$ROOT/artifacts/afl/tools/sharpfuzz"
fi

HARNESS_OUT="${AFL_HARNESS_OUT:-$ROOT/tests/Fuzz/DiagExt.AflHarness/bin/Release/net10.0}"
if [[ "${AFL_SKIP_BUILD:-}" != 1 ]]; then
    dotnet build "$ROOT/tests/Fuzz/DiagExt.AflHarness" -c Release -nologo -v quiet >/dev/null \
        || { echo "error: building DiagExt.AflHarness failed" >&2; exit 2; }
fi

AFL_WORK="${AFL_WORK:-$ROOT/artifacts/afl}"
WORK="$AFL_WORK/$TARGET"
FINDINGS="${AFL_FINDINGS_DIR:-$ROOT/tests/Fuzz/corpus/$TARGET}"
BIN="$WORK/bin"
rm -rf "$BIN" "$WORK/seeds" "$WORK/out"
mkdir -p "$WORK"
cp -r "$HARNESS_OUT" "$BIN"
"$SHARPFUZZ" "$BIN/DiagExt.Core.dll" || { echo "error: sharpfuzz could not instrument DiagExt.Core.dll" >&2; exit 2; }
HARNESS=(dotnet "$BIN/DiagExt.AflHarness.dll" fuzz "$TARGET")

cd "$ROOT" # the harness finds seeds and the corpus from here
dotnet "$BIN/DiagExt.AflHarness.dll" prepare "$TARGET" "$WORK"
if [[ -z "$(ls -A "$WORK/seeds")" ]]; then
    echo "error: no seeds for $TARGET (wcf and hang need the cores the suite makes in artifacts/test-work/dumps)" >&2
    exit 2
fi

# SharpFuzz's docs: -m none (the .NET runtime reserves far more address space than AFL's default allows) and
# AFL_SKIP_BIN_CHECK (the program afl-fuzz starts is dotnet, not an AFL-compiled binary). The rest: Debian's AFL++
# refuses to start while the kernel hands core dumps to a program or the CPU governor is not "performance".
export AFL_SKIP_BIN_CHECK=1 AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_UI=1 AFL_NO_AFFINITY=1
# As the runner's workers: a runaway allocation is an OutOfMemoryException (a finding), not a machine out of memory.
export DOTNET_GCHeapHardLimit=0xC0000000
TIMEOUT_MS="${AFL_TIMEOUT_MS:-$([[ $TARGET == wcf || $TARGET == hang ]] && echo 20000 || echo 10000)}"

echo "afl-fuzz $TARGET for ${SECONDS_PER_TARGET}s (load: $(cut -d' ' -f1-3 /proc/loadavg))"
LOAD_BEFORE="$(cut -d' ' -f1 /proc/loadavg)"
nice -n 10 afl-fuzz -V "$SECONDS_PER_TARGET" -i "$WORK/seeds" -o "$WORK/out" -x "$WORK/tokens.dict" -t "$TIMEOUT_MS" -m none \
    -- "${HARNESS[@]}" >"$WORK/afl-fuzz.log" 2>&1 || { tail -n 30 "$WORK/afl-fuzz.log" >&2; echo "error: afl-fuzz failed ($WORK/afl-fuzz.log)" >&2; exit 2; }
LOAD_AFTER="$(cut -d' ' -f1-3 /proc/loadavg)"

STATS="$WORK/out/default/fuzzer_stats"
field() { sed -n "s/^$1 *: //p" "$STATS"; }
printf '%-10s %8s %12s %10s %8s %8s %10s %8s %6s  %s\n' target seconds execs execs/s edges bitmap stability crashes hangs "load (1 min) before -> after (1, 5, 15 min)"
printf '%-10s %8s %12s %10s %8s %8s %10s %8s %6s  load %s -> %s\n' "$TARGET" "$(field run_time)" "$(field execs_done)" "$(field execs_per_sec)" \
    "$(field edges_found)" "$(field bitmap_cvg)" "$(field stability)" "$(field saved_crashes)" "$(field saved_hangs)" "$LOAD_BEFORE" "$LOAD_AFTER"
printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%FT%TZ)" "$TARGET" "$(field run_time)" "$(field execs_done)" "$(field execs_per_sec)" \
    "$(field edges_found)" "$(field bitmap_cvg)" "$(field stability)" "$(field saved_crashes)" "$(field saved_hangs)" "$LOAD_BEFORE" "$LOAD_AFTER" \
    >>"$AFL_WORK/campaigns.tsv"

found=0
for f in "$WORK"/out/default/crashes/id:* "$WORK"/out/default/hangs/id:*; do
    [[ -e "$f" ]] || continue
    found=1
    kind="$(basename "$(dirname "$f")")"
    id="$(basename "$f" | sed 's/^id:\([0-9]*\).*/\1/')"
    out="$FINDINGS/afl-$kind-$id-$(sha256sum "$f" | cut -c1-8).bin"
    mkdir -p "$(dirname "$out")"
    if [[ "${AFL_NO_TMIN:-}" == 1 ]] || ! nice -n 10 afl-tmin -i "$f" -o "$out" -t "$TIMEOUT_MS" -m none -- "${HARNESS[@]}" >"$WORK/afl-tmin.log" 2>&1; then
        cp "$f" "$out" # afl-tmin failed or was not wanted: keep the input as found
    fi
    chmod 644 "$out" # afl-tmin writes 0600; the corpus is committed
    echo "$kind: $out ($(stat -c %s "$out") bytes; replay: dotnet tests/Fuzz/DiagExt.Fuzz/bin/Release/net10.0/DiagExt.Fuzz.dll replay $TARGET $out)"
done
exit $found
