#!/usr/bin/env bash
# Builds the DocC documentation of the library modules — LuaBridge, LuaInterpreter,
# FactoryRegistry, FactoryScripting (with catalogs: Sources/<Module>/<Module>.docc)
# and ScenarioTesting — with swift-docc-plugin, into .build/docs/<Module>.doccarchive.
# Any DocC warning (a broken symbol link, a doc comment naming a parameter that
# does not exist) fails the build, and so does a public declaration without a doc
# comment or a throwing one without `- Throws:` (Scripts/doc_coverage.py, on the
# symbol graphs DocC was given).
#
#   Scripts/docs.sh                  all five
#   Scripts/docs.sh FactoryRegistry  one
#
# Browse an archive: swift package --disable-sandbox preview-documentation --target FactoryRegistry
set -euo pipefail
cd "$(dirname "$0")/.."
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(LuaBridge LuaInterpreter FactoryRegistry FactoryScripting ScenarioTesting)
mkdir -p .build/docs
status=0
for target in "${targets[@]}"; do
    log=".build/docs/$target.log"
    if ! swift package --allow-writing-to-directory .build/docs generate-documentation \
            --target "$target" --warnings-as-errors --output-path ".build/docs/$target.doccarchive" > "$log" 2>&1; then
        grep -E "warning:|error:" "$log" | grep -v "^\[" >&2 || tail -20 "$log" >&2
        echo "docs: $target: DocC failed (see $log)" >&2
        status=1
        continue
    fi
    echo "docs: $target: .build/docs/$target.doccarchive"
done
# The symbol graphs the plugin extracted (public declarations only), beside the
# build, under the root package's identity (its directory's name, lower-cased).
symbols="$(dirname "$(swift build --show-bin-path)")/extracted-symbols/$(basename "$(pwd)" | tr "[:upper:]" "[:lower:]")"
python3 Scripts/doc_coverage.py "$symbols" "${targets[@]}" || status=1
exit $status
