#!/usr/bin/env bash
# Builds the release `factoryhost` binary and prints its path.
# On Linux the Swift runtime is linked statically: it starts in about half the
# time (see docs/Performance.md).
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/install-deps.sh
command -v swift >/dev/null 2>&1 || { echo "build: the Swift toolchain (6.0 or newer) is not installed" >&2; exit 1; }
flags=(-c release)
[ "$(uname -s)" = Linux ] && flags+=(--static-swift-stdlib)
# Generic types are instantiated through their metadata accessors, not by
# demangling their names at run time: each demangled name costs a search of
# every protocol conformance in the binary (a third of `check`'s start-up).
flags+=(-Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors)
if [ "$(uname -s)" = Linux ]; then
    # The C++ runtime the Swift runtime needs, linked in too (when the
    # toolchain's compiler has libstdc++.a): binding libstdc++.so's ~4,300
    # symbols at every start took a tenth of `run`'s start-up. A directory
    # holding only the archive, searched first, makes `-lstdc++` pick it.
    archive=$(clang -print-file-name=libstdc++.a 2>/dev/null || true)
    if [ "${archive#/}" != "$archive" ] && [ -f "$archive" ]; then
        mkdir -p .build/static-libstdc++
        ln -sf "$archive" .build/static-libstdc++/libstdc++.a
        flags+=(-Xlinker -L -Xlinker "$PWD/.build/static-libstdc++")
    fi
    # Only what must be exported is: the Swift runtime's link flags export
    # every symbol, which every library's symbol lookups then search.
    flags+=(-Xlinker --no-export-dynamic)
    # Relative relocations packed (DT_RELR): the dynamic loader applied 40,000
    # of them one at a time at every start; packed, a start takes 0.18M fewer
    # instructions and `check` 3.5% less time (measured A/B, 300 runs each).
    # Needs lld (the Swift toolchain ships it; gold cannot) and glibc 2.36+.
    glibc=$(getconf GNU_LIBC_VERSION 2>/dev/null | awk '{print $2}')
    toolchain=$(dirname "$(readlink -f "$(command -v swift)")")
    if [ -x "$toolchain/ld.lld" ] && [ -n "$glibc" ] \
        && [ "$(printf '%s\n' 2.36 "$glibc" | sort -V | head -n 1)" = 2.36 ]; then
        flags+=(-Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs)
    fi
fi
swift build "${flags[@]}" --product factoryhost >&2
echo "$(swift build "${flags[@]}" --show-bin-path)/factoryhost"
