#!/usr/bin/env python3
"""The toolchain claims of README.md ("Requirements") against the manifests: each package's
`swift-tools-version` is the Swift the README names for it, and no package it depends on asks
for a newer one, at the minimum version the manifest names (`from:`) nor at the version resolved
(Package.resolved). A package's manifest is the one SwiftPM picks for that toolchain: the newest
`Package@swift-X.swift` not newer than it, else `Package.swift`.

Usage: scripts/check-toolchain.py (from the repository, after a build has resolved the packages
into .build)
"""

import glob
import json
import os
import re
import subprocess
import sys

TOOLS = re.compile(r"^//\s*swift-tools-version\s*:\s*([0-9]+(?:\.[0-9]+){0,2})")


def parse(version):
    parts = [int(part) for part in version.split(".")]
    return tuple(parts + [0] * (3 - len(parts)))


def shown(version):
    return ".".join(str(part) for part in (version[:2] if version[2] == 0 else version))


def claims(readme):
    """{manifest path: Swift version} from the rows of the README's "Requirements" table."""
    text = open(readme, encoding="utf-8").read()
    section = re.search(r"^## Requirements\n(.*?)(?=^## )", text, re.S | re.M)
    if not section:
        sys.exit(f"{readme}: no '## Requirements' section to hold the toolchain claims")
    rows = re.findall(r"^\|\s*`([^`]*Package\.swift)`[^|]*\|\s*Swift ([0-9.]+)", section.group(1), re.M)
    if not rows:
        sys.exit(f"{readme}: the Requirements table names no manifest with its Swift")
    return {path: parse(version) for path, version in rows}


def tools_version(text):
    match = TOOLS.match(text)
    return parse(match.group(1)) if match else None


def repository(name):
    """The bare clone SwiftPM keeps of a dependency (.build/repositories/<name>-<hash>)."""
    for path in glob.glob(f".build/repositories/{name}-*"):
        if re.fullmatch(re.escape(name) + r"-[0-9a-f]+", os.path.basename(path)):
            return path
    return None


def show(repo, revision, path):
    result = subprocess.run(["git", "-C", repo, "show", f"{revision}:{path}"], capture_output=True, text=True)
    return result.stdout if result.returncode == 0 else None


def manifest_for(repo, revision, toolchain):
    """(file, tools version) of the manifest SwiftPM reads at `revision` with `toolchain`."""
    listing = subprocess.run(["git", "-C", repo, "ls-tree", "--name-only", revision], capture_output=True, text=True)
    if listing.returncode != 0:
        return None, None
    candidates = []
    for name in listing.stdout.split():
        match = re.fullmatch(r"Package@swift-([0-9.]+)\.swift", name)
        if match and parse(match.group(1)) <= toolchain:
            candidates.append((parse(match.group(1)), name))
    name = max(candidates)[1] if candidates else "Package.swift"
    text = show(repo, revision, name)
    return name, (tools_version(text) if text else None)


def main():
    readme_claims = claims("README.md")
    problems, checked = [], 0
    manifests = sorted(glob.glob("Package.swift") + glob.glob("*/Package.swift"))
    for manifest in manifests:
        if manifest not in readme_claims:
            problems.append(f"README.md: Requirements names no Swift for {manifest}")
    for manifest, claim in sorted(readme_claims.items()):
        if not os.path.exists(manifest):
            problems.append(f"README.md: Requirements names {manifest}, which does not exist")
            continue
        own = tools_version(open(manifest, encoding="utf-8").read())
        if own != claim:
            problems.append(f"{manifest}: swift-tools-version {shown(own) if own else '(none)'}, the README says Swift {shown(claim)}")
        # The versions to check: the minimum each dependency is asked from, and what resolved.
        wanted = []
        text = open(manifest, encoding="utf-8").read()
        for url, version in re.findall(r'url:\s*"([^"]+)"\s*,\s*(?:from:|exact:|\.upToNextMinor\(from:)\s*"([^"]+)"', text):
            wanted.append((url, version, "the minimum asked"))
        resolved = os.path.join(os.path.dirname(manifest), "Package.resolved")
        if os.path.exists(resolved):
            for pin in json.load(open(resolved, encoding="utf-8")).get("pins", []):
                state = pin.get("state", {})
                if "revision" in state:
                    wanted.append((pin["location"], state["revision"], f"resolved at {state.get('version', 'a revision')}"))
        for url, revision, why in wanted:
            name = re.sub(r"\.git$", "", url.rstrip("/").split("/")[-1])
            repo = repository(name)
            if repo is None:
                problems.append(f"{manifest}: no clone of {name} in .build/repositories (run a build first)")
                continue
            file, needs = manifest_for(repo, revision, claim)
            if needs is None:
                problems.append(f"{manifest}: {name} at {revision} ({why}) has no readable manifest")
                continue
            checked += 1
            if needs > claim:
                problems.append(
                    f"{manifest}: {name} {revision[:12]} ({why}) declares swift-tools-version {shown(needs)} "
                    f"in {file}, newer than the Swift {shown(claim)} the README names"
                )
    for problem in problems:
        print(problem)
    print(f"toolchain: {len(readme_claims)} manifests against the README's claims, {checked} dependency manifests read, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
