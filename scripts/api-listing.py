#!/usr/bin/env python3
"""Prints the public API of the given modules, one line per symbol, sorted: the module, the
symbol's path and its declaration as Swift prints it. `make check` compares it with API.txt, so
that a change of the public API is made on purpose: `scripts/api-listing.sh --update` writes the
new listing, to commit with the change.

Usage: api-listing.py SYMBOL_GRAPH_DIR MODULE [MODULE ...]
"""
import json
import os
import sys


def main() -> int:
    if len(sys.argv) < 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    graph_dir, modules = sys.argv[1], sys.argv[2:]
    lines = set()
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
                continue  # synthesized, or inherited from a protocol of another module
            path = ".".join(symbol.get("pathComponents", []))
            declaration = "".join(f.get("spelling", "") for f in symbol.get("declarationFragments", []))
            declaration = " ".join(declaration.split())
            lines.add(f"{module} {path}: {declaration}")
    for line in sorted(lines):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
