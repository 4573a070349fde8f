"""Recall of ``missing-sentence``: drop one sentence from translations of an in-sync corpus
and count how many drops the tool reports.

Usage: python bench/sentence_recall.py [CORPUS] [--count N] [--seed S] [--min-chars C]
                                       [--parallelcheck CMD] [--keep DIR] [--json FILE]

``CORPUS`` (default ``../shared/corpus/fastapi`` next to the repository) is a folder of
article folders whose versions are in sync.  ``--count`` drops (default 240) are drawn with
``random.Random(seed)`` evenly over the translations (not the source ``en``): the languages
take turns, each drawing its next article folder from its own shuffled order, so that every
language has as many drops (give or take one) and an article folder may have drops in several
languages, at most one per version.  In the drawn version, one paragraph is drawn that stands on
a line of its own (blank lines around it, outside code fences, not a heading, list item, table
row, quote, admonition, include or HTML) and holds at least two sentences, and one of its
sentences of at least ``--min-chars`` characters (readable characters: not counting spaces,
emphasis marks, backticks or link targets; 30 is the rule's own floor) is deleted, the line
keeping its place.  Sentences are cut here by a rule of this script's own, not the tool's
segmenter, so that a drop is at a real sentence boundary whatever the tool thinks: after
``.!?`` (and ``।``) followed by a space and a capital letter, a digit, an opening quote or a
letter of a script without case (Korean ends sentences with ``. ``), and after the CJK stops
``。！？``, never inside inline code, a link or an HTML tag.

The drawn article folders are copied twice into a scratch folder — as they are and with the
drops — and each copy is checked with ``CMD check DIR --format json --no-cache`` started in
an empty folder.  A drop is *found* when the dropped copy has a ``missing-sentence`` finding
naming that version at that line that the clean copy lacks; *seen otherwise* when another new
finding names that version at that line (``length-ratio``, ``missing-paragraph`` …); a found
drop whose finding says the source sentence is only partly translated (the translation had
split it in two and the drop took one half) is counted apart as well.  A found
drop is checked for quoting the right source sentence where that can be told (the source
paragraph at the finding's source line has as many sentences, by this script's cut, as the
translated one had: the dropped sentence's counterpart is the one at the same place) and
counted *right*, *wrong* (the finding quotes another sentence and does not name the right one
as an alternative) or *unknown*.  New findings at the first line of the admonition holding a
dropped paragraph (``length-ratio`` of the admonition as a whole) are listed apart; other new
findings at no dropped line are noise, each listed.
Printed: the drops, how many were found, seen otherwise and missed, per language, per script
and per sentence count of the paragraph, and every missed drop's file, line and sentence (for
reading).  Nothing here is a test.
"""

from __future__ import annotations

import argparse
import difflib
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
#: Where a sentence may end: after .!?। then a space and what starts a sentence (a capital,
#: a digit, an opening quote, a letter of a script without case: Korean ends its sentences
#: with ". "), not after a word of one or two letters (``z. B.``, ``e.g.``, ``bzw.`` aside:
#: an abbreviation); after a CJK full stop, at once.
LATIN_END = re.compile(
    r"(?<![\s(.][^\W\d_][.])(?<![\s(.][^\W\d_]{2}[.])(?<=[.!?।])\s+"
    r"(?=[\"'“«¿¡(\[A-Z0-9\u00c0-\u00de\u0400-\u042f\u0900-\u097f"
    r"\u1100-\u11ff\u3040-\u30ff\u3130-\u318f\u4e00-\u9fff\uac00-\ud7a3])"
)
CJK_END = re.compile(r"(?<=[。！？])")
#: Spans a sentence never ends inside: inline code, links and images, HTML tags.
PROTECTED = re.compile(r"`[^`]*`|!?\[[^\]]*\]\([^)]*\)|<[^>]+>")
#: What a reader does not keep of a line's text: link targets, emphasis marks, backticks.
MARKUP = re.compile(r"\]\([^)]*\)|[*_`\[\]]")


@dataclass
class Drop:
    article: str
    lang: str
    line: int
    sentence: str
    index: int  # the sentence's place in its paragraph (0-based)
    count: int  # the paragraph's sentences before the drop
    container: int = 0  # the first line of the admonition holding the paragraph, if any
    outcome: str = ""
    rules: str = ""
    quoted: str = ""  # found: right, wrong or unknown source sentence
    partly: bool = False  # found as a source sentence only partly translated


