#!/usr/bin/env bash
# Runs every test: installs what is missing, builds, runs the NUnit suite (which builds the samples,
# runs them and dumps them), and prints "N passed, N failed" parsed from the TRX results.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh

results=artifacts/test-results
rm -rf "$results"
set +e
dotnet test DiagExt.sln -c Release --no-build --nologo \
    --logger "trx;LogFileName=results.trx" --results-directory "$results" \
    --blame-hang-timeout 20m -- NUnit.NumberOfTestWorkers=1
set -e
bash scripts/trx-summary.sh "$results"
