"""The glossary rules on the user's article, generated over every term occurrence.

For each occurrence of an approved form in each version (found with the shipped glossary):

* replaced by a forbidden variant of its term → ``term-forbidden`` naming that version and line;
* for keep terms, re-cased, split by a space, or (terms of 7+ letters) missing a letter →
  ``term-altered`` naming that version and line;
* for translated terms, dropped in a translation → ``term-missing`` naming that version.

Mutations are applied to the aligned article in memory (one block at a time, then restored),
so a thousand cases run in seconds; a few cases go through files and the command line too.
Finally, the shipped article with the shipped glossary gives no term finding at all: every
difference it has is structural (see test_cli.py), none is terminological.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import REPO

from parallelcheck.cli import cli
from parallelcheck.config import Config
from parallelcheck.discover.sets import discover
from parallelcheck.engine import CheckOptions
from parallelcheck.facts import ArticleFacts
from parallelcheck.glossary import load_glossaries
from parallelcheck.glossary.match import GlossaryMatcher, allowed_edits, blank_code, find_terms
from parallelcheck.model.document import BlockKind
from parallelcheck.rules import REGISTRY
from parallelcheck.rules._common import line_in
from parallelcheck.run.pipeline import check_set

ARTICLE = REPO / "articles/deepinfer-vs-lmdeploy"
GLOSSARY_DIR = REPO / "glossary"
TERM_RULES = ("term-missing", "term-forbidden", "term-altered")

GLOSSARY = load_glossaries([str(GLOSSARY_DIR)])
TERMS = GLOSSARY.by_id()
_SET = discover([str(ARTICLE)], root=str(ARTICLE.parent), cwd=str(REPO))[0]
_RESULT = check_set(
    _SET, Config(glossary=(str(GLOSSARY_DIR),)), CheckOptions(select=TERM_RULES), GLOSSARY
)
ARTICLE_ALIGNED = _RESULT.article


# The facts of the article's blocks, shared by every mutation below: a fact is kept by the
# content it is read from (text, inline code, language, glossary), so a mutated block is
# scanned afresh and every other block's scan is the one a fresh ArticleFacts would make
# (test_each_term_rule_finds_the_same_alone_or_after_the_others checks sharing gives the same
# findings).  One scan of the whole article per mutation made these thousand cases take a minute.
FACTS = ArticleFacts(GlossaryMatcher(GLOSSARY))


def term_forbidden(article):
    return REGISTRY["term-forbidden"].run(article, facts=FACTS, glossary=GLOSSARY)


def term_altered(article):
    return REGISTRY["term-altered"].run(article, facts=FACTS, glossary=GLOSSARY)


def term_missing(article):
    return REGISTRY["term-missing"].run(article, facts=FACTS, glossary=GLOSSARY)


FILE_LINES = {
    lang: Path(path).read_text(encoding="utf-8").splitlines()
    for lang, path in ARTICLE_ALIGNED.paths.items()
}


@dataclass(frozen=True)
class Occurrence:
    lang: str
    section: int  # index into ARTICLE_ALIGNED.sections
    block: int | None  # index into the version's section blocks; None: the heading
    start: int
    end: int
    term_id: str
    line: int
    text: str

    @property
    def id(self) -> str:
        return f"{self.lang}:{self.line}:{self.term_id}:{self.start}"


def _occurrences() -> list[Occurrence]:
    found = []
    for index, row in enumerate(ARTICLE_ALIGNED.sections):
        for lang, section in row.cells.items():
            if section is None:
                continue
            texts = []
            if section.level:
                texts.append((None, section.title, section.code_spans, lambda _, s=section: s.line))
            for number, block in enumerate(section.blocks):
                if block.kind is not BlockKind.CODE:
                    texts.append(
                        (
                            number,
                            block.text,
                            block.all_code_spans(),
                            lambda o, b=block: line_in(b, o),
                        )
                    )
            for number, text, spans, where in texts:
                for hit in find_terms(blank_code(text, spans), lang, GLOSSARY):
                    if hit.status == "approved":
                        found.append(
                            Occurrence(
                                lang,
                                index,
                                number,
                                hit.start,
                                hit.end,
                                hit.term_id,
                                where(hit.start),
                                text[hit.start : hit.end],
                            )
                        )
    return found


OCCURRENCES = _occurrences()
TRANSLATED = [o for o in OCCURRENCES if TERMS[o.term_id].keep is None]
KEPT = [o for o in OCCURRENCES if TERMS[o.term_id].keep is not None]


class _Mutated:
    """Replace one occurrence's text in the aligned article for the duration of a ``with``."""

    def __init__(self, occurrence: Occurrence, replacement: str):
        self.occurrence, self.replacement = occurrence, replacement

    def __enter__(self):
        o = self.occurrence
        section = ARTICLE_ALIGNED.sections[o.section].cells[o.lang]
        assert section is not None
        self.holder = section if o.block is None else section.blocks[o.block]
        self.attribute = "title" if o.block is None else "text"
        self.original = getattr(self.holder, self.attribute)
        assert self.original[o.start : o.end] == o.text
        changed = self.original[: o.start] + self.replacement + self.original[o.end :]
        setattr(self.holder, self.attribute, changed)
        return ARTICLE_ALIGNED

    def __exit__(self, *exc):
        setattr(self.holder, self.attribute, self.original)


