#!/usr/bin/env bash
# The test suite under sanitizers, each in its own build directory so the
# normal build stays as it is:
#   Scripts/sanitize.sh            ASan+UBSan over every test, then TSan over the
#                                  registry's concurrency tests
#   Scripts/sanitize.sh address    only the first; `thread` only the second
# Exit status non-zero on any report.
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/install-deps.sh
which="${1:-all}"
status=0

if [ "$which" = all ] || [ "$which" = address ]; then
    echo "sanitize: address (+ undefined behaviour in C), every test" >&2
    # detect_leaks=0: the Swift runtime's caches are reported as leaks at exit;
    # halt_on_error: the first report fails the run; use-after-return checks on
    # (locals on a fake stack: the registry's stack guard reads the real one).
    export ASAN_OPTIONS="detect_leaks=0:halt_on_error=1:detect_stack_use_after_return=1"
    export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
    export FACTORYHOST_SANITIZER=address      # tests that measure the process's memory allow for ASan's overhead
    # Swift has no UBSan on Linux; the C targets (the Lua shim, where the
    # pointer work is) get it through clang, whose handlers the ASan runtime carries.
    flags=(--scratch-path .build/sanitize-address --sanitize=address
           -Xcc -fsanitize=undefined -Xcc -fno-sanitize-recover=undefined)
    swift build --build-tests "${flags[@]}"
    FACTORYHOST_BIN="$(swift build "${flags[@]}" --show-bin-path)/factoryhost" \
        swift test --skip-build "${flags[@]}" --disable-xctest ${SANITIZE_FILTER:+--filter "$SANITIZE_FILTER"} || status=1
fi

if [ "$which" = all ] || [ "$which" = thread ]; then
    echo "sanitize: thread, the registry's concurrency tests and the main-actor exports" >&2
    export TSAN_OPTIONS="halt_on_error=1"
    swift build --build-tests --scratch-path .build/sanitize-thread --sanitize=thread
    swift test --skip-build --scratch-path .build/sanitize-thread --sanitize=thread --disable-xctest \
        --filter "FactoryRegistryTests|MainActorExportTests|aMainActorExportRunsOnTheMainThreadOfAHost" || status=1
fi
exit $status