@dataclass(frozen=True)
class Finding:
    rule: str
    article: str
    lang: str
    line: int
    source_line: int
    quoted: tuple[str, ...]  # the sentence a sentence finding quotes, then its alternatives
    partly: bool  # a sentence finding's: the source sentence is only partly translated
    message: str


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
    """Readable characters of a line's text: no spaces, no emphasis, backticks or link target."""
    bare = MARKUP.sub("", text)
    return len(bare) - bare.count(" ")


def container_of(lines: list[str], index: int) -> int:
    """The 1-based line of the admonition (``/// note`` … ``///``) holding line *index*, or 0."""
    for above in range(index - 1, -1, -1):
        text = lines[above].strip()
        if text == "///":
            return 0
        if text.startswith("/// "):
            return above + 1
    return 0


def options_in(path: Path, min_chars: int) -> list[tuple[int, int, int, str]]:
    """(line index, sentence index, sentences, sentence) of every sentence that may be dropped."""
    lines = path.read_text(encoding="utf-8").split("\n")
    options = []
    for index in paragraph_lines(lines):
        parts = sentences(lines[index])
        if len(parts) >= 2:
            options += [
                (index, k, len(parts), part)
                for k, part in enumerate(parts)
                if letters(part) >= min_chars
            ]
    return options


def draw(corpus: Path, count: int, seed: int, min_chars: int) -> list[Drop]:
    """``count`` drops, the translations taking turns, drawn by ``seed``."""
    rng = random.Random(seed)
    folders = sorted(p for p in corpus.iterdir() if (p / f"{SOURCE}.md").is_file())
    langs = sorted({p.stem for f in folders for p in f.glob("*.md")} - {SOURCE})
    orders = {}
    for lang in langs:
        order = [f for f in folders if (f / f"{lang}.md").is_file()]
        rng.shuffle(order)
        orders[lang] = order
    drops: list[Drop] = []
    while len(drops) < count and any(orders.values()):
        for lang in langs:
            order = orders[lang]
            while order and len(drops) < count:
                folder = order.pop()
                options = options_in(folder / f"{lang}.md", min_chars)
                if options:
                    index, k, total, sentence = rng.choice(options)
                    lines = (folder / f"{lang}.md").read_text(encoding="utf-8").split("\n")
                    container = container_of(lines, index)
                    drops.append(Drop(folder.name, lang, index + 1, sentence, k, total, container))
                    break
    return drops


def write_copies(corpus: Path, drops: list[Drop], clean: Path, dropped: Path) -> None:
    for article in sorted({d.article for d in drops}):
        shutil.copytree(corpus / article, clean / article)
        shutil.copytree(corpus / article, dropped / article)
    for drop in drops:
        path = dropped / drop.article / f"{drop.lang}.md"
        lines = path.read_text(encoding="utf-8").split("\n")
        line = lines[drop.line - 1]
        start = line.index(drop.sentence)
        rest = (line[:start] + line[start + len(drop.sentence) :]).strip()
        lines[drop.line - 1] = re.sub(r"\s{2,}", " ", rest)
        path.write_text("\n".join(lines), encoding="utf-8")


def check(command: list[str], folder: Path) -> set[Finding]:
    """Every finding's location in a deviating version (the language tag in lower case, as the
    corpus names its files: ``zh-hant.md`` is zh-Hant), with its source line and quotation."""
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
        evidence = finding.get("evidence") or {}
        quoted = (evidence.get("sentence", ""), *evidence.get("alternatives", ()))
        places = {loc["lang"]: loc["line"] for loc in finding["locations"]}
        for location in finding["locations"]:
            if location["lang"] in finding["langs"]:
                found.add(
                    Finding(
                        finding["rule"],
                        finding["article"],
                        location["lang"].lower(),
                        location["line"],
                        places.get(SOURCE, 0),
                        quoted,
                        bool(evidence.get("partly")),
                        finding["message"],
                    )
                )
    return found


