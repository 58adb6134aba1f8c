#!/usr/bin/env bash
# Builds the release `factoryhost` binary and prints its path.
# On Linux the Swift runtime is linked statically: it starts in about half the
# time (see README, "Performance").
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/install-deps.sh
command -v swift >/dev/null 2>&1 || { echo "build: the Swift toolchain (6.0 or newer) is not installed" >&2; exit 1; }
flags=(-c release)
[ "$(uname -s)" = Linux ] && flags+=(--static-swift-stdlib)
swift build "${flags[@]}" --product factoryhost >&2
echo "$(swift build "${flags[@]}" --show-bin-path)/factoryhost"
