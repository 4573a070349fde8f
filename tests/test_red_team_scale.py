"""Issue 17, case 11: large inputs of ordinary shapes give the findings small ones give.

The shapes that used to take quadratic time — a long table, many sections or paragraphs one
version lacks, a paragraph of many numbers, long versions aligned section by section — are
checked here for what they report, never for how long they take (``bench/bench_shapes.py``
times them): the line of a value deep in a table is its own row's, the k-th missing section
is reported at its own line however many there are, and the band the aligner restricts
itself to on long versions pairs what the full table pairs.
"""

from __future__ import annotations

import itertools
import random

import pytest
from conftest import rule_findings
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parallelcheck.align import progressive as align
from parallelcheck.align.progressive import align_article
from parallelcheck.model.document import Block, BlockKind
from parallelcheck.readers import parse_text
from parallelcheck.rules._common import line_in
from parallelcheck.rules._lines import TextLines
from parallelcheck.rules.missing_section import RUN
from parallelcheck.text import tokens


def _article(en: str, ja: str):
    docs = {
        "en": parse_text(en, "en.md", "en", "markdown"),
        "ja": parse_text(ja, "ja.md", "ja", "markdown"),
    }
    return align_article("a", docs, "en")


def _lines(finding) -> dict[str, int]:
    return {location.lang: location.line for location in finding.locations}


@pytest.fixture
def many_at_once(monkeypatch):
    """Make the one-pass string searches of :mod:`parallelcheck.text.tokens` run on any size."""
    monkeypatch.setattr(tokens, "DIRECT_SEARCH", 0)


@pytest.fixture
def narrow_band(monkeypatch):
    """Make the aligner score a band of the table from 10,000 cells on, and a narrow one
    (the fewest elements either side of the guide), so that a test of a few hundred
    sections exercises what a user's tens of thousands would."""
    monkeypatch.setattr(align, "FULL_TABLE", 10_000)
    monkeypatch.setattr(align, "BAND_CELLS", 0)


# ---------------------------------------------------------------------------
# A long table: every value is found on its own row


def _table(rows: int, changed: int | None = None, lang: str = "en") -> str:
    head = (
        "# Table\n\n| id | model |\n| --- | --- |\n"
        if lang == "en"
        else ("# 表\n\n| id | モデル |\n| --- | --- |\n")
    )
    lines = []
    for k in range(rows):
        number, model = (k, f"m{k}") if k != changed else (k + 500_000, f"m{k}x")
        lines.append(f"| {number} | {model} |")
    return head + "\n".join(lines) + "\n"


@pytest.mark.parametrize("rows", [40, 4000])
def test_a_changed_row_deep_in_a_long_table_is_reported_at_that_row(many_at_once, rows):
    changed = rows - 7
    article = _article(_table(rows), _table(rows, changed, "ja"))
    row_line = 5 + changed  # title, blank, header, separator: the first body row is line 5
    for rule_id in ("number-mismatch", "token-mismatch"):
        (found,) = rule_findings(article, rule_id)
        assert _lines(found) == {"en": row_line, "ja": row_line}, rule_id
    assert rule_findings(article, "number-mismatch")[0].evidence == {
        "extra": [str(changed + 500_000)],
        "missing": [str(changed)],
    }


def test_an_identical_long_table_has_no_findings(many_at_once):
    text = _table(3000)
    article = _article(text, text.replace("# Table", "# 表"))
    assert rule_findings(article, "number-mismatch") == []
    assert rule_findings(article, "token-mismatch") == []


def test_the_values_of_a_paragraph_of_many_lines_are_on_their_lines():
    count = 3000
    en = "# Numbers\n\n" + "\n".join(f"item {k * 7 + 11} and {k}" for k in range(count)) + "\n"
    changed = count - 3
    ja = en.replace(f"item {changed * 7 + 11} and", f"item {changed * 7 + 12} and")
    article = _article(en, ja)
    (found,) = rule_findings(article, "number-mismatch")
    assert _lines(found) == {"en": 3 + changed, "ja": 3 + changed}


# ---------------------------------------------------------------------------
# Sections and paragraphs one version lacks: the k-th at its own line


