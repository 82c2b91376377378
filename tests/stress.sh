#!/usr/bin/env bash
# Races and load at full size (issue 14): tests/Async2.Tests/Fixtures/Stress.cs built classic and
# rewritten by Async2, run with STRESS_SCALE (default 10: 1,000,000 suspended chains), side by side.
# Prints each build's results (which must be equal) and its measurements: time per scenario and
# memory per suspended chain. Builds with the SDK's own compiler through the test harness's cache.
set -euo pipefail
cd "$(dirname "$0")/.."
scale="${1:-10}"
dotnet build tests/Async2.Tests -c Release -v quiet -nologo >/dev/null
# The harness compiles and rewrites the fixture (artifacts/tests); the short test run does that once.
dotnet test tests/Async2.Tests -c Release --no-build --filter "FullyQualifiedName~StressTests" >/dev/null
classic=$(ls -t artifacts/tests/build/Stress-*/classic/Stress.dll | head -1)
async2=$(ls -t artifacts/tests/build/Stress-*/async2-*/Stress.dll | head -1)
for dll in "$classic" "$async2"; do
    echo "== $dll (STRESS_SCALE=$scale)"
    STRESS_SCALE="$scale" dotnet "$dll" 2>&1
done
