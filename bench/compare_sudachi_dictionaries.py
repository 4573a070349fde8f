"""Whether Sudachi's small dictionary normalises Japanese as the core one does, on every
Japanese text the repository gives the glossary matcher: the glossaries (``glossary/``), every
Japanese string literal in ``tests/*.py``, the rule cases' Markdown (``tests/cases``) and the
shipped articles' Japanese versions.

    pip install sudachidict-small      # beside the ja extra's sudachidict-core
    python bench/compare_sudachi_dictionaries.py

Each text is tokenised as :mod:`parallelcheck.glossary.match` tokenises it (split mode A; per
token its normalised form, NFKC and case folded, its offsets and whether it is the particle
の) with each dictionary; the script prints, per group, how many texts come out differently
and a few of the forms that differ.
"""

from __future__ import annotations

import ast
import re
import sys
import unicodedata
from pathlib import Path

from sudachipy import dictionary, tokenizer

REPO = Path(__file__).resolve().parent.parent
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
GROUPS = {
    "glossary": ["glossary/*"],
    "tests/*.py strings": ["tests/test_*.py"],
    "rule cases": ["tests/cases/**/*.md"],
    "articles": ["articles/*/ja.md"],
}


def tokens(analyser, text: str) -> list[tuple[str, int, int, bool]]:
    found = []
    for line in text.splitlines(keepends=True):
        for morpheme in analyser.tokenize(line):
            surface = morpheme.surface()
            if not surface.strip():
                continue
            norm = unicodedata.normalize("NFKC", morpheme.normalized_form() or surface)
            is_no = surface == "の" and morpheme.part_of_speech()[0] == "助詞"
            found.append((norm.casefold(), morpheme.begin(), morpheme.end(), is_no))
    return found


def texts(patterns: list[str]) -> list[str]:
    found = []
    for pattern in patterns:
        for path in sorted(REPO.glob(pattern)):
            if path.suffix == ".py":
                tree = ast.parse(path.read_text(encoding="utf-8"))
                found += [
                    node.value
                    for node in ast.walk(tree)
                    if isinstance(node, ast.Constant)
                    and isinstance(node.value, str)
                    and JAPANESE.search(node.value)
                ]
            elif path.is_file():
                try:
                    text = path.read_text(encoding="utf-8")
                except UnicodeDecodeError:
                    continue  # a case that is deliberately not UTF-8
                if JAPANESE.search(text):
                    found.append(text)
    return found


def main() -> int:
    mode = tokenizer.Tokenizer.SplitMode.A
    core = dictionary.Dictionary(dict="core").tokenizer(mode=mode)
    small = dictionary.Dictionary(dict="small").tokenizer(mode=mode)
    differing_total = total = 0
    for group, patterns in GROUPS.items():
        group_texts = texts(patterns)
        differing = []
        for text in group_texts:
            a, b = tokens(core, text), tokens(small, text)
            if a != b:
                differing.append((sorted(set(a) - set(b)), sorted(set(b) - set(a))))
        total += len(group_texts)
        differing_total += len(differing)
        print(f"{group}: {len(differing)} of {len(group_texts)} texts differ")
        for only_core, only_small in differing[:3]:
            print(
                f"    core {[t[0] for t in only_core][:5]}  small {[t[0] for t in only_small][:5]}"
            )
    print(f"all: {differing_total} of {total} texts differ")
    return 0


if __name__ == "__main__":
    sys.exit(main())