def test_the_article_has_occurrences_of_every_term_in_every_version():
    for lang in ARTICLE_ALIGNED.langs:
        used = {o.term_id for o in OCCURRENCES if o.lang == lang}
        assert used == set(TERMS), (lang, set(TERMS) - used)
    assert len(OCCURRENCES) > 800


# ---------------------------------------------------------------------------
# (a) a forbidden variant in place of a translated term, (b) a keep term misspelled


def _flip_last_letter(form: str) -> str:
    index = max(i for i, c in enumerate(form) if c.isalpha())
    return form[:index] + form[index].swapcase() + form[index + 1 :]


def _space_inside(form: str) -> str:
    middle = len(form) // 2
    cuts = [i for i in range(1, len(form)) if form[i - 1].isalnum() and form[i].isalnum()]
    cut = min(cuts, key=lambda i: abs(i - middle))
    return form[:cut] + " " + form[cut:]


def _drop_letter(form: str) -> str | None:
    letters = sum(c.isalnum() for c in form)
    if not allowed_edits(letters):
        return None  # short names: only re-cased or split forms are looked for
    index = max(i for i, c in enumerate(form) if c.isalpha()) - 1
    return form[:index] + form[index + 1 :]


def misspellings(form: str) -> list[str]:
    """Re-cased, split by a space and (7+ letters) missing a letter."""
    variants = [_flip_last_letter(form), _space_inside(form), _drop_letter(form)]
    return [v for v in variants if v is not None]


def _forbidden_variant(occurrence: Occurrence) -> None:
    entry = TERMS[occurrence.term_id].entry(occurrence.lang)
    assert entry is not None and entry.forbidden, "every translated term has a forbidden form"
    variant = entry.forbidden[0]
    with _Mutated(occurrence, variant) as article:
        findings = list(term_forbidden(article))
    assert len(findings) == 1, (variant, [f.message for f in findings])
    (found,) = findings
    assert found.langs == (occurrence.lang,)
    assert [(loc.lang, loc.line) for loc in found.locations] == [(occurrence.lang, occurrence.line)]
    assert found.evidence["term"] == occurrence.term_id
    assert found.evidence["suggestion"] == entry.approved[0]
    assert f"“{entry.approved[0]}”" in found.message


def _misspelled(occurrence: Occurrence, variant: str) -> None:
    with _Mutated(occurrence, variant) as article:
        findings = list(term_altered(article))
    assert len(findings) == 1, (variant, [f.message for f in findings])
    (found,) = findings
    assert found.langs == (occurrence.lang,), variant
    assert [(loc.lang, loc.line) for loc in found.locations] == [
        (occurrence.lang, occurrence.line)
    ], variant
    assert found.evidence["term"] == occurrence.term_id
    assert found.evidence["found"] == variant
    assert found.evidence["suggestion"] == TERMS[occurrence.term_id].keep


@pytest.mark.parametrize("occurrence", OCCURRENCES, ids=lambda o: o.id)
def test_every_occurrence_mutated_is_reported_at_its_version_and_line(occurrence):
    assert occurrence.text in FILE_LINES[occurrence.lang][occurrence.line - 1]
    if TERMS[occurrence.term_id].keep is None:
        _forbidden_variant(occurrence)
    else:
        for variant in misspellings(occurrence.text):
            _misspelled(occurrence, variant)


def test_misspellings_cover_every_kind_for_every_keep_term():
    for term in TERMS.values():
        if term.keep is not None:
            variants = misspellings(term.keep)
            kinds = 3 if allowed_edits(sum(c.isalnum() for c in term.keep)) else 2
            assert len(variants) == kinds
            assert len(set(variants)) == len(variants) and term.keep not in variants


# ---------------------------------------------------------------------------
# (c) a translated term dropped in a translation


DROPPABLE = [o for o in TRANSLATED if o.lang != ARTICLE_ALIGNED.source and o.block is not None]


