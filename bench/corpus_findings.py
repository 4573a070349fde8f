"""Findings per 100 translation pairs, by rule, on each corpus: the figure changes are judged by.

Usage: python bench/corpus_findings.py [CORPUS ...] [--json FILE] [--save-raw DIR]
       python bench/corpus_findings.py --compare BEFORE.json AFTER.json

Each corpus is checked with the ``parallelcheck`` first in PATH (or ``--parallelcheck CMD``),
as ``parallelcheck check CORPUS --format json --no-cache``, in a fresh process started in an
empty scratch folder, so that no configuration or glossary of the working directory is picked
up.  The default corpora are every folder of ``../shared/corpus`` next to the repository and
the repository's own ``articles/``.

Printed per corpus: article sets, versions, translation pairs (the sum over article sets of
versions - 1), the exit code and the first line of stderr if any, then per rule the findings
by severity and the findings per 100 translation pairs.  A run that could not be done (exit 2,
e.g. "no articles found" for a layout the tool does not read yet) is recorded with its exit
code and message and no findings.

``--json FILE`` writes these figures as JSON, ``--save-raw DIR`` keeps each corpus's findings
JSON as ``DIR/<corpus>.json``, and ``--compare`` prints two such JSON files side by side per
corpus and rule, with the change in findings per 100 pairs.  Run on demand; nothing here is a
test.
"""

from __future__ import annotations

import argparse
import json
import shlex
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
CORPUS_ROOT = HERE.parents[1] / "shared" / "corpus"
SEVERITIES = ("error", "warning", "info")


def default_corpora() -> list[Path]:
    shared = sorted(p for p in CORPUS_ROOT.iterdir() if p.is_dir()) if CORPUS_ROOT.is_dir() else []
    return [*shared, HERE.parent / "articles"]


def per_100(count: int, pairs: int) -> float | None:
    return round(100 * count / pairs, 2) if pairs else None


def measure(name: str, corpus: Path, command: list[str], raw_dir: Path | None) -> dict[str, Any]:
    """Run one check of ``corpus`` and reduce its findings JSON to the figures."""
    with tempfile.TemporaryDirectory(prefix="corpus-findings-") as scratch:
        result = subprocess.run(
            [*command, "check", str(corpus.resolve()), "--format", "json", "--no-cache"],
            cwd=scratch,
            capture_output=True,
            text=True,
            check=False,
        )
    stderr = result.stderr.strip().splitlines()
    try:
        document = json.loads(result.stdout)
    except json.JSONDecodeError:
        document = {"articles": [], "findings": []}
    else:
        if raw_dir is not None:
            raw_dir.mkdir(parents=True, exist_ok=True)
            (raw_dir / f"{name}.json").write_text(result.stdout, encoding="utf-8")
    articles = document["articles"]
    versions = sum(len(a["versions"]) for a in articles)
    pairs = sum(max(len(a["versions"]) - 1, 0) for a in articles)
    by_rule_severity: dict[str, Counter[str]] = {}
    for finding in document["findings"]:
        by_rule_severity.setdefault(finding["rule"], Counter())[finding["severity"]] += 1
    by_rule = {rule: sum(c.values()) for rule, c in sorted(by_rule_severity.items())}
    return {
        "path": str(corpus),
        "exit": result.returncode,
        "stderr": stderr[0] if stderr else "",
        "articles": len(articles),
        "versions": versions,
        "pairs": pairs,
        "findings": sum(by_rule.values()),
        "by_rule": by_rule,
        "by_rule_severity": {r: dict(by_rule_severity[r]) for r in by_rule},
        "per_100_pairs": {r: per_100(n, pairs) for r, n in by_rule.items()},
    }


def fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def show(name: str, figures: dict[str, Any]) -> None:
    print(f"== {name}  ({figures['path']})")
    print(
        f"article sets: {figures['articles']}  versions: {figures['versions']}  "
        f"pairs: {figures['pairs']}  exit: {figures['exit']}  findings: {figures['findings']}"
    )
    if figures["stderr"]:
        print(f"stderr: {figures['stderr']}")
    if not figures["by_rule"]:
        return
    print(
        f"  {'rule':<20}{'total':>7}" + "".join(f"{s:>9}" for s in SEVERITIES) + "  per 100 pairs"
    )
    for rule, count in figures["by_rule"].items():
        severities = figures["by_rule_severity"][rule]
        print(
            f"  {rule:<20}{count:>7}"
            + "".join(f"{severities.get(s, 0):>9}" for s in SEVERITIES)
            + f"  {fmt(figures['per_100_pairs'][rule]):>13}"
        )
    total = per_100(figures["findings"], figures["pairs"])
    print(f"  {'(all)':<20}{figures['findings']:>7}{'':>27}  {fmt(total):>13}")


def compare(before_file: Path, after_file: Path) -> None:
    before = json.loads(before_file.read_text(encoding="utf-8"))["corpora"]
    after = json.loads(after_file.read_text(encoding="utf-8"))["corpora"]
    empty = {"pairs": 0, "exit": None, "findings": 0, "by_rule": {}}
    for name in [*before, *(n for n in after if n not in before)]:
        b, a = before.get(name, empty), after.get(name, empty)
        print(
            f"== {name}  pairs {b['pairs']} -> {a['pairs']}  exit {b['exit']} -> {a['exit']}  "
            f"findings {b['findings']} -> {a['findings']}"
        )
        header = f"{'before':>8}{'after':>8}{'/100 before':>13}{'/100 after':>12}{'delta':>9}"
        print(f"  {'rule':<20}{header}")
        rules = sorted({*b["by_rule"], *a["by_rule"]})
        rows = [(r, b["by_rule"].get(r, 0), a["by_rule"].get(r, 0)) for r in rules]
        for rule, nb, na in [*rows, ("(all)", b["findings"], a["findings"])]:
            pb, pa = per_100(nb, b["pairs"]), per_100(na, a["pairs"])
            exact = None if pb is None or pa is None else 100 * (na / a["pairs"] - nb / b["pairs"])
            delta = None if exact is None else round(exact, 2)
            sign = "" if delta is None or delta < 0 else "+"
            print(f"  {rule:<20}{nb:>8}{na:>8}{fmt(pb):>13}{fmt(pa):>12}{sign + fmt(delta):>9}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpora", nargs="*", type=Path, help="corpus folders (default: all)")
    parser.add_argument("--parallelcheck", default="parallelcheck", help="command to run")
    parser.add_argument("--json", type=Path, help="write the figures as JSON to this file")
    parser.add_argument("--save-raw", type=Path, help="keep each findings JSON in this folder")
    parser.add_argument(
        "--compare", nargs=2, type=Path, metavar=("BEFORE", "AFTER"), help="compare two --json"
    )
    args = parser.parse_args()
    if args.compare:
        compare(*args.compare)
        return
    command = shlex.split(args.parallelcheck)
    corpora = args.corpora or default_corpora()
    names = [c.resolve().name for c in corpora]
    if len(set(names)) != len(names):
        sys.exit("two corpora have the same folder name; their figures would collide")
    results: dict[str, Any] = {}
    for name, corpus in zip(names, corpora, strict=True):
        results[name] = measure(name, corpus, command, args.save_raw)
        show(name, results[name])
    if args.json:
        version = subprocess.run(
            [*command, "--version"], capture_output=True, text=True, check=False
        ).stdout.strip()
        executable = shutil.which(command[0]) or command[0]
        document = {"tool": version, "command": executable, "corpora": results}
        args.json.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
