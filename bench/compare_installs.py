"""Whether two installs of parallelcheck report the same, byte for byte, on every corpus.

Usage: python bench/compare_installs.py A_PYTHON B_PYTHON [--corpus NAME ...] [--format FMT ...]
           [--jobs N] [--concurrent] [--save DIR] [--out DIR]

A_PYTHON and B_PYTHON are the interpreters of the two installs (e.g. a baseline venv's
``bin/python`` and a development venv's; or plain installs of one source under two Pythons —
Debian 12's 3.11.2 and a later 3.11 once reported differently, see
``tests/test_pattern_portability.py``).  For each corpus and each output format (default
json, text and sarif), each runs ``PYTHON -m parallelcheck check CORPUS --format FMT
--no-cache`` in a fresh process started in an empty scratch folder (so that no configuration or
glossary of the working directory is picked up; ``PARALLELCHECK_CACHE_DIR`` points into that
folder too), and the two stdouts are compared byte for byte, and the two exit statuses.

The corpora are the repository's ``articles/`` (named ``articles``) and every folder of
``../shared/corpus`` beside the repository (named by their folder), or those given with
``--corpus NAME`` (one of these names, or a path to a folder).

Printed: which package each interpreter imports, then one row per corpus and format with the
stdout bytes and exit status of A and B and whether they are identical; for a difference, a
summary under the row: for JSON the findings only in A and only in B, counted by rule (a
finding is compared as a whole: rule, severity, article, locations, message, evidence), with
an example message of each; for text and SARIF (or JSON that does not parse) the first lines
that differ.  The exit status is 0 when every pair is identical, 1 otherwise.

The runs are sequential by default: each check uses every core already (``--jobs 0``), so two
at once only share them.  ``--concurrent`` runs A's and B's check of the same corpus and
format at the same time (worthwhile with ``--jobs 1`` on a machine with cores to spare).

``--save DIR`` keeps A's outputs as ``DIR/<corpus>.json``, ``.txt`` and ``.sarif`` (one per
format run); ``--out DIR`` keeps both sides' as ``DIR/<corpus>.<format>.A`` and ``.B`` (with
their stderr beside them), to diff at leisure.  Run on demand; nothing here is a test.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
ARTICLES = Path(__file__).parents[1] / "articles"
CORPUS_ROOT = Path(__file__).resolve().parents[2] / "shared" / "corpus"
FORMATS = ("json", "text", "sarif")
SAVE_SUFFIX = {"json": ".json", "text": ".txt", "sarif": ".sarif"}


@dataclass
class Run:
    stdout: bytes
    stderr: bytes
    status: int
    seconds: float


def default_corpora() -> dict[str, Path]:
    corpora = {"articles": ARTICLES.resolve()}
    if CORPUS_ROOT.is_dir():
        corpora.update({p.name: p for p in sorted(CORPUS_ROOT.iterdir()) if p.is_dir()})
    return corpora


def pick_corpora(wanted: list[str] | None) -> dict[str, Path]:
    known = default_corpora()
    if not wanted:
        return known
    picked: dict[str, Path] = {}
    for item in wanted:
        if item in known:
            picked[item] = known[item]
        elif Path(item).is_dir():
            picked[Path(item).resolve().name] = Path(item).resolve()
        else:
            sys.exit(f"unknown corpus {item!r}: not one of {', '.join(known)} nor a folder")
    return picked


def interpreter(name: str) -> str:
    """``name`` as an absolute command, since the runs start in another folder."""
    if os.sep in name:
        return str(Path(name).absolute())
    found = shutil.which(name)
    if found is None:
        sys.exit(f"no interpreter {name!r} in PATH")
    return found


def environment(scratch: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PARALLELCHECK_DEBUG"}
    env["PARALLELCHECK_CACHE_DIR"] = str(scratch / "cache")
    return env


def identify(python: str, scratch: Path) -> str:
    """Where ``python`` imports parallelcheck from, and its version."""
    code = "import parallelcheck, importlib.metadata as m; "
    code += "print(parallelcheck.__file__, m.version('parallelcheck'))"
    result = subprocess.run(
        [python, "-c", code],
        cwd=scratch,
        env=environment(scratch),
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode != 0:
        sys.exit(f"{python} cannot import parallelcheck: {result.stderr.strip()}")
    return result.stdout.strip()


def check(python: str, corpus: Path, fmt: str, jobs: int | None) -> Run:
    """One ``check`` of ``corpus`` in a fresh process, in a scratch folder of its own."""
    command = [python, "-m", "parallelcheck", "check", str(corpus), "--format", fmt, "--no-cache"]
    if jobs is not None:
        command += ["--jobs", str(jobs)]
    with tempfile.TemporaryDirectory(prefix="compare-installs-") as folder:
        scratch = Path(folder)
        start = time.perf_counter()
        result = subprocess.run(
            command, cwd=scratch, env=environment(scratch), capture_output=True, check=False
        )
    return Run(result.stdout, result.stderr, result.returncode, time.perf_counter() - start)


def finding_key(finding: dict[str, Any]) -> str:
    return json.dumps(finding, sort_keys=True, ensure_ascii=False)


def diff_findings(
    a: list[dict[str, Any]], b: list[dict[str, Any]]
) -> dict[str, tuple[list[dict[str, Any]], list[dict[str, Any]]]]:
    """Per rule, the findings only in ``a`` and only in ``b`` (as multisets: a finding twice in
    ``a`` and once in ``b`` is once only in ``a``); rules with no difference are left out."""
    count_a = Counter(finding_key(f) for f in a)
    count_b = Counter(finding_key(f) for f in b)
    by_key = {finding_key(f): f for f in [*a, *b]}
    result: dict[str, tuple[list[dict[str, Any]], list[dict[str, Any]]]] = {}
    for side, extra in ((0, count_a - count_b), (1, count_b - count_a)):
        for key, times in sorted(extra.items()):
            finding = by_key[key]
            entry = result.setdefault(finding.get("rule", "?"), ([], []))
            entry[side].extend([finding] * times)
    return dict(sorted(result.items()))


def first_differing_lines(a: bytes, b: bytes, limit: int = 3, width: int = 100) -> list[str]:
    """Up to ``limit`` differing lines, as ``line N, column C:`` then A's and B's line, each cut
    to ``width`` characters around the first character that differs."""
    lines_a = a.decode("utf-8", "replace").splitlines()
    lines_b = b.decode("utf-8", "replace").splitlines()
    out: list[str] = []
    for index in range(max(len(lines_a), len(lines_b))):
        left = lines_a[index] if index < len(lines_a) else "<end of output>"
        right = lines_b[index] if index < len(lines_b) else "<end of output>"
        if left == right:
            continue
        column = next(
            (i for i, (x, y) in enumerate(zip(left, right, strict=False)) if x != y),
            min(len(left), len(right)),
        )
        start = max(0, column - width // 3)

        def cut(line: str, start: int = start) -> str:
            text = line[start : start + width]
            return ("…" if start else "") + text + ("…" if start + width < len(line) else "")

        out += [
            f"line {index + 1}, column {column + 1}:",
            f"  A: {cut(left)}",
            f"  B: {cut(right)}",
        ]
        if len(out) >= 3 * limit:
            break
    return out


def summarise(fmt: str, a: Run, b: Run) -> list[str]:
    """The lines that say how two differing runs differ."""
    lines: list[str] = []
    if a.status != b.status:
        lines.append(f"exit status {a.status} (A) vs {b.status} (B)")
    for side, run in (("A", a), ("B", b)):
        if run.status not in (0, 1) and run.stderr.strip():
            last = run.stderr.decode("utf-8", "replace").strip().splitlines()[-1]
            lines.append(f"{side} stderr: {last[:120]}")
    if a.stdout == b.stdout:
        return lines
    if fmt == "json":
        try:
            doc_a, doc_b = json.loads(a.stdout), json.loads(b.stdout)
        except (json.JSONDecodeError, UnicodeDecodeError):
            lines.append("JSON does not parse on one side; first differing lines:")
        else:
            diff = diff_findings(doc_a.get("findings", []), doc_b.get("findings", []))
            if diff:
                lines.append(f"  {'rule':<24}{'only A':>8}{'only B':>8}  example")
            for rule, (only_a, only_b) in diff.items():
                example = (only_a or only_b)[0]
                where = "A" if only_a else "B"
                text = f"{where}: {example.get('article', '')}: {example.get('message', '')}"
                lines.append(f"  {rule:<24}{len(only_a):>8}{len(only_b):>8}  {text[:90]}")
            others = [
                k
                for k in sorted({*doc_a, *doc_b})
                if k != "findings" and doc_a.get(k) != doc_b.get(k)
            ]
            if others:
                lines.append(f"other keys differ: {', '.join(others)}")
            if diff or others:
                return lines
            lines.append("same findings and keys, other bytes (order or layout); first lines:")
    lines.extend(first_differing_lines(a.stdout, b.stdout))
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a_python", metavar="A_PYTHON", help="interpreter of install A")
    parser.add_argument("b_python", metavar="B_PYTHON", help="interpreter of install B")
    parser.add_argument(
        "--corpus", action="append", help="corpus name or folder (repeatable; default: all)"
    )
    parser.add_argument(
        "--format", action="append", choices=FORMATS, help="formats (repeatable; default: all)"
    )
    parser.add_argument("--jobs", type=int, help="pass --jobs N to every check")
    parser.add_argument("--concurrent", action="store_true", help="run A and B at the same time")
    parser.add_argument("--save", type=Path, help="keep A's outputs as DIR/<corpus>.<ext>")
    parser.add_argument("--out", type=Path, help="keep both sides' stdout and stderr in DIR")
    args = parser.parse_args()
    corpora = pick_corpora(args.corpus)
    formats = args.format or list(FORMATS)
    pythons = {"A": interpreter(args.a_python), "B": interpreter(args.b_python)}
    with tempfile.TemporaryDirectory(prefix="compare-installs-") as scratch:
        for side, python in pythons.items():
            print(f"{side}: {python} -> {identify(python, Path(scratch))}")
    for folder in (args.save, args.out):
        if folder is not None:
            folder.mkdir(parents=True, exist_ok=True)
    print(f"runs: {'A and B at once' if args.concurrent else 'one at a time'}")
    header = f"{'corpus':<22}{'format':<7}{'bytes A':>10}{'bytes B':>10}{'exit':>6}"
    print(f"{header}{'secs A':>8}{'secs B':>8}  identical")
    all_identical = True
    with ThreadPoolExecutor(max_workers=2) as pool:
        for name, corpus in corpora.items():
            for fmt in formats:
                if args.concurrent:
                    futures = [
                        pool.submit(check, p, corpus, fmt, args.jobs) for p in pythons.values()
                    ]
                    a, b = (f.result() for f in futures)
                else:
                    a, b = (check(p, corpus, fmt, args.jobs) for p in pythons.values())
                identical = a.stdout == b.stdout and a.status == b.status
                all_identical &= identical
                status = f"{a.status}" if a.status == b.status else f"{a.status}/{b.status}"
                print(
                    f"{name:<22}{fmt:<7}{len(a.stdout):>10}{len(b.stdout):>10}{status:>6}"
                    f"{a.seconds:>8.1f}{b.seconds:>8.1f}  {'yes' if identical else 'NO'}",
                    flush=True,
                )
                if not identical:
                    for line in summarise(fmt, a, b):
                        print(f"    {line}")
                elif a.status not in (0, 1):
                    last = a.stderr.decode("utf-8", "replace").strip().splitlines()[-1:]
                    print(f"    both exit {a.status}: {''.join(last)[:120]}")
                if args.save is not None:
                    (args.save / f"{name}{SAVE_SUFFIX[fmt]}").write_bytes(a.stdout)
                if args.out is not None:
                    for side, run in (("A", a), ("B", b)):
                        (args.out / f"{name}.{fmt}.{side}").write_bytes(run.stdout)
                        (args.out / f"{name}.{fmt}.{side}.stderr").write_bytes(run.stderr)
    print("all identical" if all_identical else "DIFFERENCES found")
    sys.exit(0 if all_identical else 1)


if __name__ == "__main__":
    main()