def _row_of(occurrence: Occurrence):
    row_section = ARTICLE_ALIGNED.sections[occurrence.section]
    section = row_section.cells[occurrence.lang]
    block = section.blocks[occurrence.block]
    for row in row_section.rows:
        if row.cells.get(occurrence.lang) is block:
            return row
    raise AssertionError("block not aligned")


def _count(row, lang: str, term_id: str) -> int:
    blocks = [row.cells[lang], *row.extra.get(lang, [])]
    return sum(
        hit.term_id == term_id
        for block in blocks
        for hit in find_terms(blank_code(block.text, block.all_code_spans()), lang, GLOSSARY)
    )


@pytest.mark.parametrize("occurrence", DROPPABLE, ids=lambda o: o.id)
def test_dropped_translation_is_reported_as_missing(occurrence):
    row = _row_of(occurrence)
    reference = "en" if row.cells.get("en") is not None else next(iter(row.present()))
    if reference == occurrence.lang:
        pytest.skip("the occurrence is in the row's reference version")
    if _count(row, reference, occurrence.term_id) < _count(
        row, occurrence.lang, occurrence.term_id
    ):
        pytest.skip("the reference uses the term fewer times here (only fewer is reported)")
    with _Mutated(occurrence, "○") as article:
        findings = [f for f in term_missing(article) if f.evidence["term"] == occurrence.term_id]
    assert len(findings) == 1, [f.message for f in findings]
    (found,) = findings
    assert found.langs == (occurrence.lang,)
    assert found.evidence["reference"] == reference
    assert found.evidence["counts"][occurrence.lang] == found.evidence["reference_count"] - 1
    lines = {loc.lang: loc.line for loc in found.locations}
    assert set(lines) == {reference, occurrence.lang}
    block = row.cells[occurrence.lang]
    assert block.line <= lines[occurrence.lang] <= block.end_line


def test_one_of_two_occurrences_dropped_is_reported_with_counts():
    # en 48 / ja 48: "prefill and 64 for decode … a decode configuration" — decode twice
    (occurrence,) = [
        o for o in OCCURRENCES if o.lang == "ja" and o.term_id == "decode" and o.line == 48
    ][1:]
    with _Mutated(occurrence, "") as article:
        (found,) = [f for f in term_missing(article) if f.evidence["term"] == "decode"]
    assert found.evidence["reference_count"] == 2
    assert found.evidence["counts"] == {"ja": 1}
    assert "twice" in found.message and "once" in found.message
    assert {(loc.lang, loc.line) for loc in found.locations} == {("en", 48), ("ja", 48)}


def test_a_term_moved_to_another_block_of_the_section_is_not_missing():
    # ja 21 loses テンソル並列, ja 23 (same section) gains one
    (drop,) = [
        o
        for o in OCCURRENCES
        if o.lang == "ja" and o.term_id == "tensor-parallelism" and o.line == 21
    ]
    section = ARTICLE_ALIGNED.sections[drop.section].cells["ja"]
    other = next(b for b in section.blocks if b.line == 23)
    original = other.text
    other.text = original + " テンソル並列。"
    try:
        with _Mutated(drop, "○") as article:
            assert list(term_missing(article)) == []
    finally:
        other.text = original


def test_a_name_left_out_of_one_sentence_is_not_missing_but_out_of_a_section_is():
    # ja 23 says "DeepSeek については…" without LMDeploy, like the original; the LMDeploy
    # section still names it, so nothing is reported.
    assert [f for f in term_missing(ARTICLE_ALIGNED) if f.evidence["term"] == "lmdeploy"] == []
    # DeepInfer left out of its whole "Where LMDeploy wins" list in ko → reported once
    target = [
        o for o in OCCURRENCES if o.lang == "ko" and o.term_id == "deepinfer" and 52 <= o.line <= 56
    ]
    assert len(target) == 3
    section = ARTICLE_ALIGNED.sections[target[0].section].cells["ko"]
    block = section.blocks[target[0].block]
    original = block.text
    block.text = original.replace("DeepInfer", "딥인퍼")
    try:
        findings = [f for f in term_missing(ARTICLE_ALIGNED) if f.evidence["term"] == "deepinfer"]
    finally:
        block.text = original
    assert len(findings) == 1
    assert findings[0].langs == ("ko",)


# ---------------------------------------------------------------------------
# Through files and the command line


def _copy_article(tmp_path: Path) -> Path:
    target = tmp_path / "articles/deepinfer-vs-lmdeploy"
    shutil.copytree(ARTICLE, target)
    shutil.copytree(GLOSSARY_DIR, tmp_path / "glossary")
    return target


def _json(tmp_path: Path, monkeypatch, *args: str) -> dict:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["check", "--format", "json", "-q", *args])
    assert result.exit_code in (0, 1), result.output
    return json.loads(result.stdout)


