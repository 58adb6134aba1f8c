#!/usr/bin/env python3
"""Every public declaration of the documented modules has a doc comment, and
every public function that throws says what with `- Throws:` — checked on the
symbol graphs the compiler extracted for DocC (Scripts/docs.sh runs this).

    doc_coverage.py SYMBOL_GRAPH_DIR MODULE...

Declarations the compiler made (synthesized conformances) and extensions of
other modules' types are not counted: they have no source of their own to
document. Prints each gap as `file:line: kind name: what is missing`; exits 1
if there is any.
"""
import glob, json, os, sys


def throws(symbol):
    """Whether the declaration itself throws: a `throws` outside its
    parameters' parentheses (not a closure parameter's), or, for a property
    or subscript, in its accessors (`{ get throws }`)."""
    kind = symbol["kind"]["identifier"]
    if kind not in ("swift.func", "swift.method", "swift.type.method", "swift.init", "swift.property",
                    "swift.type.property", "swift.subscript", "swift.type.subscript"):
        return False                                    # a type alias of a throwing closure, say
    depth, braces = 0, 0
    accessor_kinds = ("swift.property", "swift.type.property", "swift.subscript", "swift.type.subscript")
    for fragment in symbol.get("declarationFragments", []):
        if fragment.get("kind") == "keyword" and fragment.get("spelling") in ("throws", "rethrows"):
            if symbol["kind"]["identifier"] in accessor_kinds:
                if braces > 0:
                    return True
            elif depth == 0:
                return True
        elif fragment.get("kind") == "text":
            text = fragment.get("spelling", "")
            depth += text.count("(") - text.count(")")
            braces += text.count("{") - text.count("}")
    return False


def main():
    directory, modules = sys.argv[1], sys.argv[2:]
    gaps, counted = [], 0
    for module in modules:
        # DocC's extraction: DIR/MODULE/*.symbols.json; `swift package dump-symbol-graph`: DIR/MODULE[@…].symbols.json.
        files = (glob.glob(os.path.join(directory, module, "*.symbols.json"))
                 or glob.glob(os.path.join(directory, module + ".symbols.json"))
                 + glob.glob(os.path.join(directory, module + "@*.symbols.json")))
        if not files:
            print(f"doc-coverage: no symbol graph for {module} in {directory}", file=sys.stderr)
            return 1
        seen = set()
        for path in files:
            for symbol in json.load(open(path))["symbols"]:
                location = symbol.get("location")
                if symbol.get("accessLevel") not in ("public", "open") or not location:
                    continue
                if symbol["kind"]["identifier"] == "swift.extension" or "/Sources/" not in location["uri"]:
                    continue
                # A protocol extension's method appears once per conforming type, at one place.
                key = (location["uri"], location["position"]["line"], symbol["kind"]["identifier"], symbol["pathComponents"][-1])
                if key in seen:
                    continue
                seen.add(key)
                counted += 1
                place = f"{location['uri'].split('/Sources/', 1)[1]}:{location['position']['line'] + 1}"
                name = f"{symbol['kind']['displayName'].lower()} {'.'.join(symbol['pathComponents'])}"
                lines = [line["text"] for line in symbol.get("docComment", {}).get("lines", [])]
                if not lines:
                    gaps.append(f"Sources/{place}: {name}: no doc comment")
                elif throws(symbol) and not any(line.strip().startswith("- Throws:") for line in lines):
                    gaps.append(f"Sources/{place}: {name}: throws, and its comment has no `- Throws:`")
    for gap in sorted(gaps):
        print(gap, file=sys.stderr)
    print(f"doc-coverage: {counted - len(gaps)} of {counted} public declarations of {', '.join(modules)} documented")
    return 1 if gaps else 0


sys.exit(main())
