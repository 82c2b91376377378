#!/usr/bin/env bash
# Per-suspension cost breakdown of the suspension-heavy benchmark (bench/README.md, "Where a
# suspension's time goes"). Samples one worker process with perf (Linux, `apt-get install
# linux-perf`) and prints, per function, its share of the samples and that share of the worker's
# own measured time per await, in ns.
#
#   bench/profile/suspension.sh [variant ...]     default: classic async2-flowing async2-capture
#
# A variant is a folder under artifacts/bench/ (run `async2 bench --only suspend` first: it builds
# and rewrites the workers there) or the path of a folder holding a built worker (an older build kept aside).
# The measured rounds (10,000,000 awaits each) dominate the samples; warm-up is about 1% of the awaits.
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v perf >/dev/null || { echo "perf is not installed (Debian: apt-get install linux-perf)" >&2; exit 1; }
variants=("$@")
[ ${#variants[@]} -gt 0 ] || variants=(classic async2-flowing async2-capture)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for variant in "${variants[@]}"; do
    dll=artifacts/bench/$variant/Async2.Bench.dll
    [ -d "$variant" ] && dll=$variant/Async2.Bench.dll
    [ -f "$dll" ] || { echo "$dll is missing: run async2 bench --only suspend first" >&2; exit 1; }
    # Perf maps name JIT-compiled methods; W^X double mapping would hide them from perf.
    DOTNET_PerfMapEnabled=1 DOTNET_EnableWriteXorExecute=0 \
        perf record -q -F 5000 -o "$work/perf.data" dotnet "$dll" suspend --manual-awaiter > "$work/cells" 2>/dev/null
    # The cells' time per await (the classic build measures Task, then ValueTask: their rounds
    # together, as the samples cover both), split by each function's share of the samples.
    read -r nsPerAwait cells < <(python3 -c '
import json, sys
cells = [json.loads(line) for line in open(sys.argv[1]) if line.startswith("{")]
rounds = sum(len(c["rounds"]) for c in cells)
ms = sum(len(c["rounds"]) * c["value"] for c in cells) / rounds
awaits = int(cells[0]["case"].split()[0].replace(",", ""))
print(format(ms * 1e6 / awaits, ".2f"), ", ".join(c["variant"] + " " + format(c["value"], ".1f") + " ms" for c in cells))
' "$work/cells")
    echo "## $variant: $cells per 10,000,000 awaits ($nsPerAwait ns per await)"
    echo
    echo "| share | ns/await | function |"
    echo "| ---: | ---: | --- |"
    perf report -i "$work/perf.data" --no-children --sort symbol --percent-limit 1.5 2>/dev/null \
        | grep -E '^ +[0-9.]+%' \
        | sed -E 's/\[(OptimizedTier1|Optimized|Tier1|Tier0|QuickJitted)\]//; s/( +-)* *$//' \
        | awk -v ns="$nsPerAwait" '{ share = $1; sub(/%/, "", share); $1 = ""; $2 = ""; sub(/^ +/, "");
              gsub(/\|/, "\\|"); printf "| %s%% | %.2f | %s |\n", share, share / 100 * ns, substr($0, 1, 120) }'
    echo
    rm -f /tmp/perf-*.map
done
