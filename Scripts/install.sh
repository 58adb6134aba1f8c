#!/usr/bin/env bash
# Installs factoryhost for one user (or system-wide): the release binary, its
# man page and its bash, zsh and fish completions.
#
#   Scripts/install.sh [PREFIX]     PREFIX: default $HOME/.local (/usr/local: as root)
#
#   PREFIX/bin/factoryhost
#   PREFIX/share/man/man1/factoryhost.1                  man factoryhost
#   PREFIX/share/bash-completion/completions/factoryhost  bash (with bash-completion)
#   PREFIX/share/zsh/site-functions/_factoryhost          zsh (that directory in $fpath)
#   PREFIX/share/fish/vendor_completions.d/factoryhost.fish  fish
#
# FACTORYHOST_BIN=path installs that binary instead of building the release one;
# GENERATE_MANUAL=path uses that generate-manual tool instead of building it.
set -euo pipefail
# Paths given relative to where the script is run from, made absolute before
# it moves to the repository.
absolute() { case "$1" in /*) printf '%s\n' "$1" ;; *) printf '%s/%s\n' "$(pwd)" "$1" ;; esac; }
if [ $# -gt 0 ]; then
    [ -n "$1" ] || { echo "install: the prefix is empty: give a directory (default: \$HOME/.local)" >&2; exit 64; }
    prefix="$1"
else
    prefix="${PREFIX:-$HOME/.local}"
fi
prefix="$(absolute "$prefix")"
[ -z "${FACTORYHOST_BIN:-}" ] || FACTORYHOST_BIN="$(absolute "$FACTORYHOST_BIN")"
[ -z "${GENERATE_MANUAL:-}" ] || GENERATE_MANUAL="$(absolute "$GENERATE_MANUAL")"
cd "$(dirname "$0")/.."
binary="${FACTORYHOST_BIN:-$(Scripts/build.sh)}"
[ -x "$binary" ] || { echo "install: $binary is not an executable" >&2; exit 1; }

# The man page, generated from the command line's own description of itself
# (swift-argument-parser's generate-manual tool, a product of that package).
if [ -z "${GENERATE_MANUAL:-}" ]; then
    swift build --product generate-manual >&2
    GENERATE_MANUAL="$(swift build --show-bin-path)/generate-manual"
fi
pages="$(mktemp -d)"
trap 'rm -rf "$pages"' EXIT
date="$(git log -1 --format=%cs 2>/dev/null || date +%Y-%m-%d)"    # the same page for the same source
"$GENERATE_MANUAL" "$binary" --output-directory "$pages" --date "$date" --authors "the factoryhost authors" >&2

install -d "$prefix/bin" "$prefix/share/man/man1" "$prefix/share/bash-completion/completions" \
    "$prefix/share/zsh/site-functions" "$prefix/share/fish/vendor_completions.d"
# (Installing the installed binary again — FACTORYHOST_BIN=PREFIX/bin/factoryhost — keeps it.)
[ "$binary" -ef "$prefix/bin/factoryhost" ] || install -m 755 "$binary" "$prefix/bin/factoryhost"
install -m 644 "$pages/factoryhost.1" "$prefix/share/man/man1/factoryhost.1"
# The completion scripts: all three written whole beside their places, then
# moved in together — a full disk leaves the installed ones as they were.
targets=("$prefix/share/bash-completion/completions/factoryhost" "$prefix/share/zsh/site-functions/_factoryhost"
         "$prefix/share/fish/vendor_completions.d/factoryhost.fish")
shells=(bash zsh fish)
cleanup_completions() { for target in "${targets[@]}"; do if [ -f "$target.tmp" ]; then rm -f "$target.tmp"; fi; done; }
for i in 0 1 2; do
    text="$("$binary" --generate-completion-script "${shells[$i]}")"
    if [ -z "$text" ] || ! printf '%s\n' "$text" > "${targets[$i]}.tmp"; then
        echo "install: cannot write the ${shells[$i]} completion script to ${targets[$i]}" >&2
        cleanup_completions
        exit 1
    fi
done
for target in "${targets[@]}"; do mv -f "$target.tmp" "$target"; done
echo "install: factoryhost, its man page and completions are in $prefix" >&2
case ":$PATH:" in *":$prefix/bin:"*) ;; *) echo "install: add $prefix/bin to PATH" >&2 ;; esac
