"""The public symbols of a directory of symbol graphs, shared by check-docs.py and api-listing.py."""
import json
import os


def public_symbols(graph_dir, modules):
    """Yields (module, symbol) for every public or open symbol declared in this repository's
    sources (not synthesized, not inherited from another module) in the graphs of `modules`."""
    for name in sorted(os.listdir(graph_dir)):
        module = name.split(".")[0].split("@")[0]
        if module not in modules or not name.endswith(".symbols.json"):
            continue
        with open(os.path.join(graph_dir, name), encoding="utf-8") as file:
            graph = json.load(file)
        for symbol in graph.get("symbols", []):
            if symbol.get("accessLevel") not in ("public", "open"):
                continue
            if "/Sources/" not in symbol.get("location", {}).get("uri", ""):
                continue  # synthesized, or inherited from a protocol of another module
            yield module, symbol
