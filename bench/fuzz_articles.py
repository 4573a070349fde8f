"""Generated article sets for looking for crashes: versions built from a base of Markdown pieces.

Usage: python bench/fuzz_articles.py OUT [--first SEED] [--count N]

Writes N article folders (``OUT/s<seed>/<lang>.md``, two to six versions each) and nothing
else; check them with every format to look for internal errors, e.g.
``parallelcheck check OUT --no-cache --format json``, ``--format sarif`` and ``--diff
--unsafe-fixes``.  Each folder comes from its seed alone, so a folder that breaks a check
is made again by its seed.  The English version is a random sequence of pieces (paragraphs,
lists, nested and empty items, code blocks indented and fenced, tables, admonitions, HTML,
directives, front matter, broken YAML, Chinese, Japanese and Korean text); each other version
is the same sequence with some pieces dropped, moved or added.  A crash found this way
(``2. 42.``: an item holding nothing but a list marker, or a version whose prose is all inside
one list) becomes a test of its own under ``tests/``.  Run on demand; nothing here is a test.
"""

from __future__ import annotations

import argparse
import random
import shutil
from pathlib import Path

PIECES = (
    "Alpha.",
    "Alpha Alpha Alpha.",
    "42.",
    "1. Alpha.",
    "2. 42.",
    "- Item",
    "- 3.",
    "  - Nested 4",
    "    - Deeper",
    "\t- tab item",
    "> Quote 5",
    "> [!NOTE]\n> Body 8",
    "```python\nx = 1\n```",
    "```\n```",
    "~~~js\nlet a = 2;\n~~~",
    "| a | b |\n|---|---|\n| 1 | 2 |",
    "| a |\n|---|\n| 1 |\n| 2 |",
    "!!! note\n    Body 7.",
    '!!! tip "T"\n    - x\n    - y',
    "/// note\nBody\n///",
    "<div>\n</div>",
    "<details><summary>S</summary>\n\nIn 9.\n\n</details>",
    "## Sub",
    "### Deep {#id}",
    "Text `code` here.",
    "[link](https://x.io/a)",
    "![img](a.png)",
    "1.",
    "-",
    "1) Step",
    "<!-- c -->",
    "Wait 5 seconds.",
    "数字 3 个。",
    "数字三個。",
    "한국어 문장 2개.",
    "日本語の文です。",
    "# Title",
    "#",
    "Term\n: Def",
    "    indented code",
    "$$\nx\n$$",
    "***",
    "Hello **World** 2024-01-02.",
    "Version 1.2.3 on 2025-08-31 at 18:20 UTC.",
    "$ npm install",
    "{% include x.md %}",
    "{{< note >}}\nHi\n{{< /note >}}",
    '<Tabs>\n<TabItem label="a">\n\nx\n\n</TabItem>\n</Tabs>',
    "1. a\n\n   ```sh\n   ls\n   ```",
    "- a\n\n  b 4\n\n- c",
    "Footnote[^1].\n\n[^1]: Note 3.",
)
FRONT_MATTER = ("", "---\ntitle: T\n---\n", "---\ntitle: [broken\n---\n", "---\n---\n")
LANGS = ("en", "de", "ja", "zh-Hant", "ko", "es")


def base_text(rng: random.Random) -> str:
    """The English version: front matter, then up to twelve pieces."""
    pieces = [rng.choice(PIECES) for _ in range(rng.randint(0, 12))]
    return rng.choice(FRONT_MATTER) + "\n\n".join(pieces) + "\n"


def variant(rng: random.Random, base: str) -> str:
    """Another version: the same, or with pieces dropped, moved or added."""
    if rng.random() < 0.3:
        return base
    pieces = base.split("\n\n")
    if rng.random() < 0.2:
        rng.shuffle(pieces)
    pieces = [piece for piece in pieces if rng.random() > 0.25]
    for _ in range(rng.randint(0, 2)):
        pieces.insert(rng.randint(0, len(pieces)), rng.choice(PIECES))
    return "\n\n".join(pieces) + ("\n" if rng.random() < 0.9 else "")


def write_set(folder: Path, seed: int) -> None:
    """The article set of *seed* in *folder*."""
    rng = random.Random(seed)
    base = base_text(rng)
    folder.mkdir(parents=True)
    for lang in LANGS[: rng.randint(2, len(LANGS))]:
        text = base if lang == "en" else variant(rng, base)
        (folder / f"{lang}.md").write_text(text, encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="folder to write (emptied first)")
    parser.add_argument("--first", type=int, default=0, help="first seed")
    parser.add_argument("--count", type=int, default=500, help="how many article sets")
    args = parser.parse_args()
    shutil.rmtree(args.out, ignore_errors=True)
    for seed in range(args.first, args.first + args.count):
        write_set(args.out / f"s{seed}", seed)
    print(f"{args.count} article sets in {args.out}")


if __name__ == "__main__":
    main()
