#!/usr/bin/env bash
# Long differential-fuzzing batches, locally: random async programs, classic vs Async2-rewritten.
# usage: tests/fuzz.sh [first-seed] [count] [batch] [fuzzer options...]   (defaults: a seed from the clock, 10000, 100;
# the options, e.g. --try-depth 6 or --debug, go to the fuzzer: tests/Async2.Fuzz/README.md)
# Differences are reduced and saved under artifacts/fuzz/failures/seed-N/ (original.cs, reduced.cs, transcripts.txt);
# the exit code is 1 when any program differed.
set -euo pipefail
cd "$(dirname "$0")/.."

seed="${1:-$(( $(date +%s) % 1000000 * 100 ))}"
count="${2:-10000}"
batch="${3:-100}"

dotnet build tests/Async2.Fuzz -c Release --nologo -v quiet
dotnet run --project tests/Async2.Fuzz -c Release --no-build -- run --seed "$seed" --count "$count" --batch "$batch" "${@:4}" | tee artifacts/fuzz-last-run.log