def _sections(count: int, every: int) -> tuple[str, str]:
    """en has ``count`` sections; ja every ``every``-th of them (the same numbers)."""
    en, ja = ["# Title", ""], ["# 題名", ""]
    for k in range(count):
        en += [f"## Part {k}", "", f"Body of part {k} with value {k * 3 + 1000}.", ""]
        if k % every == 0:
            ja += [f"## 第 {k} 部", "", f"第 {k} 部の本文、値 {k * 3 + 1000}。", ""]
    return "\n".join(en), "\n".join(ja)


@pytest.mark.parametrize("count", [12, 1200])
def test_every_missing_section_is_reported_at_its_own_line(narrow_band, count):
    """ja has every other section.  On 1,200 sections the aligner scores only a band of the
    table (see ``align._band_windows``); the findings follow the same pattern as on a
    dozen sections."""
    article = _article(*_sections(count, 2))
    found = rule_findings(article, "missing-section")
    assert len(found) == count // 2
    for finding in found:
        k = int(finding.message.split("“Part ")[1].split("”")[0])
        assert k % 2 == 1
        previous = k - 1  # the section before it, which ja has: its place in ja
        assert _lines(finding) == {"en": 3 + 4 * k, "ja": 3 + 4 * (previous // 2)}
        assert finding.message.endswith(f"it belongs after “第 {previous} 部”")


@pytest.mark.parametrize("count", [RUN, 10, 400])
def test_sections_only_one_version_has_are_placed_after_the_last_shared_one(count):
    en = ["# Title", ""] + [f"## Part {k}\n\nBody {k}.\n" for k in range(count)]
    article = _article("\n".join(en), "# 題名\n\n## Part 0\n\n本文 0。\n")
    found = rule_findings(article, "missing-section")
    if count - 1 < RUN:  # a few: each its own finding, at its own heading
        assert [_lines(f)["en"] for f in found] == [3 + 4 * k for k in range(1, count)]
    else:  # a run: one finding, at its first heading, counting them all
        (finding,) = found
        assert _lines(finding)["en"] == 7 and finding.evidence["sections"] == count - 1
        assert "sections “Part 1”, “Part 2”, “Part 3” and " in finding.message
    assert {_lines(f)["ja"] for f in found} == {3}


def _paragraphs(count: int, every: int) -> tuple[str, str]:
    en, ja = ["# Title", "", "## Notes", ""], ["# 題名", "", "## 注記", ""]
    for k in range(count):
        en += [f"Paragraph {k} says {k * 3 + 1000} things.", ""]
        if k % every == 0:
            ja += [f"段落 {k} は {k * 3 + 1000} 個のことを述べる。", ""]
    return "\n".join(en), "\n".join(ja)


@pytest.mark.parametrize("count", [12, 1200])
def test_every_missing_paragraph_is_reported_after_the_last_one_its_version_has(narrow_band, count):
    article = _article(*_paragraphs(count, 2))
    found = rule_findings(article, "missing-paragraph")
    assert len(found) == count // 2
    for index, finding in enumerate(found):
        k = 2 * index + 1
        assert f"Paragraph {k} says" in finding.message
        assert _lines(finding) == {"en": 5 + 2 * k, "ja": 5 + 2 * (k // 2)}


# ---------------------------------------------------------------------------
# The band of the aligner


def _full_merge(matrix: list[list[float]], windows=None):
    """Merge items 0..n-1 into columns 0..m-1 scored by ``matrix`` (as dicts of indices)."""
    columns = [{"p": i} for i in range(len(matrix))]
    items = list(range(len(matrix[0]) if matrix else 0))

    def score(column, item, _similarity):
        return matrix[column["p"]][item]

    merged = align._dp_merge(columns, "q", items, score, None, 0.5, windows)
    return [(column.get("p"), column.get("q")) for column in merged]


@st.composite
def _scores_and_windows(draw):
    """A random score table and windows that hold every match of its full merge."""
    m = draw(st.integers(1, 9))
    n = draw(st.integers(1, 9))
    values = st.sampled_from([0.0, 0.2, 0.5, 0.55, 0.6, 0.7, 0.75, 0.9, 1.0])
    matrix = [[draw(values) for _ in range(n)] for _ in range(m)]
    matches = [(p, q) for p, q in _full_merge(matrix) if p is not None and q is not None]
    must = {p + 1: q + 1 for p, q in matches}
    windows, lo, hi = [], 1, 1
    for i in range(1, m + 1):
        low = draw(st.integers(1, n))
        high = draw(st.integers(low, n))
        if i in must:
            low, high = min(low, must[i]), max(high, must[i])
        lo = max(lo, low)
        hi = max(hi, lo, high)
        windows.append((lo, hi))
    # Raising lo may have passed a match: a window that does not hold it is not drawn.
    holds = all(windows[i - 1][0] <= j <= windows[i - 1][1] for i, j in must.items())
    return matrix, windows, holds


@settings(max_examples=50, deadline=None)
@given(_scores_and_windows())
def test_windows_holding_every_match_of_the_full_table_give_its_merge(case):
    matrix, windows, holds = case
    full = _full_merge(matrix)
    if holds:
        assert _full_merge(matrix, windows) == full
    # Whatever the windows, the merge holds every column and every item once, in order.
    banded = _full_merge(matrix, windows)
    assert [p for p, _ in banded if p is not None] == list(range(len(matrix)))
    assert [q for _, q in banded if q is not None] == list(range(len(matrix[0])))


def _random_versions(rng: random.Random, sections: int, edits: int) -> tuple[str, str]:
    """A source of ``sections`` sections with numbers and names, and a translation that
    keeps them, with ``edits`` sections dropped or added."""
    names = ["DeepInfer", "LMDeploy", "vLLM", "SGLang", "TensorRT", "H200", "SM100"]
    source = []
    for _ in range(sections):
        level = rng.choice([2, 2, 3])
        number = rng.randint(1, 99_999)
        name = rng.choice(names)
        source.append((level, number, name, rng.choice(["p", "t", "c"])))
    translation = list(source)
    for _ in range(edits):
        if rng.random() < 0.5 and len(translation) > 1:
            del translation[rng.randrange(len(translation))]
        else:
            extra = (2, rng.randint(1, 99_999), rng.choice(names), "p")
            translation.insert(rng.randrange(len(translation) + 1), extra)

    def render(parts, ja: bool) -> str:
        lines = ["# 題名" if ja else "# Title", "", "Intro.", ""]
        for level, number, name, kind in parts:
            heading = f"{name} の設定 {number}" if ja else f"Setting {number} of {name}"
            lines += ["#" * level + " " + heading, ""]
            if kind == "t":
                lines += ["| a | b |", "| --- | --- |", f"| {number} | {name} |", ""]
            elif kind == "c":
                lines += ["```python", f"run({number})", "```", ""]
            body = f"{name} は {number} を使う。" if ja else f"{name} uses {number} here."
            lines += [body, ""]
        return "\n".join(lines)

    return render(source, False), render(translation, True)


def _pairing(article):
    return [
        (
            tuple(lang for lang in section.cells if section.cells[lang] is not None),
            tuple(s.line if s is not None else 0 for s in section.cells.values()),
            [
                tuple(b.line if b is not None else 0 for b in row.cells.values())
                for row in section.rows
            ],
        )
        for section in article.sections
    ]


@settings(
    max_examples=50, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(seed=st.integers(0, 2**32 - 1), sections=st.integers(2, 40), edits=st.integers(0, 3))
def test_the_band_pairs_sections_as_the_full_table_does(monkeypatch, seed, sections, edits):
    """Random small versions a few edits apart, aligned in full and then through a band of
    half-width 4 around the guide of shared anchors (forced on however small they are)."""
    rng = random.Random(seed)
    en, ja = _random_versions(rng, sections, edits)
    full = _pairing(_article(en, ja))
    with monkeypatch.context() as patch:
        patch.setattr(align, "FULL_TABLE", 0)
        patch.setattr(align, "BAND_CELLS", 0)
        patch.setattr(align, "BAND_MIN", 4)
        banded = _pairing(_article(en, ja))
    assert banded == full


def test_unrelated_long_versions_are_aligned_within_the_band():
    """Versions that share nothing are guided by the diagonal: the aligner scores a band, not
    the table, and still gives every section a row."""
    rng = random.Random(5)
    words = "alpha bravo charlie delta echo foxtrot golf hotel".split()
    en = ["# Title", ""]
    ja = ["# 題名", ""]
    for k in range(700):
        en += ["## " + " ".join(rng.choice(words) for _ in range(3)), "", f"text {10_000 + k}.", ""]
        ja += [f"### かな{k % 7}", "", f"ほん {900_000 + k}。", ""]
    scored = []
    real = align._Profile.score

    def counting(self, column, item, similarity, *settle):
        scored.append(1)
        return real(self, column, item, similarity, *settle)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(align._Profile, "score", counting)
        patch.setattr(align, "BAND_CELLS", 60_000)
        article = _article("\n".join(en), "\n".join(ja))
    assert len(scored) < 1.2 * 60_000  # of 490,000 pairs
    present = [s.present() for s in article.sections[1:]]
    assert sum(1 for p in present if "en" in p) == 701  # the title and 700 sections
    assert sum(1 for p in present if "ja" in p) == 701


def test_band_windows_follow_the_chain_of_shared_anchors():
    """A version with 300 sections added at its start: the guide goes through the shared
    anchors, so the band reaches the right counterparts however far from the diagonal."""

    class Element:
        def __init__(self, key):
            self.key = key

        def seed_keys(self):
            return {self.key}

    columns = [{"en": Element(f"#{k}")} for k in range(400)]
    items = [Element(f"#new{k}") for k in range(300)] + [Element(f"#{k}") for k in range(400)]
    windows = align._band_windows(columns, items)
    for i, (lo, hi) in enumerate(windows, start=1):
        assert lo <= 300 + i <= hi
    assert all(a[0] <= b[0] and a[1] <= b[1] for a, b in itertools.pairwise(windows))


# ---------------------------------------------------------------------------
# The helpers: one pass gives what one search per value gives


_ALPHABET = "ab c\n`x1\U0010ffff"
_texts = st.text(alphabet=_ALPHABET, max_size=60)


@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(text=_texts, needles=st.lists(st.text(alphabet=_ALPHABET, min_size=1, max_size=4)))
def test_first_offsets_are_what_find_gives(many_at_once, text, needles):
    assert tokens.first_offsets(text, needles) == {n: text.find(n) for n in needles}


def _blank_one_by_one(text, spans):
    offsets = []
    for span in spans:
        offset = text.find(span)
        if offset >= 0:
            text = text[:offset] + " " * len(span) + text[offset + len(span) :]
        offsets.append(offset)
    return text, offsets


def _cut_one_by_one(text, spans):
    for span in spans:
        text = text.replace(span, " ", 1)
    return text


@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(text=_texts, spans=st.lists(st.text(alphabet=_ALPHABET, max_size=4), max_size=8))
def test_striking_spans_out_at_once_is_striking_them_one_by_one(many_at_once, text, spans):
    assert tokens.blank_spans(text, spans) == _blank_one_by_one(text, spans)
    assert tokens.cut_spans(text, spans) == _cut_one_by_one(text, spans)


@settings(max_examples=200, deadline=None)
@given(
    text=st.text(alphabet="ab\n\t", max_size=40),
    line=st.integers(1, 50),
    extra=st.integers(-2, 10),
    table=st.booleans(),
    header=st.booleans(),
)
def test_block_lines_are_the_lines_line_in_gives(text, line, extra, table, header):
    kind = BlockKind.TABLE if table else BlockKind.PARAGRAPH
    block = Block(kind, text, line, line + text.count("\n") + extra, header=header)
    lines = TextLines(block)  # a block whose reader recorded no lines: counted from its line
    for offset in range(len(text) + 2):
        assert lines.line(offset) == line_in(block, offset)


@settings(max_examples=300, deadline=None)
@given(
    token=st.text(alphabet="ab-1s'’e", min_size=1, max_size=6),
    others=st.lists(st.text(alphabet="ab-1s'’e", min_size=1, max_size=7), max_size=8),
)
def test_the_same_token_index_answers_as_same_token_does(token, others):
    index = tokens.SameTokenIndex(others)
    assert index.holds_same(token) == any(tokens.same_token(token, o) for o in others)


def test_a_long_table_whose_every_row_differs_reports_every_row_at_its_line():
    rows = 1500
    en = "# T\n\n| a | b |\n| --- | --- |\n" + "".join(f"| {k} | v{k}.1 |\n" for k in range(rows))
    ja = "# T\n\n| a | b |\n| --- | --- |\n" + "".join(f"| {k} | v{k}.2 |\n" for k in range(rows))
    article = _article(en, ja)
    found = rule_findings(article, "token-mismatch")
    assert len(found) == 1  # one aligned row (the table): one finding listing the values
    assert _lines(found[0]) == {"en": 5, "ja": 5}
    assert len(found[0].evidence["missing"]) == rows
