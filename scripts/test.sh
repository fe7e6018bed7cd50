#!/usr/bin/env bash
# Runs every test: installs what is missing, builds, runs the NUnit suite (which builds the samples,
# runs them and dumps them), and prints "N passed, N failed, N skipped" parsed from the TRX results.
#   scripts/test.sh          the whole suite (what CI runs)
#   scripts/test.sh --fast   the unit category only, two fixtures at a time: the loop while editing
#                            (no sample started, no dump made; tests/DiagExt.Tests/Infrastructure/TestKind.cs)
set -euo pipefail
cd "$(dirname "$0")/.."

filter=(); workers=1
case "${1:-}" in
    "") ;;
    --fast) filter=(--filter "TestCategory=unit"); workers=2 ;;
    -h|--help) sed -n '2,6p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "scripts/test.sh: unknown option '$1' (use --fast, or nothing for the whole suite)" >&2; exit 2 ;;
esac

# The team's Windows dumps live outside the repository, where tests/DiagExt.Tests/Infrastructure/Repo.cs looks:
# beside the clone, or beside the folder holding it. Without them the tests that need them are skipped.
near=$(cd .. && pwd)/shared/dumps/windows-native
further=$(cd ../.. && pwd)/shared/dumps/windows-native
if [ -d "$near" ]; then
    echo "shared Windows dumps: found in $near"
elif [ -d "$further" ]; then
    echo "shared Windows dumps: found in $further"
else
    echo "shared Windows dumps: not found (looked in $near and $further); the tests that need them are skipped"
fi
bash scripts/setup.sh
# A full run needs about 7 GB in artifacts/ (samples, dumps kept under 3 GB by tests/.../DumpShelf.cs, Wine's prefix);
# said up front, since a CI disk that filled up failed tests with "No space left on device" half-way through.
mkdir -p artifacts
echo "disk: $(df -Pk artifacts | awk 'NR==2 {printf "%.1f GB", $4/1048576}') free in artifacts/ before the tests"

results=artifacts/test-results
rm -rf "$results"
set +e
dotnet test DiagExt.sln -c Release --no-build --nologo "${filter[@]}" \
    --logger "trx;LogFilePrefix=results" --results-directory "$results" \
    --blame-hang-timeout 20m -- NUnit.NumberOfTestWorkers=$workers
set -e
echo "disk: $(du -sk artifacts | awk '{printf "%.1f GB", $1/1048576}') in artifacts/ after the tests, $(df -Pk artifacts | awk 'NR==2 {printf "%.1f GB", $4/1048576}') free"
bash scripts/trx-summary.sh "$results"
