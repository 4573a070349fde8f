"""CPU of the readers alone: every Markdown / MDX file of a corpus parsed in one process.

Usage: python bench/bench_read.py [--corpus NAME ...] [--ext md|mdx ...] [--repeat N]
           [--compare OLD_SRC] [--rounds R] [--dump FILE]

The files are read and decoded first; then each pass parses every text with
:func:`parallelcheck.readers.parse_text` and the best of ``--repeat`` passes is printed in
seconds (the machine is shared: whole-run timings swing too much to see a reader's share).
Defaults: the ``fastapi`` corpus's ``.md`` files and the ``astro-docs`` corpus's ``.mdx``
files, each timed on its own.

``--compare OLD_SRC`` times another copy of the code (a ``src`` folder, e.g. a ``git
archive`` of the last commit) against this one: ``--rounds`` alternating child processes of
each (``PYTHONPATH`` set to the one or the other ``src``), so that a change of load on the
machine hits both alike; the best of each is printed.

``--dump FILE`` writes, instead of timing, ``repr()`` of the Document of every file of the
corpora (with ``--ext`` ``md`` and ``mdx`` by default, and also ``articles`` of this
repository when named) to FILE, one line per file: run it with two installs and ``cmp`` the
two dumps to show that a change reads every file the same.  Run on demand; nothing here is
a test.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CORPUS_ROOT = REPO.parent / "shared" / "corpus"
DEFAULT = (("fastapi", "md"), ("astro-docs", "mdx"))
KINDS = {"md": "markdown", "markdown": "markdown", "mdx": "mdx"}


def corpus_path(name: str) -> Path:
    if name == "articles":
        return REPO / "articles"
    path = Path(name)
    return path if path.is_dir() else CORPUS_ROOT / name


def load(name: str, ext: str) -> list[tuple[str, str, str]]:
    """(text, path, kind) of every ``*.ext`` file under the corpus, in a fixed order."""
    from parallelcheck.readers.decode import decode_bytes

    root = corpus_path(name)
    found = []
    for path in sorted(root.rglob(f"*.{ext}")):
        if path.is_file():
            found.append((decode_bytes(path.read_bytes(), str(path)), str(path), KINDS[ext]))
    return found


def best_of(texts: list[tuple[str, str, str]], repeat: int) -> float:
    from parallelcheck.readers import parse_text

    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        for text, path, kind in texts:
            parse_text(text, path, "en", kind)
        best = min(best, time.process_time() - start)
    return best


def measure(pairs: list[tuple[str, str]], repeat: int) -> dict[str, float]:
    return {f"{name}/*.{ext}": best_of(load(name, ext), repeat) for name, ext in pairs}


def dump(pairs: list[tuple[str, str]], out: Path) -> None:
    from parallelcheck.readers import parse_text

    with out.open("w", encoding="utf-8") as handle:
        for name, ext in pairs:
            for text, path, kind in load(name, ext):
                handle.write(f"{path}\t{parse_text(text, path, 'en', kind)!r}\n")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", action="append", default=[])
    parser.add_argument("--ext", action="append", default=[])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--compare", metavar="OLD_SRC")
    parser.add_argument("--dump", type=Path)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.corpus:
        exts = args.ext or (["md", "mdx"] if args.dump else ["md"])
        pairs = [(name, ext) for name in args.corpus for ext in exts]
    else:
        pairs = list(DEFAULT)
    if args.dump:
        dump(pairs, args.dump)
        return 0
    if not args.compare:
        results = measure(pairs, args.repeat)
        for label, seconds in results.items():
            print(f"{seconds:.3f}\t{label}", flush=True)
        return 0
    sides = {"old": str(Path(args.compare).resolve()), "new": str(REPO / "src")}
    best: dict[tuple[str, str], float] = {}
    child = [sys.executable, __file__, "--child", "--repeat", str(args.repeat)]
    child += [f"--corpus={name}" for name in args.corpus] + [f"--ext={ext}" for ext in args.ext]
    for round_ in range(args.rounds):
        for side, src in sides.items() if round_ % 2 == 0 else reversed(sides.items()):
            env = {**os.environ, "PYTHONPATH": src}
            output = subprocess.run(child, env=env, check=True, capture_output=True, text=True)
            for row in output.stdout.splitlines():
                seconds, label = row.split("\t")
                key = (side, label)
                best[key] = min(best.get(key, float("inf")), float(seconds))
    for label in dict.fromkeys(label for _, label in best):
        old, new = best[("old", label)], best[("new", label)]
        print(f"{label}: old {old:.3f} s -> new {new:.3f} s ({(new / old - 1) * 100:+.1f} %)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
