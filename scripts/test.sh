#!/usr/bin/env bash
# Runs every test: installs what is missing, builds, runs the NUnit suite (which builds the samples,
# runs them and dumps them), and prints "N passed, N failed, N skipped" parsed from the TRX results.
set -euo pipefail
cd "$(dirname "$0")/.."

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

results=artifacts/test-results
rm -rf "$results"
set +e
dotnet test DiagExt.sln -c Release --no-build --nologo \
    --logger "trx;LogFileName=results.trx" --results-directory "$results" \
    --blame-hang-timeout 20m -- NUnit.NumberOfTestWorkers=1
set -e
bash scripts/trx-summary.sh "$results"
