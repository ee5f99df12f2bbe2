#!/usr/bin/env python3
"""Reads the markdown the benchmark harness prints and prints the table of
ratios the issues set as targets, each from the medians (p50) of one run.

    python3 scripts/benchmark-report.py Benchmarks/.benchmark-results/results.md [--partial]

A target whose benchmark is missing from the results counts as missed, unless
--partial says that only some suites ran.
"""
import re
import sys

TIME = {"ns": 1e-9, "μs": 1e-6, "us": 1e-6, "ms": 1e-3, "s": 1.0}
SCALE = {"": 1, "K": 1e3, "M": 1e6, "G": 1e9}


def parse(text):
    """{benchmark: {metric: p50 in base units}} from the harness's markdown."""
    results, current = {}, None
    for line in text.splitlines():
        heading = re.match(r"^### (.+?)\s*$", line)
        if heading:
            current = heading.group(1)
            results[current] = {}
            continue
        if current is None or not line.startswith("|"):
            continue
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        if len(cells) < 4 or cells[0] in ("Metric", "") or set(cells[0]) <= set("-:"):
            continue
        label = cells[0].rstrip(" *")
        unit = re.search(r"\(([^()]*)\)\s*$", label)
        factor, name = 1.0, label
        if unit:
            name = label[: unit.start()].strip()
            token = unit.group(1)
            if token in TIME:
                factor = TIME[token]
            elif token in SCALE:
                factor = SCALE[token]
            elif token not in ("bytes", "#"):
                name = label
        try:
            p50 = float(cells[3].replace(",", ""))
        except ValueError:
            continue
        results[current][name] = p50 * factor
    return results


def value(results, benchmark, metric):
    for name, metrics in results.items():
        if name.startswith(benchmark):
            if metric in metrics:
                return metrics[metric]
            for key, number in metrics.items():
                if key.startswith(metric):
                    return number
    return None


