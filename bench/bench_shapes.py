"""Benchmark: large inputs of ordinary shapes, each timed as ``parallelcheck check`` runs it.

Usage: python bench/bench_shapes.py [--scale F] [--only NAME ...] [--keep DIR] [--repeat K]

Each shape is one article folder with two versions, ``en.md`` and ``ja.md``, written to a
scratch directory (or to ``--keep DIR``, which is left in place for profiling).  The shapes are
those of issue 17, case 11, at their full size with ``--scale 1``:

* ``table`` — one identical 80,000-row table (about 1.5 MB) in both versions;
* ``missing-sections`` — 40,000 sections that only en has (ja has the first one);
* ``missing-paragraphs`` — 40,000 paragraphs in one section that only en has (ja has the first);
* ``numbers`` — one paragraph of 100,000 numbers, the same in both versions;
* ``unrelated`` — 2,900 short sections in each version sharing no heading level, name or
  number (about 0.5 MB each): the aligner cannot take the diagonal at once, and the full
  table would weigh every pair of sections;
* ``unrelated-4mb`` — the same with about 4 MB per version (the target is under 30 s).

For each shape the script prints its name, the count that gives it its size, the megabytes of
each version, the median wall seconds and processor seconds (user and system) of ``--repeat``
runs of ``python -m parallelcheck check DIR --format json --no-cache --jobs 1`` in a fresh
process, and the number of findings.  Each run starts in the scratch directory, so no
``glossary/`` of the working directory is picked up (the term rules stay off).  A check
still running after ``--timeout`` seconds is stopped and shown as such.  The processor
seconds are the steadier figure on a shared machine.  Nothing here is a test; the test suite
never times anything.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

Versions = tuple[str, str]


def table_shape(rows: int) -> Versions:
    """An identical table of ``rows`` body rows (a number and an id of its own per row)."""
    lines = ["# Table", "", "| id | model |", "| --- | --- |"]
    lines += [f"| {k} | m{k} |" for k in range(rows)]
    text = "\n".join(lines) + "\n"
    return text, text


def missing_sections_shape(sections: int) -> Versions:
    """``sections`` sections in en; ja has only the first."""
    en = ["# Title", ""]
    for k in range(sections):
        en += [f"## Part {k}", "", f"Body of part {k} with value {k * 3}.", ""]
    ja = ["# タイトル", "", "## Part 0", "", "パート 0 の本文、値 0。", ""]
    return "\n".join(en), "\n".join(ja)


def missing_paragraphs_shape(paragraphs: int) -> Versions:
    """One section holding ``paragraphs`` paragraphs in en; ja has only the first."""
    en = ["# Title", "", "## Notes", ""]
    for k in range(paragraphs):
        en += [f"Paragraph {k} says {k * 3} things.", ""]
    ja = ["# タイトル", "", "## Notes", "", "段落 0 は 0 個のことを述べる。", ""]
    return "\n".join(en), "\n".join(ja)


def numbers_shape(numbers: int) -> Versions:
    """One paragraph of ``numbers`` numbers, identical in both versions."""
    body = " ".join(f"{k * 7 + 11}" for k in range(numbers))
    text = f"# Numbers\n\n{body}\n"
    return text, text


_WORDS = (
    "alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november "
    "oscar papa quebec romeo sierra tango uniform victor whiskey xray yankee zulu"
).split()
_KANA = "あいうえおかきくけこさしすせそたちつてとなにぬねのはひふへほまみむめもやゆよらりるれろわ"


def unrelated_shape(sections: int, seed: int = 17) -> Versions:
    """``sections`` short sections per version, sharing no heading level, name or number with
    the other version (en: words, level-2 headings, numbers from 10,000; ja: kana, level-3
    headings, numbers from 500,000), so that no section of one resembles one of the other."""
    rng = random.Random(seed)
    en = ["# Title", ""]
    ja = ["# 題名", ""]
    for k in range(sections):
        words = " ".join(rng.choice(_WORDS) for _ in range(rng.randint(16, 28)))
        en += ["## " + " ".join(rng.choice(_WORDS) for _ in range(3)), ""]
        en += [f"{words} {10_000 + k}.", ""]
        kana = "".join(rng.choice(_KANA) for _ in range(rng.randint(40, 70)))
        ja += ["### " + "".join(rng.choice(_KANA) for _ in range(6)), ""]
        ja += [f"{kana} {500_000 + k}。", ""]
    return "\n".join(en), "\n".join(ja)


#: name → (generator, its full-size count, what the count counts)
SHAPES: dict[str, tuple[Callable[[int], Versions], int, str]] = {
    "table": (table_shape, 80_000, "rows"),
    "missing-sections": (missing_sections_shape, 40_000, "sections"),
    "missing-paragraphs": (missing_paragraphs_shape, 40_000, "paragraphs"),
    "numbers": (numbers_shape, 100_000, "numbers"),
    "unrelated": (unrelated_shape, 2_900, "sections"),
    "unrelated-4mb": (unrelated_shape, 21_000, "sections"),
}


def write_shape(root: Path, name: str, scale: float = 1.0) -> tuple[Path, int, int, int]:
    """Write one shape under ``root/name/article``; (folder, count, en bytes, ja bytes)."""
    make, full, _ = SHAPES[name]
    count = max(1, round(full * scale))
    en, ja = make(count)
    article = root / name / "article"
    article.mkdir(parents=True, exist_ok=True)
    (article / "en.md").write_text(en, encoding="utf-8")
    (article / "ja.md").write_text(ja, encoding="utf-8")
    return root / name, count, len(en.encode()), len(ja.encode())


def run_check(folder: Path, timeout: float) -> tuple[float, float, int | None]:
    """(wall seconds, processor seconds, findings) of one ``parallelcheck check`` of
    ``folder``; findings are ``None`` when the check was stopped after ``timeout`` seconds."""
    command = [sys.executable, "-m", "parallelcheck", "check", str(folder)]
    command += ["--format", "json", "--no-cache", "--jobs", "1"]
    with tempfile.TemporaryFile() as output, tempfile.TemporaryFile() as errors:
        start = time.perf_counter()
        # From the shapes' own folder: no glossary/ or configuration of a project around.
        process = subprocess.Popen(command, stdout=output, stderr=errors, cwd=folder.parent)
        timer = threading.Timer(timeout, process.kill)
        timer.start()
        _, status, usage = os.wait4(process.pid, 0)
        timer.cancel()
        wall = time.perf_counter() - start
        cpu = usage.ru_utime + usage.ru_stime
        if wall >= timeout:
            return wall, cpu, None
        code = os.waitstatus_to_exitcode(status)
        if code not in (0, 1):
            errors.seek(0)
            sys.exit(f"check of {folder} failed ({code}): {errors.read()[-2000:]!r}")
        output.seek(0)
        return wall, cpu, json.loads(output.read())["summary"]["findings"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0, help="size factor (1 = issue 17)")
    parser.add_argument("--only", nargs="*", choices=sorted(SHAPES), help="shapes to run")
    parser.add_argument("--keep", type=Path, help="write the shapes here and keep them")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=1800, help="stop a check after this")
    parser.add_argument("--generate-only", action="store_true", help="write, do not time")
    args = parser.parse_args()
    names = args.only or list(SHAPES)
    with tempfile.TemporaryDirectory(prefix="bench-shapes-") as scratch:
        root = args.keep or Path(scratch)
        print(
            f"{'shape':<20} {'count':>18} {'en MB':>6} {'ja MB':>6} {'wall s':>8} {'cpu s':>8}"
            " findings"
        )
        for name in names:
            folder, count, en_bytes, ja_bytes = write_shape(root, name, args.scale)
            sizes = f"{en_bytes / 1e6:>6.2f} {ja_bytes / 1e6:>6.2f}"
            counted = f"{count:,} {SHAPES[name][2]}"
            if args.generate_only:
                print(f"{name:<20} {counted:>18} {sizes}  {folder}")
                continue
            runs = [run_check(folder, args.timeout) for _ in range(args.repeat)]
            wall = statistics.median(run[0] for run in runs)
            cpu = statistics.median(run[1] for run in runs)
            findings = runs[-1][2]
            shown = "stopped" if findings is None else str(findings)
            print(f"{name:<20} {counted:>18} {sizes} {wall:>8.2f} {cpu:>8.2f} {shown}", flush=True)


if __name__ == "__main__":
    main()