def judge(
    drops: list[Drop], clean: set[Finding], dropped: set[Finding], corpus: Path
) -> tuple[list[Finding], list[Finding]]:
    """Set each drop's outcome; return the new findings at the first line of the admonition
    holding a dropped line (a finding on the container as a whole, caused by the drop) and
    those at no dropped line (noise)."""
    before = {(f.rule, *_at(f)) for f in clean}
    new = {f for f in dropped if (f.rule, *_at(f)) not in before}
    places = {_place(d) for d in drops}
    containers = {(d.article, d.lang.lower(), d.container) for d in drops if d.container}
    for drop in drops:
        here = sorted((f for f in new if _at(f) == _place(drop)), key=lambda f: f.rule)
        drop.rules = ",".join(f.rule for f in here)
        sentence = [f for f in here if f.rule == "missing-sentence"]
        if sentence:
            drop.outcome = "found"
            drop.quoted = quoted_right(drop, sentence[0], corpus)
            drop.partly = sentence[0].partly
        elif here:
            drop.outcome = "seen otherwise"
        else:
            drop.outcome = "missed"
    elsewhere = sorted((f for f in new if _at(f) not in places), key=lambda f: (f.article, f.line))
    return [f for f in elsewhere if _at(f) in containers], [
        f for f in elsewhere if _at(f) not in containers
    ]


def quoted_right(drop: Drop, finding: Finding, corpus: Path) -> str:
    """Whether a finding quotes the dropped sentence's counterpart: right, wrong or unknown."""
    if not finding.source_line:
        return "unknown"
    lines = (corpus / drop.article / f"{SOURCE}.md").read_text(encoding="utf-8").split("\n")
    parts = sentences(lines[finding.source_line - 1]) if finding.source_line <= len(lines) else []
    if len(parts) != drop.count:
        return "unknown"
    closest = [max(range(len(parts)), key=lambda k: _similar(q, parts[k])) for q in finding.quoted]
    return "right" if drop.index in closest else "wrong"


def _similar(quoted: str, part: str) -> float:
    return difflib.SequenceMatcher(None, quoted, MARKUP.sub("", part)).ratio()


def _at(finding: Finding) -> tuple[str, str, int]:
    return (finding.article, finding.lang, finding.line)


def _place(drop: Drop) -> tuple[str, str, int]:
    return (drop.article, drop.lang.lower(), drop.line)


def script_of(lang: str) -> str:
    return {"ja": "CJK", "ko": "CJK", "zh": "CJK", "zh-hant": "CJK"}.get(lang.lower(), "other")


def report(drops: list[Drop], on_containers: list[Finding], noise: list[Finding]) -> None:
    total = Counter(d.outcome for d in drops)
    print(f"drops: {len(drops)}  " + "  ".join(f"{k}: {total[k]}" for k in sorted(total)))
    found = total["found"]
    print(f"recall of missing-sentence: {found}/{len(drops)} = {100 * found / len(drops):.1f} %")
    partly = sum(d.partly for d in drops if d.outcome == "found")
    print(f"found as a sentence only partly translated: {partly}")
    quoted = Counter(d.quoted for d in drops if d.outcome == "found")
    print("quoted source sentence: " + "  ".join(f"{k}: {quoted[k]}" for k in sorted(quoted)))
    groupings = (
        ("language", lambda d: d.lang),
        ("script", lambda d: script_of(d.lang)),
        ("sentences", lambda d: "2" if d.count == 2 else "3+"),
    )
    for label, key in groupings:
        groups: dict[str, Counter[str]] = {}
        for drop in drops:
            groups.setdefault(key(drop), Counter())[drop.outcome] += 1
        print(
            f"by {label}: "
            + "  ".join(f"{g} {c['found']}/{c.total()}" for g, c in sorted(groups.items()))
        )
    for drop in drops:
        if drop.outcome != "found" or drop.quoted == "wrong":
            place = f"{drop.article}/{drop.lang}.md:{drop.line}"
            what = drop.outcome if drop.quoted != "wrong" else "found, wrong"
            print(f"  {what:<15} {place} [{drop.rules}] {drop.sentence[:90]}")
    print(f"new findings on the admonition holding a dropped line: {len(on_containers)}")
    for finding in on_containers:
        place = f"{finding.article}/{finding.lang}.md:{finding.line}"
        print(f"  {finding.rule:<18} {place} {finding.message[:100]}")
    print(f"new findings at no dropped line: {len(noise)}")
    for finding in noise:
        place = f"{finding.article}/{finding.lang}.md:{finding.line}"
        print(f"  {finding.rule:<18} {place} {finding.message[:100]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", nargs="?", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--count", type=int, default=240)
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
        on_containers, noise = judge(
            drops, check(command, clean), check(command, dropped), args.corpus
        )
    report(drops, on_containers, noise)
    if args.json:
        args.json.write_text(json.dumps([asdict(d) for d in drops], indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