# (what, numerator, denominator, metric, goal, kind): kind "max" = ratio at most goal,
# "min" = ratio at least goal; a denominator of None compares the value itself, a number divides
# by it; a metric given as a pair reads the first for the numerator, the second for the
# denominator.
TARGETS = [
    ("1. append a page: 1,000,000 held / 1,000 held (median of interleaved pairs)", "append a page: 1,000,000 held against", 1000.0, "1,000,000 held / 1,000 held", 1.5, "max"),
    ("1. (for information) append: median 1,000,000 held / median 1,000 held", "append a page: 1,000,000 held against", "append a page: 1,000,000 held against", ("1,000,000 held", "1,000 held"), 1.5, "info"),
    ("1. prepend a page: 1,000,000 held / 1,000 held (median of interleaved pairs)", "prepend a page: 1,000,000 held against", 1000.0, "1,000,000 held / 1,000 held", 1.5, "max"),
    ("1. (for information) prepend: median 1,000,000 held / median 1,000 held", "prepend a page: 1,000,000 held against", "prepend a page: 1,000,000 held against", ("1,000,000 held", "1,000 held"), 1.5, "info"),
    ("2. peak resident memory: scroll 1,000,000 / 10,000", "scroll 1,000,000 items", "scroll 10,000 items", "Memory (resident peak)", 1.2, "max"),
    ("3. export 100,000 rows: paging fetch / hand-written loop (median of interleaved pairs)", "export 100,000 rows: paging fetch", 1000.0, "paging fetch / hand-written loop", 1.05, "max"),
    ("3. (for information) export: median fetch / median hand-written loop", "export 100,000 rows: paging fetch", "export 100,000 rows: paging fetch", ("paging fetch", "hand-written loop"), 1.05, "info"),
    ("3. (for information) export: median processor time, fetch / hand-written loop", "export 100,000 rows: paging fetch", "export 100,000 rows: paging fetch", ("paging fetch, CPU", "hand-written loop, CPU"), 1.05, "info"),
    ("4. relay page of 20: depth 900,000 / depth 100", "relay page of 20 at depth 900,000", "relay page of 20 at depth 100,", "Time (wall clock)", 1.3, "max"),
    ("4. Graphiti connection(from:) / ours, page of 20 at depth 900,000", "Graphiti connection(from:), page of 20", "relay page of 20 at depth 900,000", "Time (wall clock)", 100, "min"),
    ("4. (for information, pages of 100) relay page: depth 900,000 / depth 100", "relay page of 100 at depth 900,000", "relay page of 100 at depth 100,", "Time (wall clock)", 1.3, "info"),
    ("4. (for information, pages of 100) Graphiti connection(from:) / ours", "Graphiti connection(from:), page of 100", "relay page of 100 at depth 900,000", "Time (wall clock)", 100, "info"),
    ("5. stalls after the first page, suggested prefetch", "read 1 item/ms, 20 ms pages: suggested", None, "stalls after the first page", 0, "max"),
    ("5. stalls after the first page, prefetch off (19 pages follow)", "read 1 item/ms, 20 ms pages: prefetch off", None, "stalls after the first page", 19, "min"),
    ("8. GraphQL list, median per page: pages 991-1000 / pages 1-10", "GraphQL list, pages 991-1000", "GraphQL list, pages 1-10", "Time (wall clock)", 1.5, "max"),
    ("8. GraphQL list, all 1,000 pages, seconds (Apollo: 113-117 s)", "GraphQL list, all 1,000 pages", None, "Time (wall clock)", 2.3, "max"),
    ("8. GraphQL list, all 1,000 pages, peak resident MB (Apollo: 350 MB)", "GraphQL list, all 1,000 pages, one sample for memory", 1e6, "Memory (resident peak)", 90, "max-abs"),
    ("15. (for information) row 8's figure in the harness: its malloc interposer and the 1,000 held bodies included, MB", "GraphQL list, all 1,000 pages, one sample for memory", 1e6, "Memory (resident peak)", 0, "info-value"),
    ("15. GraphQL list, all 1,000 pages, peak resident MB, in a process of its own, without the harness (a fifth of Apollo's)", "GraphQL list, all 1,000 pages, peak resident in a process of its own", None, "Peak resident, own process (MB)", 70, "max-abs"),
    ("15. (for information) the same with the 1,000 page bodies held, peak resident MB", "GraphQL list with its page bodies held, all 1,000 pages, peak resident in a process of its own", None, "Peak resident, own process (MB)", 0, "info-value"),
    ("16. GraphQL list, 1,000 pages: store in a SQLite file / in memory (median of interleaved pairs)", "GraphQL list, 1,000 pages: store in a file against in memory", 1000.0, "in a file / in memory", 1.5, "max"),
    ("16. cold start: first page of 100 from a file of 100,000 launches, ms", "cold start: first page of 100 from a file", 1e-3, "Time (wall clock)", 10, "max-abs"),
    ("16. (for information) beside it, the first page of 100 from memory, ms", "cold start, beside it: first page of 100 from memory", 1e-3, "Time (wall clock)", 0, "info-value"),
    ("16. (for information) attaching a store file of 100,000 launches, ms", "attach a store file of 100,000 launches", 1e-3, "Time (wall clock)", 0, "info-value"),
    ("16. (for information) the file's bytes on disk per launch, database and WAL", "GraphQL list, 1,000 pages: store in a file against in memory", None, "bytes on disk per launch", 0, "info-value"),
    ("17. codegen: 1,000 types, 500 operations, nested fragments: seconds", "codegen: 1,000 types, 500 operations, 2,000 nested fragments", None, "Generation, own process", 5, "max-abs"),
    ("17. codegen: the same, peak resident MB", "codegen: 1,000 types, 500 operations, 2,000 nested fragments", None, "Peak resident, own process (MB)", 500, "max-abs"),
    ("37. codegen: a GitHub-sized schema from introspection JSON (498 types, 1.04 MB), 15 operations: seconds", "codegen: GitHub-sized schema from introspection JSON, 15 operations", None, "Generation, own process", 1, "max-abs"),
    ("19. export 1,000,000 launches as JSON Lines: paging fetch's peak resident MB, in a process of its own", "export 1,000,000 launches, peak resident of paging fetch in a process of its own", 1e3, "Peak resident, own process (kB)", 50, "max-abs"),
    ("19. (for information) its anonymous resident MB (heap and stacks) at the end", "export 1,000,000 launches, peak resident of paging fetch in a process of its own", 1e3, "Anonymous resident at the end, own process (kB)", 0, "info-value"),
    ("19. (for information) the same export's seconds", "export 1,000,000 launches, peak resident of paging fetch in a process of its own", None, "Export, own process (s)", 0, "info-value"),
    ("15. peak resident memory: GraphQL scroll through 3 held pages, 10,000 pages / 100", "GraphQL scroll, 10,000 pages", "GraphQL scroll, 100 pages", "Memory (resident peak)", 1.2, "max"),
    ("40. anchored refresh of 100,000 held items at item 50,000, rows near it changed: page requests", "anchored refresh: 100,000 held, at item 50,000", None, "page requests", 2, "max"),
    ("40. (for information) the anchored refresh's median, ms", "anchored refresh: 100,000 held, at item 50,000", 1e-3, "refresh time", 0, "info-value"),
    ("40. (for information) refresh() by restart, the same list: page requests (the list then holds its first page)", "refresh by restart: 100,000 held", None, "page requests", 0, "info-value"),
    ("40. (for information) the restart's median, ms", "refresh by restart: 100,000 held", 1e-3, "refresh time", 0, "info-value"),
    ("40. (for information) refresh() refetching every held page, the same list: page requests (one per page held, 1,000)", "refresh refetching every held page: 100,000 held", None, "page requests", 0, "info-value"),
    ("40. (for information) the refetch's median, ms", "refresh refetching every held page: 100,000 held", 1e-3, "refresh time", 0, "info-value"),
    ("40. head refresh, 3 new at the top of 100,000 held: page requests", "head refresh: 3 new at the top of 100,000 held", None, "page requests", 1, "max"),
    ("40. (for information) the head refresh's median, ms", "head refresh: 3 new at the top of 100,000 held", 1e-3, "refresh time", 0, "info-value"),
    ("40. query switch, 10,000 of the old query held: from the new first page's response to the list showing it, median ms", "query switch: the new query's first page shown after its response", 1e-3, "shown after the response", 1, "max-abs"),
    ("40. back to a kept query (10,000 items): page requests", "back to a kept query: 10,000 items", None, "page requests", 0, "max"),
    ("43. peak resident memory: scroll 1,000,000 items, 10 pages held, snapshots read with separators / read plainly", "scroll 1,000,000 items, 10 pages held, snapshots read with separators", "scroll 1,000,000 items, 10 pages held, snapshots read plainly", "Memory (resident peak)", 1.1, "max"),
    ("43. scroll 20,000 items, 10 pages held: with separators / without (median of interleaved pairs)", "scroll 20,000 items, 10 pages held: with separators against", 1000.0, "with separators / without", 1.2, "max"),
    ("43. jump to row 900,000 of 1,000,000 (a placeholder shown past the threshold): requests (median)", "jump to row 900,000 of 1,000,000 with placeholders", None, "jump requests", 2, "max"),
    ("43. the same jump: from its page's response to the list showing the row, median ms", "jump to row 900,000 of 1,000,000 with placeholders", 1e-3, "shown after the response", 1, "max-abs"),
    ("42. live list of 100,000 launches, 1,000 launchAdded a second: from the frame received to the list showing it at the top, median ms", "live list: 100,000 held, 1,000 launchAdded a second", 1e-3, "received to shown", 1, "max-abs"),
    ("42. (for information) the same from the frame queued by the feeder, median ms", "live list: 100,000 held, 1,000 launchAdded a second", 1e-3, "queued to shown", 0, "info-value"),
    ("42. resident memory of the same list after 100,000 launchUpdated events / after 10,000 (events that add nothing)", "live list: 100,000 held, 1,000 launchUpdated a second", 1000.0, "resident after 100,000 / after 10,000", 1.1, "max"),
    ("42. (for information) resident bytes per launch added by launchAdded events (data, not overhead)", "live list: 100,000 held, 1,000 launchAdded a second", None, "resident bytes per launch added", 0, "info-value"),
]


