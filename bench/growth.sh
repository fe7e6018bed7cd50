#!/usr/bin/env bash
# Growth (issue 33): bench/run.sh at about 1, 10 and 40 million objects, then one table of wall, CPU, peak RSS and
# time per object for the bare walk, diagext (Native AOT, the installed tool; ReadyToRun, the 'any' package's form)
# and dotnet-dump at each size, with two verdicts: diagext's time per object stays within 20 % of the 1 M run's,
# and its peak RSS stays at most 25 % of the dump; then the cost of each added object between successive sizes (fixed
# costs cancel out there). A benchmark, not a test: minutes of CPU and a 4 GB dump.
#   bench/growth.sh [--repeat N] [--sizes "quick full x4"]   (x2..x8: the full plan times N)
# Reports: artifacts/bench/growth/<size>.txt (bench/run.sh's own) and artifacts/bench/growth/table.md.
set -euo pipefail
cd "$(dirname "$0")/.."
repeat=1 sizes="quick full x4"
while [ $# -gt 0 ]; do
    case "$1" in
        --repeat) repeat=${2:-}; [[ "$repeat" =~ ^[1-9][0-9]*$ ]] || { echo "bench/growth.sh: --repeat needs a number" >&2; exit 2; }; shift ;;
        --sizes) sizes=${2:-}; [[ "$sizes" =~ ^((quick|full|x[2-8])( |$))+$ ]] || { echo "bench/growth.sh: --sizes takes quick, full and x2..x8" >&2; exit 2; }; shift ;;
        -h|--help) sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "bench/growth.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
    shift
done
out=artifacts/bench/growth
mkdir -p "$out"
status=0
for size in $sizes; do
    case "$size" in
        quick) args=(--quick) report=artifacts/bench/report-quick.txt ;;
        full) args=() report=artifacts/bench/report-full.txt ;;
        x*) args=(--scale "${size#x}") report=artifacts/bench/report-full-$size.txt ;;
    esac
    echo "[growth] bench/run.sh ${args[*]} --repeat $repeat" >&2
    # A failed check (exit 1) still measured; a missing tool or too little disk (exit 2) did not.
    bash bench/run.sh "${args[@]}" --repeat "$repeat" || { rc=$?; [ "$rc" -eq 1 ] || exit "$rc"; status=1; }
    cp "$report" "$out/$size.txt"
done

python3 - "$out" $sizes <<'PY' | tee "$out/table.md"
import re, sys
out, sizes = sys.argv[1], sys.argv[2:]
rows = ["bare-walk", "analyze", "analyze (ReadyToRun)", "dotnet-dump dumpheap -stat"]
runs = {}
for size in sizes:
    text = open(f"{out}/{size}.txt").read()
    m = re.search(r"\(createdump -u, (\d+) bytes\); (\d+) heap objects", text)
    build = re.search(r"^diagext: ([^;]+);", text, re.M).group(1)
    cmds = {}
    for line in text.splitlines():
        name = line[:38].strip()
        if name in rows:
            f = line[38:].split()
            cmds[name] = (float(f[0]), float(f[1]), int(f[2]))
    runs[size] = (int(m.group(1)), int(m.group(2)), build, cmds, re.search(r"^load average.*", text, re.M).group(0))
print("| size | objects | dump | command | wall s | CPU s | peak RSS | RSS / dump | ns per object |")
print("|---|---|---|---|---|---|---|---|---|")
for size in sizes:
    dump, objects, build, cmds, _ = runs[size]
    for name in rows:
        if name not in cmds:
            continue
        wall, cpu, rss = cmds[name]
        label = f"`analyze`, {build}" if name == "analyze" else name
        print(f"| {size} | {objects / 1e6:.1f} M | {dump / 2**30:.2f} GB | {label} | {wall:.2f} | {cpu:.2f} | {rss} MB | "
              f"{rss * 2**20 / dump * 100:.0f} % | {wall / objects * 1e9:.0f} |")
print()
for size in sizes:
    print(f"- {size}: {runs[size][4]}")
print()
first = sizes[0]
base = runs[first][3]["analyze"][0] / runs[first][1]
ok = True
for size in sizes:
    dump, objects, _, cmds, _ = runs[size]
    wall, _, rss = cmds["analyze"]
    per = wall / objects
    flat = abs(per / base - 1) <= 0.20
    small = rss * 2**20 <= 0.25 * dump
    ok &= flat and small
    print(f"- {size}: `analyze` time per object {per * 1e9:.0f} ns, {per / base:.2f}x the {first} run's "
          f"({'met' if flat else 'NOT met'}: within 20 %); peak RSS {rss * 2**20 / dump * 100:.0f} % of the dump "
          f"({'met' if small else 'NOT met'}: at most 25 %)")
# The cost of each added object, between successive sizes: the fixed costs (start, the DAC, the modules' metadata) that
# make a small dump dearer per object cancel out, so this is the figure that says whether the cost grows faster than
# the heap. Informational: the verdicts above keep the issue's wording.
steps = [(a, b) for a, b in zip(sizes, sizes[1:]) if runs[b][1] > runs[a][1]]
slopes = [(runs[b][3]["analyze"][0] - runs[a][3]["analyze"][0]) / (runs[b][1] - runs[a][1]) for a, b in steps]
for (a, b), slope in zip(steps, slopes):
    print(f"- {a} -> {b}: `analyze` cost per added object {slope * 1e9:.0f} ns, {slope / slopes[0]:.2f}x the "
          f"{steps[0][0]} -> {steps[0][1]} step's ({'met' if abs(slope / slopes[0] - 1) <= 0.20 else 'NOT met'}: within 20 %)")
if slopes:
    fixed = runs[first][3]["analyze"][0] - slopes[0] * runs[first][1]
    print(f"- fixed cost (the first step's line at no objects): {fixed:.2f} s")
sys.exit(0 if ok else 1)
PY
exit "$status"