def test_forbidden_and_altered_terms_end_to_end(tmp_path, monkeypatch):
    folder = _copy_article(tmp_path)
    zh = folder / "zh-Hant.md"
    zh.write_text(
        zh.read_text(encoding="utf-8").replace(
            "透過 DLSlime 與 Mooncake 實現的 PD 分離", "透過 DLSlime 與 Mooncake 實現的 PD 分离"
        ),
        encoding="utf-8",
    )
    ko = folder / "ko.md"
    ko.write_text(
        ko.read_text(encoding="utf-8").replace(
            "고성능 CUDA 엔진인 TurboMind", "고성능 CUDA 엔진인 Turbomind"
        ),
        encoding="utf-8",
    )
    document = _json(
        tmp_path, monkeypatch, "--select", "term-forbidden", "--select", "term-altered"
    )
    got = sorted(
        (f["rule"], tuple(f["langs"]), f["locations"][0]["line"], f["evidence"]["suggestion"])
        for f in document["findings"]
    )
    assert got == [
        ("term-altered", ("ko",), 23, "TurboMind"),
        ("term-forbidden", ("zh-Hant",), 25, "PD 分離"),
    ]
    paths = {f["locations"][0]["path"] for f in document["findings"]}
    assert paths == {
        "articles/deepinfer-vs-lmdeploy/ko.md",
        "articles/deepinfer-vs-lmdeploy/zh-Hant.md",
    }


def test_missing_term_end_to_end(tmp_path, monkeypatch):
    folder = _copy_article(tmp_path)
    ja = folder / "ja.md"
    text = ja.read_text(encoding="utf-8")
    assert "連続バッチ処理、ブロック単位の KV cache" in text
    ja.write_text(
        text.replace("連続バッチ処理、ブロック単位の KV cache", "ブロック単位の KV cache"),
        encoding="utf-8",
    )
    document = _json(tmp_path, monkeypatch, "--select", "term-missing")
    (found,) = document["findings"]
    assert found["rule"] == "term-missing" and found["severity"] == "warning"
    assert found["langs"] == ["ja"] and "en" in found["reference_langs"]
    assert {(loc["lang"], loc["line"]) for loc in found["locations"]} == {("en", 46), ("ja", 46)}
    assert found["evidence"]["term"] == "continuous-batching"


def test_the_shipped_article_gives_no_term_finding():
    """Every term of the shipped glossary is used consistently in the four versions (the real
    differences of the article are structural and reported by other rules)."""
    assert _RESULT.findings == []


def test_the_shipped_article_through_the_command_line_gives_no_term_finding(monkeypatch):
    monkeypatch.chdir(REPO)
    result = CliRunner().invoke(
        cli, ["check", "--format", "json", "-q", *(f"--select={r}" for r in TERM_RULES)]
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["findings"] == []


def test_a_plain_zh_version_is_simplified_and_never_takes_a_traditional_entry():
    from parallelcheck.glossary import Glossary, LangTerms, Term

    term = Term(
        id="expert",
        keep=None,
        langs={"zh-Hant": LangTerms(("專家",), ("专家",), False)},
        note="",
        origin="test:1",
    )
    assert term.entry("zh") is None
    assert term.entry("zh-TW") is not None
    assert Glossary.of([term]) is not None


def test_each_term_rule_finds_the_same_alone_or_after_the_others():
    """The occurrences are facts of the article, found by whichever rule asks first: no rule
    depends on another having run (term-missing and term-altered once read what
    term-forbidden had scanned)."""
    from parallelcheck.facts import ArticleFacts

    article = ARTICLE_ALIGNED
    alone = {rule: list(REGISTRY[rule].run(article, glossary=GLOSSARY)) for rule in TERM_RULES}
    facts = ArticleFacts(GlossaryMatcher(GLOSSARY))
    for order in (TERM_RULES[::-1], TERM_RULES):
        for rule in order:
            shared = list(REGISTRY[rule].run(article, facts=facts, glossary=GLOSSARY))
            assert shared == alone[rule]


def test_an_articles_term_scan_is_made_once_per_block():
    from parallelcheck.facts import ArticleFacts

    facts = ArticleFacts(GlossaryMatcher(GLOSSARY))
    lang, section, block = next(
        (lang, s, b)
        for row in ARTICLE_ALIGNED.sections
        for lang, s in row.cells.items()
        if s and s.level
        for b in s.blocks
        if b.kind is not BlockKind.CODE
    )
    assert facts.terms(block, lang) is facts.terms(block, lang)
    assert facts.terms(section, lang) is facts.terms(section, lang)
