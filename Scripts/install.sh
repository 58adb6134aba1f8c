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
cd "$(dirname "$0")/.."
prefix="${1:-${PREFIX:-$HOME/.local}}"
case "$prefix" in
    "") echo "install: give a prefix directory" >&2; exit 64 ;;
    /*) ;;
    *) prefix="$(pwd)/$prefix" ;;
esac
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
install -m 755 "$binary" "$prefix/bin/factoryhost"
install -m 644 "$pages/factoryhost.1" "$prefix/share/man/man1/factoryhost.1"
"$binary" --generate-completion-script bash > "$prefix/share/bash-completion/completions/factoryhost"
"$binary" --generate-completion-script zsh > "$prefix/share/zsh/site-functions/_factoryhost"
"$binary" --generate-completion-script fish > "$prefix/share/fish/vendor_completions.d/factoryhost.fish"
echo "install: factoryhost, its man page and completions are in $prefix" >&2
case ":$PATH:" in *":$prefix/bin:"*) ;; *) echo "install: add $prefix/bin to PATH" >&2 ;; esac
