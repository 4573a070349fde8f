"""Recall of `untranslated` for English pasted into Latin-script translations.

Usage: python bench/bench_paste.py [--corpus PATH] [--articles N] [--seed S]

Copies N articles of the corpus (chosen with a fixed seed) to a scratch folder and, in each
Latin-script translation (de, es, fr, pt, tr), replaces one paragraph with an English
paragraph of the same article taken from somewhere else (lightly changed, so that it is not
the very text of any block: only the language can give it away).  Then runs
``parallelcheck check --select untranslated`` and prints how many of the pasted paragraphs
are reported at their line, and how many findings there are in all.

Used to choose when a version's word statistics are trusted to pass a block by (see the
``untranslated`` rule); run on demand, it is not a test.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

DEFAULT_CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "fastapi"
LATIN_TRANSLATIONS = ("de", "es", "fr", "pt", "tr")
_PROSE_LINE = re.compile(r"^[A-Za-zÀ-ž]")


def paragraphs(lines: list[str]) -> list[int]:
    """Indices of one-line prose paragraphs (blank lines around, a letter first)."""
    return [
        i
        for i, line in enumerate(lines)
        if len(line) > 80
        and _PROSE_LINE.match(line)
        and (i == 0 or not lines[i - 1].strip())
        and (i + 1 == len(lines) or not lines[i + 1].strip())
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default=str(DEFAULT_CORPUS))
    parser.add_argument("--articles", type=int, default=60)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    scratch = Path(tempfile.mkdtemp(prefix="pc-paste-"))
    articles = sorted(p for p in Path(args.corpus).iterdir() if p.is_dir())
    rng.shuffle(articles)
    pasted: list[tuple[str, str, int]] = []
    for article in articles[: args.articles]:
        english = (article / "en.md").read_text(encoding="utf-8").split("\n")
        sources = paragraphs(english)
        if not sources:
            continue
        shutil.copytree(article, scratch / article.name)
        for lang in LATIN_TRANSLATIONS:
            target = scratch / article.name / f"{lang}.md"
            if not target.exists():
                continue
            lines = target.read_text(encoding="utf-8").split("\n")
            candidates = paragraphs(lines)
            if len(candidates) < 2:
                continue
            index = rng.choice(candidates)
            text = english[rng.choice(sources)]
            lines[index] = f"{text} {text.split()[0].lower()} extra words here"
            target.write_text("\n".join(lines), encoding="utf-8")
            pasted.append((article.name, lang, index + 1))
    command = ["check", str(scratch), "--format", "json", "--no-cache", "--select", "untranslated"]
    run = subprocess.run(
        [sys.executable, "-m", "parallelcheck", *command],
        capture_output=True,
        text=True,
        cwd=scratch,
    )
    findings = json.loads(run.stdout)["findings"]
    found = 0
    for article, lang, line in pasted:
        if any(
            f["article"] == article
            and lang in f["langs"]
            and any(loc["lang"] == lang and loc["line"] == line for loc in f["locations"])
            for f in findings
        ):
            found += 1
        else:
            print(f"missed: {article}/{lang}.md:{line}")
    print(f"pasted English paragraphs reported: {found} of {len(pasted)}")
    print(f"untranslated findings in all: {len(findings)}")
    shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
