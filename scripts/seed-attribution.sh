#!/usr/bin/env bash
# The seed-race attribution campaign (issue 26): dumps of samples/DictCycleSeed's caught race (three threads hammering one
# static Dictionary, each call caught), self-contained for .NET 8.0.33 and 9.0.23 and dumped by each runtime's own
# createdump, every one analysed by `diagext dictcycle`. Each finding must name only threads the sample says hammer the
# table now (it prints their managed ids before DiagExt looks) and at least one of them; the verdict must name each
# exception type the census found. Half the dumps have a main thread that threw from the table and returned from Main.
# It runs the suite's DictCycleSeedAttributionTests race test on fresh dumps (the suite checks one per runtime), then prints
# the table of dumps and the totals. A race needs the writers to overlap: on a busy machine it takes more launches.
#
# usage: scripts/seed-attribution.sh [--dumps N] [--no-build]
#   --dumps N     N dumps per runtime (default 24: 48 in all)
#   --no-build    use the tests and diagext as built (e.g. in a copy of the tree, while the tree itself is rebuilt)
# Output: artifacts/seed-attribution/dumps.tsv (one line per dump) and the summary on stdout.
# Exit code: 0 when every dump passed, 1 when any named a wrong thread (or none), 2 on a usage or build error.
set -euo pipefail
cd "$(dirname "$0")/.."

dumps=24
build=1
while [ $# -gt 0 ]; do
    case "$1" in
        --dumps) dumps=${2:-}; [[ "$dumps" =~ ^[1-9][0-9]*$ ]] || { echo "seed-attribution.sh: --dumps needs a number" >&2; exit 2; }; shift ;;
        --no-build) build=0 ;;
        -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "seed-attribution.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
    shift
done

out=artifacts/seed-attribution
mkdir -p "$out"
log=$out/dumps.tsv
rm -f "$log"
echo "load at start: $(uptime | sed 's/.*load average: //')"
if [ $build = 1 ]; then
    # diagext runs in the test process (tests/.../Infrastructure/Diagext.cs): building the tests builds what they run.
    dotnet build tests/DiagExt.Tests -c Release --nologo -v q -clp:"ErrorsOnly;NoSummary" >/dev/null || { echo "seed-attribution.sh: build failed" >&2; exit 2; }
fi

start=$(date +%s)
set +e
DIAGEXT_SEED_DUMPS=$dumps DIAGEXT_SEED_LOG=$PWD/$log dotnet test tests/DiagExt.Tests -c Release --no-build --nologo \
    --filter "FullyQualifiedName~DictCycleSeedAttributionTests.Every_finding_names_only_hammering_threads" \
    --logger "console;verbosity=normal" > "$out/test.log" 2>&1
status=$?
set -e
echo "load at end: $(uptime | sed 's/.*load average: //'); $(( ($(date +%s) - start) / 60 )) min"

printf 'runtime\tdump\tmode\tlaunches\tfindings\tnamed\thammering named\tproblems\tcensus\tverdict\n'
cut -f1-10 "$log" 2>/dev/null || true
awk -F'\t' '
    { d[$1]++; f[$1] += $5; n[$1] += $6; h[$1] += $7; p[$1] += $8; l[$1] += $4; if ($9 ~ /,/) both[$1]++ }
    END {
        for (r in d) {
            printf "%s: %d dumps (%d launches), %d findings, %d threads named, %d of them hammering, %d problems, %d dumps whose census has both exception types\n", r, d[r], l[r], f[r], n[r], h[r], p[r], both[r]
            D += d[r]; P += p[r]
        }
        printf "total: %d dumps, %d problems\n", D, P
    }' "$log" 2>/dev/null || true
# DumpMaker writes one progress line per createdump that died (the 8.0/9.0 createdump dies inside the DAC now and then).
retries=$(grep -c "^ *createdump of process .* failed" "$out/test.log" || true)
echo "createdump died and was retried: $retries times"
grep -o "failed (exit code [^:]*" "$out/test.log" | sort | uniq -c || true
if [ $status -ne 0 ]; then
    grep -E "named |no hammering|verdict" "$out/test.log" | head -40 || true
    echo "see $out/test.log"
    exit 1
fi
