"""Recall of ``missing-sentence``: drop one sentence from translations of an in-sync corpus
and count how many drops the tool reports.

Usage: python bench/sentence_recall.py [CORPUS] [--count N] [--seed S] [--min-chars C]
                                       [--parallelcheck CMD] [--keep DIR] [--json FILE]

``CORPUS`` (default ``../shared/corpus/fastapi`` next to the repository) is a folder of
article folders whose versions are in sync.  ``--count`` article folders are drawn with
``random.Random(seed)``; in each, one translation (not the source ``en``) is drawn, and in it
one paragraph that stands on a line of its own (blank lines around it, outside code fences,
not a heading, list item, table row, quote, admonition, include or HTML) and holds at least two
sentences.  One of its sentences of at least ``--min-chars`` characters (not counting spaces;
30 is the rule's own floor) is deleted, the line keeping its place.  Sentences are cut here
by a rule of this script's own, not the tool's segmenter: after ``.!?`` (and ``।``) followed by
a space and a capital letter, a digit or an opening quote, and after the CJK stops ``。！？``,
never inside inline code, a link or an HTML tag.

The drawn article folders are copied twice into a scratch folder — as they are and with the
drops — and each copy is checked with ``CMD check DIR --format json --no-cache`` started in
an empty folder.  A drop is *found* when the dropped copy has a ``missing-sentence`` finding
naming that version at that line that the clean copy lacks; *seen otherwise* when another new
finding names that version at that line (``length-ratio``, ``missing-paragraph`` …).  New
findings at no dropped line are counted as noise.  Printed: the drops, how many were found,
seen otherwise and missed, per language and per script, and every missed drop's file, line
and sentence (for reading).  Nothing here is a test.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import re
import shlex
import shutil
import subprocess
import tempfile
from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_CORPUS = HERE.parents[1] / "shared" / "corpus" / "fastapi"
SOURCE = "en"

#: Lines that are not a plain paragraph's (headings, list items, quotes, tables, admonitions,
#: includes, HTML, indented blocks).
NOT_PROSE = re.compile(r"^(\s|#|[-*+] |\d+[.)] |>|\||!!!|///|\{\*|<|\[\^|:::|\$|=)")
#: Where a sentence may end: after .!?। then a space and what starts a sentence, not after a
#: word of one or two letters (``z. B.``, ``e.g.``, ``bzw.`` aside: an abbreviation); after a
#: CJK full stop, at once.
LATIN_END = re.compile(
    r"(?<![\s(.][^\W\d_][.])(?<![\s(.][^\W\d_]{2}[.])(?<=[.!?।])\s+"
    r"(?=[\"'“«¿¡(\[A-Z0-9\u00c0-\u00de\u0400-\u042f\u0900-\u097f])"
)
CJK_END = re.compile(r"(?<=[。！？])")
#: Spans a sentence never ends inside: inline code, links and images, HTML tags.
PROTECTED = re.compile(r"`[^`]*`|!?\[[^\]]*\]\([^)]*\)|<[^>]+>")


@dataclass
class Drop:
    article: str
    lang: str
    line: int
    sentence: str
    outcome: str = ""
    rules: str = ""


def sentences(text: str) -> list[str]:
    """``text`` cut into sentences (each keeps its own trailing spaces out)."""
    guarded = [(m.start(), m.end()) for m in PROTECTED.finditer(text)]
    cuts = {0, len(text)}
    for pattern in (LATIN_END, CJK_END):
        for match in pattern.finditer(text):
            at = match.start()
            if not any(start < at < end for start, end in guarded):
                cuts.add(at)
    bounds = sorted(cuts)
    parts = [text[a:b].strip() for a, b in itertools.pairwise(bounds)]
    return [p for p in parts if p]


def paragraph_lines(lines: list[str]) -> list[int]:
    """Indices of the lines that are one-line paragraphs outside code fences."""
    found = []
    fenced = False
    for index, line in enumerate(lines):
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
            continue
        if fenced or not line.strip() or NOT_PROSE.match(line):
            continue
        before = lines[index - 1] if index else ""
        after = lines[index + 1] if index + 1 < len(lines) else ""
        if not before.strip() and not after.strip():
            found.append(index)
    return found


def letters(text: str) -> int:
    return len(text) - text.count(" ")


def draw(corpus: Path, count: int, seed: int, min_chars: int) -> list[Drop]:
    """One drop in each of ``count`` article folders (those offering one), drawn by ``seed``."""
    rng = random.Random(seed)
    folders = sorted(p for p in corpus.iterdir() if (p / f"{SOURCE}.md").is_file())
    rng.shuffle(folders)
    drops = []
    for folder in folders:
        if len(drops) == count:
            break
        langs = sorted(p.stem for p in folder.glob("*.md") if p.stem != SOURCE)
        rng.shuffle(langs)
        for lang in langs:
            lines = (folder / f"{lang}.md").read_text(encoding="utf-8").split("\n")
            options = []
            for index in paragraph_lines(lines):
                parts = sentences(lines[index])
                if len(parts) >= 2:
                    options += [(index, part) for part in parts if letters(part) >= min_chars]
            if options:
                index, sentence = rng.choice(options)
                drops.append(Drop(folder.name, lang, index + 1, sentence))
                break
    return drops


def write_copies(corpus: Path, drops: list[Drop], clean: Path, dropped: Path) -> None:
    for drop in drops:
        shutil.copytree(corpus / drop.article, clean / drop.article)
        shutil.copytree(corpus / drop.article, dropped / drop.article)
        path = dropped / drop.article / f"{drop.lang}.md"
        lines = path.read_text(encoding="utf-8").split("\n")
        line = lines[drop.line - 1]
        start = line.index(drop.sentence)
        rest = (line[:start] + line[start + len(drop.sentence) :]).strip()
        lines[drop.line - 1] = re.sub(r"\s{2,}", " ", rest)
        path.write_text("\n".join(lines), encoding="utf-8")


def check(command: list[str], folder: Path) -> set[tuple[str, str, str, int]]:
    """(rule, article, lang, line) of every finding's location in a deviating version (the
    language tag in lower case, as the corpus names its files: ``zh-hant.md`` is zh-Hant)."""
    with tempfile.TemporaryDirectory(prefix="sentence-recall-run-") as scratch:
        done = subprocess.run(
            [*command, "check", str(folder), "--format", "json", "--no-cache"],
            cwd=scratch,
            capture_output=True,
            text=True,
            check=False,
        )
    found = set()
    for finding in json.loads(done.stdout)["findings"]:
        for location in finding["locations"]:
            if location["lang"] in finding["langs"]:
                lang = location["lang"].lower()
                found.add((finding["rule"], finding["article"], lang, location["line"]))
    return found


def judge(drops: list[Drop], clean: set, dropped: set) -> int:
    """Set each drop's outcome; return the count of new findings at no dropped line."""
    new = dropped - clean
    places = {_place(d) for d in drops}
    for drop in drops:
        here = sorted(r for r, a, lang, line in new if (a, lang, line) == _place(drop))
        drop.rules = ",".join(here)
        if "missing-sentence" in here:
            drop.outcome = "found"
        elif here:
            drop.outcome = "seen otherwise"
        else:
            drop.outcome = "missed"
    return sum(1 for _, a, lang, line in new if (a, lang, line) not in places)


