#!/usr/bin/env bash
# The WebAssembly bench (bench/README.md, "WebAssembly"): bench/wasm/WasmBench.cs built classic and
# with Async2, run alternately in Mono on WebAssembly in headless Chromium (WasmBenchTests, in its
# long mode), three rounds of 2 s per row. Prints the table and writes it to artifacts/bench-wasm/README.md.
# Needs Debian's chromium (.ci/run installs it). It took 9 minutes on the 2-core machine under heavy load.
set -euo pipefail
cd "$(dirname "$0")/.."
ASYNC2_LONG_TESTS=1 dotnet test tests/Async2.Tests -c Release --filter "FullyQualifiedName~WasmBenchTests" \
    --logger "console;verbosity=detailed"
cat artifacts/bench-wasm/README.md
