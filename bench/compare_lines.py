"""Two findings JSON files of one corpus: the same findings, with which lines changed.

Usage: python bench/compare_lines.py BEFORE.json AFTER.json [--sample N] [--rule RULE]
                                     [--seed S]

A finding is known by its rule, article, deviating versions and message; the findings sharing
all four are paired in the order the files list them.  Printed per rule: the findings before
and after, those found in only one of the files (a change of findings, not of lines), and of
the paired ones how many point at another line in some version.  ``--sample N`` then prints N
paired findings whose lines changed (drawn with a fixed seed, ``--seed``, so two runs show the
same ones): the location before → after of its deviating versions and of two of its
reference versions, with the text of the file at both lines, for judging whether the new
line holds the element the finding is about.  Exit code 1 when some finding is in only one
of the files.  Run on demand; nothing here is a test.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

Key = tuple[str, str, tuple[str, ...], str]


def load(path: Path) -> dict[Key, list[dict[str, Any]]]:
    """The findings of a findings JSON file, grouped by key, in the file's order."""
    findings: dict[Key, list[dict[str, Any]]] = defaultdict(list)
    for finding in json.loads(path.read_text(encoding="utf-8"))["findings"]:
        key = (finding["rule"], finding["article"], tuple(finding["langs"]), finding["message"])
        findings[key].append(finding)
    return findings


def lines(finding: dict[str, Any]) -> dict[str, tuple[str, int]]:
    return {loc["lang"]: (loc["path"], loc["line"]) for loc in finding["locations"]}


def file_line(path: str, line: int, cache: dict[str, list[str]]) -> str:
    if path not in cache:
        try:
            cache[path] = Path(path).read_text(encoding="utf-8", errors="replace").split("\n")
        except OSError:
            cache[path] = []
    text = cache[path]
    return text[line - 1].strip()[:110] if 0 < line <= len(text) else "(no such line)"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    parser.add_argument("--sample", type=int, default=0, help="changed findings to print")
    parser.add_argument("--rule", help="only this rule")
    parser.add_argument("--seed", type=int, default=19)
    args = parser.parse_args(argv)
    before, after = load(args.before), load(args.after)
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    changed: list[tuple[dict[str, Any], dict[str, Any]]] = []
    for key in sorted(set(before) | set(after)):
        rule = key[0]
        if args.rule and rule != args.rule:
            continue
        old, new = before.get(key, []), after.get(key, [])
        counts[rule]["before"] += len(old)
        counts[rule]["after"] += len(new)
        counts[rule]["only before"] += max(len(old) - len(new), 0)
        counts[rule]["only after"] += max(len(new) - len(old), 0)
        for first, second in zip(old, new, strict=False):
            if lines(first) == lines(second):
                counts[rule]["same lines"] += 1
            else:
                counts[rule]["lines changed"] += 1
                changed.append((first, second))
    columns = ("before", "after", "only before", "only after", "same lines", "lines changed")
    print(f"{'rule':22}" + "".join(f"{c:>15}" for c in columns))
    for rule in sorted(counts):
        print(f"{rule:22}" + "".join(f"{counts[rule][c]:>15}" for c in columns))
    total = Counter()
    for found in counts.values():
        total.update(found)
    print(f"{'(all)':22}" + "".join(f"{total[c]:>15}" for c in columns))
    if args.sample and changed:
        cache: dict[str, list[str]] = {}
        picked = random.Random(args.seed).sample(changed, min(args.sample, len(changed)))
        for number, (first, second) in enumerate(picked, start=1):
            print(f"\n[{number}] {second['rule']} {second['article']} {second['langs']}")
            print(f"    {second['message'][:200]}")
            old, new = lines(first), lines(second)
            shown = [*second["langs"], *second["reference_langs"][:2]]  # not all thirteen
            for lang, (path, line) in new.items():
                was = old.get(lang, (path, 0))[1]
                if was == line or lang not in shown:
                    continue
                print(f"    {lang}: {was} → {line}")
                print(f"       was: {file_line(path, was, cache)}")
                print(f"       now: {file_line(path, line, cache)}")
    return 1 if total["only before"] or total["only after"] else 0


if __name__ == "__main__":
    sys.exit(main())
