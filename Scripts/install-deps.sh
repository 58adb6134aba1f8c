#!/usr/bin/env bash
# Installs the system packages factoryhost needs, when they are missing:
#   Lua 5.4 (library and headers, found through pkg-config `lua5.4`), the stock
#   lua5.4 interpreter (the end-to-end tests compare against it), libedit,
#   SQLite (the persistence example), libcurl (the movie-loaders example; its
#   headers to build, the library opened at run time), pkg-config and luacheck
#   (the project's Lua is checked with the globals `factoryhost types` writes);
#   for the install test, zsh, fish and groff (the completions are loaded by each
#   shell, the man page rendered); in CI (CI=true), valgrind and binutils for
#   the performance guard.
#   apt-get as root or through sudo; Homebrew on macOS.
# The Swift toolchain itself (6.0 or newer) must already be installed.
set -euo pipefail

missing=()
have_pc() { command -v pkg-config >/dev/null 2>&1 && pkg-config --exists "$1"; }

if [ "$(uname -s)" = Darwin ]; then
    command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
    { have_pc lua5.4 || have_pc lua; } || missing+=(lua)
    have_pc libedit || missing+=(libedit)
    command -v fish >/dev/null 2>&1 || missing+=(fish)
    [ ${#missing[@]} -eq 0 ] && exit 0
    if command -v brew >/dev/null 2>&1; then
        echo "install-deps: brew install ${missing[*]}" >&2
        brew install "${missing[@]}"
        exit 0
    fi
    echo "install-deps: please install ${missing[*]} (Homebrew was not found)" >&2
    exit 1
fi

command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
have_pc lua5.4 || missing+=(liblua5.4-dev)
command -v lua5.4 >/dev/null 2>&1 || missing+=(lua5.4)
have_pc libedit || missing+=(libedit-dev)
have_pc sqlite3 || missing+=(libsqlite3-dev)
have_pc libcurl || missing+=(libcurl4-openssl-dev)
command -v luacheck >/dev/null 2>&1 || missing+=(lua-check)
command -v zsh >/dev/null 2>&1 || missing+=(zsh)
command -v fish >/dev/null 2>&1 || missing+=(fish)
command -v groff >/dev/null 2>&1 || missing+=(groff-base)
# In CI, the performance guard counts instructions with valgrind (binutils' objcopy strips the copy it measures).
if [ "${CI:-}" = true ]; then
    command -v valgrind >/dev/null 2>&1 || missing+=(valgrind)
    command -v objcopy >/dev/null 2>&1 || missing+=(binutils)
fi
[ ${#missing[@]} -eq 0 ] && exit 0

if ! command -v apt-get >/dev/null 2>&1; then
    echo "install-deps: please install ${missing[*]} with your package manager (apt-get was not found)" >&2
    exit 1
fi
if [ "$(id -u)" -eq 0 ]; then
    sudo=()
elif command -v sudo >/dev/null 2>&1; then
    sudo=(sudo)
else
    echo "install-deps: need root or sudo to install ${missing[*]}" >&2
    exit 1
fi
echo "install-deps: apt-get install ${missing[*]}" >&2
"${sudo[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
