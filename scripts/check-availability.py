#!/usr/bin/env python3
"""The availability gate: fails when a library module uses a declaration of the toolchain's own
modules that Apple platforms have only from a version newer than the package's floors, outside a
guard that covers it.

Usage: scripts/check-availability.py INDEX_STORE GRAPHS_DIR PACKAGE_SWIFT MODULE [MODULE ...]

- What the modules reference: the index store the debug build writes (`-index-store-path`, on by
  default in SwiftPM's debug builds), read with the toolchain's libIndexStore. Each occurrence
  is a declaration referenced at a line and column of one of our files.
- What Apple platforms have: the symbol graphs of the toolchain's modules (GRAPHS_DIR, written by
  scripts/system-graphs.sh with swift-symbolgraph-extract), whose availability entries carry every
  Apple platform's version even on Linux: `String(validating:as:)` says macOS 15, iOS 18. A
  member with no entry of its own has its type's.
- The floors: the `platforms:` of PACKAGE_SWIFT.
- Guards, from the source: a reference inside `if #available(...) { }`, after
  `guard #available(...) else { }` in the same scope, or in a declaration marked
  `@available(<platform> <version>, ...)` is covered for the versions it names. Code that Apple
  platforms never compile (an `#if` branch such as `#if !canImport(os)` or
  `#elseif canImport(Glibc)`) is not a finding; the conditions are evaluated as an Apple
  platform would (scripts/availability_source.py).

What it cannot see is in RELIABILITY.md ("The availability gate").
"""

import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import availability_source  # noqa: E402
import indexstore  # noqa: E402

# The platforms of the floors, spelled as the symbol graphs' availability domains are.
APPLE = ["macOS", "iOS", "tvOS", "watchOS", "visionOS"]


def floors(package_swift):
    """The package's declared Apple floors: {"macOS": (14,), "iOS": (17,), ...}."""
    text = open(package_swift, encoding="utf-8").read()
    match = re.search(r"platforms:\s*\[([^\]]*)\]", text)
    if not match:
        sys.exit(f"{package_swift}: no platforms: list, so no floor to check against")
    result = {}
    for name, version in re.findall(r"\.(macOS|iOS|tvOS|watchOS|visionOS)\(\s*(?:\.v)?\"?([0-9_.]+)", match.group(1)):
        result[name] = availability_source.padded(int(part) for part in version.replace("_", ".").split("."))
    missing = [name for name in APPLE if name not in result]
    if missing:
        sys.exit(f"{package_swift}: platforms: names no floor for {', '.join(missing)}")
    return result


def version(entry):
    return tuple(entry.get(key, 0) for key in ("major", "minor", "patch"))


def shown(parts):
    parts = list(parts)
    while len(parts) > 1 and parts[-1] == 0:
        parts.pop()
    if len(parts) == 1:
        parts.append(0)
    return ".".join(str(part) for part in parts)


def load_graphs(directory):
    """USR -> (title, module, {platform: introduced or "unavailable"}) for every symbol of the
    graphs, and USR -> the default implementations of that protocol requirement."""
    symbols, parents, defaults = {}, {}, {}
    for name in sorted(os.listdir(directory)):
        if not name.endswith(".symbols.json"):
            continue
        graph = json.load(open(os.path.join(directory, name), encoding="utf-8"))
        module = graph["module"]["name"]
        for symbol in graph["symbols"]:
            needs = {}
            for entry in symbol.get("availability", []):
                domain = entry.get("domain")
                if domain not in APPLE:
                    continue
                if entry.get("isUnconditionallyUnavailable"):
                    needs[domain] = "unavailable"
                elif "introduced" in entry:
                    needs[domain] = availability_source.padded(version(entry["introduced"]))
            title = ".".join(symbol.get("pathComponents", [])) or symbol["names"]["title"]
            symbols[symbol["identifier"]["precise"]] = (title, module, needs)
        for relation in graph.get("relationships", []):
            if relation["kind"] == "memberOf":
                parents.setdefault(relation["source"], relation["target"])
            elif relation["kind"] == "defaultImplementationOf":
                defaults.setdefault(relation["target"], set()).add(relation["source"])
    # A member with no entry for a platform has its type's (transitively).
    def inherited(usr, seen):
        title, module, needs = symbols[usr]
        parent = parents.get(usr)
        if parent in symbols and parent not in seen:
            seen.add(parent)
            for platform, introduced in inherited(parent, seen).items():
                needs.setdefault(platform, introduced)
        return needs

    for usr in list(symbols):
        inherited(usr, {usr})
    return symbols, defaults


def newer(needs, floor):
    """The platforms for which `needs` asks more than the floors: {platform: introduced}."""
    result = {}
    for platform, introduced in needs.items():
        if introduced == "unavailable" or introduced > floor[platform]:
            result[platform] = introduced
    return result


def main(argv):
    if len(argv) < 5:
        sys.exit(__doc__)
    store_path, graphs, package_swift, modules = argv[1], argv[2], argv[3], set(argv[4:])
    floor = floors(package_swift)
    symbols, defaults = load_graphs(graphs)
    root = os.path.dirname(os.path.abspath(package_swift))
    occurrences = indexstore.references(store_path, modules, root)
    checked, newer_found, by_default, findings, sources = 0, 0, 0, [], {}
    for path, line, column, usr in sorted(occurrences):
        if usr not in symbols:
            continue
        if path not in sources:
            sources[path] = availability_source.Source(open(path, encoding="latin-1").read())
        source = sources[path]
        if not source.compiled_on_apple(line, column):
            continue
        checked += 1
        title, module, needs = symbols[usr]
        missing = newer(needs, floor)
        if not missing:
            continue
        newer_found += 1
        # A protocol requirement added later (FixedWidthInteger's `&*`, Swift 6) with a default
        # implementation as old as the floors: a build for the floors calls the default.
        if any(not newer(symbols[other][2], floor) for other in defaults.get(usr, ()) if other in symbols):
            by_default += 1
            continue
        guarded = source.guarded_versions(line, column)
        uncovered = {
            platform: introduced
            for platform, introduced in missing.items()
            if introduced == "unavailable" or guarded.get(platform, floor[platform]) < introduced
        }
        if uncovered:
            needs_text = ", ".join(
                f"{platform} {'unavailable' if introduced == 'unavailable' else shown(introduced)}"
                for platform, introduced in sorted(missing.items(), key=lambda item: APPLE.index(item[0]))
            )
            findings.append(f"{os.path.relpath(path, root)}:{line}:{column}: {title} ({module}) is available from {needs_text}")
    floors_text = ", ".join(f"{platform} {shown(floor[platform])}" for platform in APPLE)
    for finding in findings:
        print(finding)
    print(
        f"availability: {checked} uses of the toolchain's modules checked in {len(sources)} files of "
        f"{len(modules)} modules against the floors ({floors_text}); {newer_found} newer than them: "
        f"{by_default} requirements whose default implementation is as old as the floors, "
        f"{newer_found - by_default - len(findings)} guarded, {len(findings)} not"
    )
    if findings:
        print("guard each with `if #available` (and a path for the floors), or use an API of the floors")
        return 1
    if checked == 0:
        print("availability: no use was found, which means the index store was not read")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
