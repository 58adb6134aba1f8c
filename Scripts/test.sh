#!/usr/bin/env bash
# Quick start, command 2: installs what is missing and runs every test —
# the Swift unit tests and the end-to-end tests that run the built binary
# (and compare it with the stock lua5.4 interpreter), then the examples'
# scenario specs through `factoryhost test`.
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/install-deps.sh
command -v swift >/dev/null 2>&1 || { echo "test: the Swift toolchain (6.0 or newer) is not installed" >&2; exit 1; }
# Package.resolved is not committed: it would pin this machine's offline package copies,
# whose commit ids are not the public ones. Package.swift's version ranges decide.
swift build --build-tests
swift build --product generate-manual      # the man page's generator, for the install test
swift test --skip-build --disable-xctest
# In CI (CI=true), also: every test under ASan (UBSan in C), the registry's
# tests under TSan, each fuzz target for 20 s from its seed corpus, and the
# performance guard (Scripts/perf-guard.sh: instruction counts against budgets).
if [ "${CI:-}" = true ]; then
    Scripts/sanitize.sh
    for target in dsl spec values; do
        log=".build/fuzz-$target.log"
        if ! Scripts/fuzz.sh "$target" 20 > "$log" 2>&1; then
            grep -v "ld.gold: warning" "$log" | tail -40 >&2
            echo "test: fuzz target $target found a crash (see $log)" >&2
            exit 1
        fi
        grep -E "^Done [0-9]+ runs" "$log" | sed "s/^/fuzz $target: /"
    done
    # Speed: instruction counts of a few commands of the release build against their
    # committed budgets (Benchmarks/Guard/budgets.txt); a regression fails the run.
    Scripts/perf-guard.sh
fi
# The project's own Lua (examples, the embedded runner, REPL and check Lua,
# the benchmarks' plain-Lua container) through luacheck, with the globals the
# built binary declares (`factoryhost types --format luacheck`).
bin="$(swift build --show-bin-path)/factoryhost"
"$bin" types --format luacheck > .build/factoryhost.luacheck.lua
if command -v luacheck >/dev/null 2>&1; then
    luacheck --no-color --quiet Examples Sources Benchmarks/Sources
else
    echo "test: luacheck is not installed (macOS: luarocks install luacheck); the project's Lua was not checked" >&2
fi
# The DocC archives, with warnings as errors, and every public declaration
# documented (Scripts/docs.sh).
Scripts/docs.sh
# What an editor shows with `factoryhost types`' definitions, asked of a real
# Lua language server over LSP (Linux x86-64; installs it under .build once).
Scripts/editor-check.sh "$bin"
# The project's own scenario suites (Examples/*/*_spec.lua), through the runner,
# with a JUnit report for CI — run from another directory, so that no suite
# passes only from the repository root.
# (Examples/shop, a package of its own, is passed over: its own host runs its specs, below.)
root="$(pwd)"
(cd "${TMPDIR:-/tmp}" && "$bin" test "$root/Examples" --jobs 2 --junit "$root/.build/examples-junit.xml")
# The macros (@Scriptable, @ScriptImplementable) are a package of their own, so
# that nothing above compiles swift-syntax: built and tested here, once.
swift build --build-tests --package-path Macros
swift test --skip-build --disable-xctest --package-path Macros
# A user's own package (Examples/shop, docs/YourOwnApp.md): its types in one attribute
# each, its own host, its specs, and its composition checked at build time. It
# shares the macros' build folder, so swift-syntax is compiled once.
shop=(--package-path Examples/shop --scratch-path Macros/.build)
swift build --build-tests "${shop[@]}"
swift test --skip-build --disable-xctest "${shop[@]}"
shophost="$(swift build "${shop[@]}" --show-bin-path)/shophost"
"$shophost" run Examples/shop/Composition/main.lua
(cd "${TMPDIR:-/tmp}" && "$shophost" test "$root/Examples/shop")
# The build-time check fails a build on a broken composition, naming the line.
composition=Examples/shop/Composition/shop.lua
cp "$composition" .build/shop.lua.orig
trap 'cp .build/shop.lua.orig "$composition"' EXIT
sed 's/store = "OrderStore"/store = "OrderStor"/' .build/shop.lua.orig > "$composition"
if swift build "${shop[@]}" > .build/shop-broken.log 2>&1; then
    echo "test: Examples/shop built with a broken composition (the CheckComposition plugin did not fail it)" >&2
    exit 1
fi
if ! grep -q "Composition/shop.lua:9: register \"CheckoutViewModel\": dependency 'store': unknown type 'OrderStor', did you mean 'OrderStore'?" .build/shop-broken.log; then
    tail -20 .build/shop-broken.log >&2
    echo "test: the broken composition's build failed without naming its line" >&2
    exit 1
fi
cp .build/shop.lua.orig "$composition"
trap - EXIT
echo "shop: a broken composition fails the build, at its line"
