#!/usr/bin/env bash
# The benchmark command: builds the release factoryhost (for the start-up
# case) and the benchmark package, then runs every case in one run.
#   Scripts/bench.sh            a readable table with the goals checked
#   Scripts/bench.sh --json     { case: { contender: median ns per operation } }
set -euo pipefail
cd "$(dirname "$0")/.."
FACTORYHOST_BIN=$(Scripts/build.sh)
export FACTORYHOST_BIN
swift build -c release --package-path Benchmarks >&2
exec swift run -c release --skip-build --package-path Benchmarks factoryhost-bench "$@"
