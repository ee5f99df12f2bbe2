#!/usr/bin/env python3
"""Checks that every public symbol declared in the given modules has a doc comment.

Usage: check-docs.py SYMBOL_GRAPH_DIR MODULE [MODULE ...]

Reads the symbol graphs that scripts/symbol-graphs.sh wrote and
lists the public and open symbols declared in this repository's sources (not
members inherited from the standard library) that have no `///` comment.
Exits 1 when there is any.
"""
import sys

from symbol_graphs import public_symbols


def main() -> int:
    if len(sys.argv) < 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    graph_dir, modules = sys.argv[1], sys.argv[2:]
    missing = []
    checked = 0
    for _, symbol in public_symbols(graph_dir, modules):
        checked += 1
        if not symbol.get("docComment", {}).get("lines"):
            uri = symbol.get("location", {}).get("uri", "")
            path = ".".join(symbol.get("pathComponents", []))
            line = symbol.get("location", {}).get("position", {}).get("line", 0) + 1
            missing.append(f"{uri.split('/Sources/', 1)[1]}:{line}: {path}")
    for entry in sorted(set(missing)):
        print(f"undocumented public symbol: {entry}")
    print(f"documentation: {checked} public symbols checked in {', '.join(modules)}, {len(set(missing))} undocumented")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