def main():
    partial = "--partial" in sys.argv[2:]
    results = parse(open(sys.argv[1], encoding="utf-8").read())
    print("| target | measured | goal | met |")
    print("| --- | --- | --- | --- |")
    missed = 0
    for what, top, bottom, metric, goal, kind in TARGETS:
        top_metric, bottom_metric = metric if isinstance(metric, tuple) else (metric, metric)
        numerator = value(results, top, top_metric)
        denominator = bottom if isinstance(bottom, float) else (value(results, bottom, bottom_metric) if bottom else 1.0)
        if numerator is None or not denominator:
            # A row whose benchmark did not run: expected when only some suites ran, a miss
            # (a renamed benchmark, a broken prefix) when all did.
            if not partial:
                print(f"| {what} | missing from the results | — | NO |")
                missed += 1
            continue
        measured = numerator / denominator
        if kind == "info-value":
            print(f"| {what} | {measured:.0f} | (no target) | — |" if measured >= 100 or measured == int(measured)
                  else f"| {what} | {measured:.1f} | (no target) | — |")
            continue
        if kind == "info":
            shown = f"{measured:.0f}×" if measured >= 10 else f"{measured:.2f}×"
            print(f"| {what} | {shown} | (no target) | — |")
            continue
        met = measured <= goal if kind in ("max", "max-abs") else measured >= goal
        missed += 0 if met else 1
        plain = bottom is None or kind == "max-abs"
        if plain:
            shown = (
                f"{measured:.0f}" if measured == int(measured)
                else f"{measured:.1f}" if measured >= 10 else f"{measured:.2f}")
        else:
            shown = f"{measured:.0f}×" if measured >= 10 else f"{measured:.2f}×"
        bound = ("≤ " if kind in ("max", "max-abs") else "≥ ") + (f"{goal}" if plain else f"{goal}×")
        print(f"| {what} | {shown} | {bound} | {'yes' if met else 'NO'} |")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
