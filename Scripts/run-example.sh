#!/usr/bin/env bash
# Quick start, command 1: installs what is missing, builds factoryhost, and runs
# the main example. Extra arguments go to the example.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(Scripts/build.sh)
exec "$bin" run Examples/movie-loaders/main.lua "$@"
