#!/usr/bin/env bash
# Fuzzes one target for a while with libFuzzer (and ASan):
#   Scripts/fuzz.sh dsl 60        DSL scripts: run in a sandboxed host, validated, graphed
#   Scripts/fuzz.sh spec 60       spec files through the test runner
#   Scripts/fuzz.sh values 60     values a chunk returns, read as every Swift type the bridge converts to
# Seeds come from Fuzz/Corpus/NAME and the matching test fixtures (never
# written to); what the fuzzer
# learns goes to .build/fuzz-corpus/NAME; a crash is saved as
# .build/fuzz-artifacts/NAME/crash-… and the script fails. Replay one with
# `swift run factoryhost-fuzz NAME FILE`.
set -euo pipefail
cd "$(dirname "$0")/.."
name="${1:?usage: Scripts/fuzz.sh dsl|spec|values SECONDS}"
seconds="${2:-60}"
case "$name" in dsl|spec|values) ;; *) echo "fuzz: no target '$name' (dsl, spec, values)" >&2; exit 64 ;; esac
Scripts/install-deps.sh
flags=(--product factoryhost-fuzz --scratch-path .build/fuzz
       -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library -Xswiftc -DFUZZING
       -Xcc -fsanitize=fuzzer-no-link,address)
swift build "${flags[@]}" >&2
binary="$(swift build "${flags[@]}" --show-bin-path)/factoryhost-fuzz"
mkdir -p ".build/fuzz-corpus/$name" ".build/fuzz-artifacts/$name"
export FUZZ_TARGET="$name"
export ASAN_OPTIONS="detect_leaks=0:halt_on_error=1"
# -timeout: an input running longer than this is a finding (the host's own
# limits stop scripts after 1 s); -rss_limit_mb bounds the fuzzer itself.
# Seeds: Fuzz/Corpus/NAME, and the test fixtures of the same kind.
case "$name" in
    dsl) seeds=(Fuzz/Corpus/dsl Tests/EndToEndTests/Fixtures/dsl) ;;
    spec) seeds=(Fuzz/Corpus/spec Tests/EndToEndTests/Fixtures/specs/pass Tests/EndToEndTests/Fixtures/specs/tags) ;;
    values) seeds=(Fuzz/Corpus/values) ;;
esac
"$binary" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=4096 -print_final_stats=1 \
    -artifact_prefix=".build/fuzz-artifacts/$name/" ".build/fuzz-corpus/$name" "${seeds[@]}"