def _place(drop: Drop) -> tuple[str, str, int]:
    return (drop.article, drop.lang.lower(), drop.line)


def script_of(lang: str) -> str:
    return {"ja": "CJK", "ko": "CJK", "zh": "CJK", "zh-hant": "CJK"}.get(lang.lower(), "other")


def report(drops: list[Drop], noise: int) -> None:
    total = Counter(d.outcome for d in drops)
    print(f"drops: {len(drops)}  " + "  ".join(f"{k}: {total[k]}" for k in sorted(total)))
    found = total["found"]
    print(f"recall of missing-sentence: {found}/{len(drops)} = {100 * found / len(drops):.1f} %")
    print(f"new findings at no dropped line: {noise}")
    for label, key in (("language", lambda d: d.lang), ("script", lambda d: script_of(d.lang))):
        groups: dict[str, Counter[str]] = {}
        for drop in drops:
            groups.setdefault(key(drop), Counter())[drop.outcome] += 1
        print(
            f"by {label}: "
            + "  ".join(f"{g} {c['found']}/{c.total()}" for g, c in sorted(groups.items()))
        )
    for drop in drops:
        if drop.outcome != "found":
            place = f"{drop.article}/{drop.lang}.md:{drop.line}"
            print(f"  {drop.outcome:<15} {place} [{drop.rules}] {drop.sentence[:90]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", nargs="?", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--seed", type=int, default=19)
    parser.add_argument("--min-chars", type=int, default=30)
    parser.add_argument("--parallelcheck", default="parallelcheck", help="command to run")
    parser.add_argument("--keep", type=Path, help="write the two copies here and keep them")
    parser.add_argument("--json", type=Path, help="write every drop and its outcome here")
    args = parser.parse_args()
    command = shlex.split(args.parallelcheck)
    drops = draw(args.corpus, args.count, args.seed, args.min_chars)
    with tempfile.TemporaryDirectory(prefix="sentence-recall-") as scratch:
        root = args.keep or Path(scratch)
        clean, dropped = root / "clean", root / "dropped"
        write_copies(args.corpus, drops, clean, dropped)
        noise = judge(drops, check(command, clean), check(command, dropped))
    report(drops, noise)
    if args.json:
        args.json.write_text(json.dumps([asdict(d) for d in drops], indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
