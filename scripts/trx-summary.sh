#!/usr/bin/env bash
# Prints "N passed, N failed, N skipped" summed over the TRX files in a folder; exits 1 if any failed or none ran.
# Skipped is what was found but not run (ignored, Assume not met, explicit): total minus executed, since the
# TRX logger leaves its notExecuted counter at 0 for them.
set -euo pipefail
dir=${1:?usage: trx-summary.sh RESULTS_DIR}
passed=0; failed=0; skipped=0; found=0
while IFS= read -r -d '' trx; do
    found=1
    counters=$(grep -o '<Counters [^>]*>' "$trx" | head -1)
    p=$(sed -n 's/.* passed="\([0-9]*\)".*/\1/p' <<<"$counters")
    f=$(sed -n 's/.* failed="\([0-9]*\)".*/\1/p' <<<"$counters")
    e=$(sed -n 's/.* error="\([0-9]*\)".*/\1/p' <<<"$counters")
    t=$(sed -n 's/.* timeout="\([0-9]*\)".*/\1/p' <<<"$counters")
    a=$(sed -n 's/.* aborted="\([0-9]*\)".*/\1/p' <<<"$counters")
    total=$(sed -n 's/.* total="\([0-9]*\)".*/\1/p' <<<"$counters")
    executed=$(sed -n 's/.* executed="\([0-9]*\)".*/\1/p' <<<"$counters")
    passed=$((passed + ${p:-0}))
    failed=$((failed + ${f:-0} + ${e:-0} + ${t:-0} + ${a:-0}))
    skipped=$((skipped + ${total:-0} - ${executed:-0}))
done < <(find "$dir" -name '*.trx' -print0)
if [ "$found" -eq 0 ]; then
    echo "0 passed, 1 failed, 0 skipped"
    exit 1
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
