#!/usr/bin/env python3
"""Prints the public API of the given modules, one line per symbol, sorted: the module, the
symbol's path and its declaration as Swift prints it. `make check` compares it with API.txt, so
that a change of the public API is made on purpose: `scripts/api-listing.sh --update` writes the
new listing, to commit with the change.

Usage: api-listing.py SYMBOL_GRAPH_DIR MODULE [MODULE ...]
"""
import sys

from symbol_graphs import public_symbols


def main() -> int:
    if len(sys.argv) < 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    graph_dir, modules = sys.argv[1], sys.argv[2:]
    lines = set()
    for module, symbol in public_symbols(graph_dir, modules):
        path = ".".join(symbol.get("pathComponents", []))
        declaration = "".join(f.get("spelling", "") for f in symbol.get("declarationFragments", []))
        declaration = " ".join(declaration.split())
        lines.add(f"{module} {path}: {declaration}")
    for line in sorted(lines):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
