#!/usr/bin/env python3
"""Checks that every public symbol declared in the given modules has a doc comment.

Usage: check-docs.py SYMBOL_GRAPH_DIR MODULE [MODULE ...]

Reads the symbol graphs that `swift build -Xswiftc -emit-symbol-graph` wrote and
lists the public and open symbols declared in this repository's sources (not
members inherited from the standard library) that have no `///` comment.
Exits 1 when there is any.
"""
import json
import os
import sys


def main() -> int:
    if len(sys.argv) < 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    graph_dir, modules = sys.argv[1], sys.argv[2:]
    missing = []
    checked = 0
    for name in sorted(os.listdir(graph_dir)):
        module = name.split(".")[0].split("@")[0]
        if module not in modules or not name.endswith(".symbols.json"):
            continue
        with open(os.path.join(graph_dir, name), encoding="utf-8") as file:
            graph = json.load(file)
        for symbol in graph.get("symbols", []):
            if symbol.get("accessLevel") not in ("public", "open"):
                continue
            uri = symbol.get("location", {}).get("uri", "")
            if "/Sources/" not in uri:
                continue  # synthesized or inherited
            checked += 1
            if not symbol.get("docComment", {}).get("lines"):
                path = ".".join(symbol.get("pathComponents", []))
                line = symbol.get("location", {}).get("position", {}).get("line", 0) + 1
                missing.append(f"{uri.split('/Sources/', 1)[1]}:{line}: {path}")
    for entry in sorted(set(missing)):
        print(f"undocumented public symbol: {entry}")
    print(f"documentation: {checked} public symbols checked in {', '.join(modules)}, {len(set(missing))} undocumented")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
