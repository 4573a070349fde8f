"""The value rules' shortcuts (rules/_values.py) give the answers of the work they skip."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parallelcheck.align.progressive import align_article
from parallelcheck.facts import ArticleFacts, StatedNumbers
from parallelcheck.model.aligned import AlignedArticle
from parallelcheck.model.document import Block, BlockKind, Section
from parallelcheck.readers import parse_text
from parallelcheck.rules._value_shares import BlockValues, SectionPools
from parallelcheck.rules.number_mismatch import _NumberComparison
from parallelcheck.rules.token_mismatch import _TokenComparison
from parallelcheck.text.numeric import extract_code_numbers, extract_numbers
from parallelcheck.text.tokens import blank_spans, extract_tokens

NUMBERS = ["1", "2", "10", "1,000", "1.5", "3.14", "50%", "2×", "十", "two", "2024", "`42`"]
NUMBERS += ["twice", "一個", "5つ", "`3`"]
TOKENS = ["V4.1", "V4", "SM100", "SM10", "FastAPI", "FastAPIs", "TypeScript-SDK", "TypeScript"]
TOKENS += ["`a=1`", "https://x.org/a", "/v1/chat", "vLLM", "API", "p99", "ok"]

texts = st.lists(st.sampled_from(NUMBERS + TOKENS), max_size=6).map(" ".join)


def _paragraph(text: str) -> Block:
    spans = [piece.strip("`") for piece in text.split() if piece.startswith("`")]
    return Block(BlockKind.PARAGRAPH, text.replace("`", ""), 1, 1, code_spans=spans)


def _comparisons(langs=("en",)):
    article = AlignedArticle(
        id="a",
        source="en",
        langs=langs,
        expected=langs,
        paths={},
        documents={},
        sections=[],
        link_prefixes=(),
    )
    return [_NumberComparison(ArticleFacts()), _TokenComparison(article, ArticleFacts())]


@settings(max_examples=300, deadline=None)
@given(texts, texts, st.lists(texts, max_size=3))
def test_the_section_pool_is_asked_only_for_what_the_aligned_block_does_not_match(
    ours, theirs, elsewhere
):
    for comparison in _comparisons():
        mine = comparison.values(_paragraph(ours), "en")
        other = comparison.values(_paragraph(theirs), "en")
        section = [v for v, _ in other]
        for text in elsewhere:
            section += [v for v, _ in comparison.values(_paragraph(text), "en")]
        pool = comparison.pool(section)
        built = []

        def build(pool=pool, built=built):
            built.append(True)
            return pool

        eager = [pair for pair in mine if not comparison.in_pool(pair[0], pool)]
        lazy = comparison.unmatched_lazy(mine, other, build)
        assert lazy == comparison.unmatched(mine, other, pool)
        if isinstance(comparison, _NumberComparison):
            assert lazy == eager  # (tokens drop some unmatched names afterwards)
        else:
            assert set(lazy) <= set(eager)
        matched = [any(comparison.keys(v) == comparison.keys(w) for w, _ in other) for v, _ in mine]
        if all(matched):
            assert not built  # every value shares a key with the aligned block's: no pool


@settings(max_examples=300, deadline=None)
@given(texts)
def test_a_block_s_numbers_come_in_the_order_they_stand(text):
    found = _NumberComparison(ArticleFacts()).values(_paragraph(text), "en")
    assert found == sorted(found, key=lambda pair: pair[1])


@settings(max_examples=200, deadline=None)
@given(texts)
def test_blocks_without_values_share_one_empty_fact(text):
    facts = ArticleFacts()
    block = _paragraph(text)
    found = extract_tokens(block.text, block.code_spans)
    assert (found.strong, found.names) == (
        facts.tokens(block).strong,
        facts.tokens(block).names,
    )
    blanked, offsets = blank_spans(block.text, block.code_spans)
    code = tuple(
        (offset, tuple(extract_code_numbers(span)))
        for span, offset in zip(block.code_spans, offsets, strict=True)
        if extract_code_numbers(span)
    )
    assert facts.numbers(block, "en") == StatedNumbers(tuple(extract_numbers(blanked, "en")), code)


def test_section_pools_are_built_once_and_hold_the_heading_and_every_block():
    blocks = [_paragraph("V4.1 is 10"), _paragraph("SM100 has 2024")]
    section = Section(title="FastAPI 3.14", level=2, line=1, blocks=blocks)
    comparison = _comparisons()[1]
    pools = SectionPools(comparison, {"en": section}, BlockValues(comparison))
    pool = pools.of("en")()
    assert pools.of("en")() is pool
    # 3.14, 10 and 2024 are quiet tokens: plain numbers, matching a "v3.14" or a `2024`
    assert {v.text for v in pool.values} == {"V4.1", "SM100", "FastAPI", "3.14", "10", "2024"}
    assert {v.text for v in pool.values if not v.quiet} == {"V4.1", "SM100", "FastAPI"}


def test_aligned_rows_hold_blocks_of_their_section():
    """The premise of the lazy pool: what a row compares is inside its section's pool."""
    en = "# T\n\nOne 10.\n\nTwo 20.\n\n## U\n\nV4.1 here.\n\n- a\n- b 30\n"
    de = "# T\n\nEins 10. Zwei 20.\n\n## U\n\nV4.1 hier.\n\n- a\n- b 30\n\nNeu 40.\n"
    documents = {
        lang: parse_text(text, f"{lang}.md", lang, "markdown")
        for lang, text in {"en": en, "de": de}.items()
    }
    article = align_article("a", documents, "en")
    for aligned in article.sections:
        for row in aligned.rows:
            for lang, block in row.cells.items():
                if block is None:
                    continue
                held = {id(b) for b in aligned.cells[lang].blocks}
                assert id(block) in held
                assert all(id(part) in held for part in row.extra.get(lang, []))


@settings(max_examples=300, deadline=None)
@given(texts, st.sampled_from(["en", "de", "ja", "fr"]))
def test_decisive_keys_are_those_of_the_values_that_decide(text, lang):
    block = _paragraph(text)
    heading = Section(title=block.text, level=2, line=1, code_spans=block.code_spans)
    for comparison in _comparisons(("en", "de", "ja", "fr")):
        for where in (block, heading):
            values = comparison.values(where, lang)
            assert comparison.decisive_keys(where, lang) == comparison.keys_of(values)
            assert all(comparison.keys(value) for value, _ in values)  # never without a key


_PATHS = ["docs/de/x.md", "docs/ja/x.md", "../fr/y.md", "https://de.example.org/a"]


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.lists(st.sampled_from(TOKENS + _PATHS), max_size=4).map(" ".join),
            st.sampled_from(["en", "de", "ja", "fr"]),
        ),
        min_size=1,
        max_size=8,
    )
)
def test_decisive_keys_worked_out_once_per_set_of_tokens_are_each_block_s(blocks):
    """One comparison asked about many blocks of several versions (the same tokens in
    several of them, paths whose form depends on the version) answers each as the values of
    that block and version do."""
    for comparison in _comparisons(("en", "de", "ja", "fr")):
        for text, lang in blocks:
            block = _paragraph(text)
            values = comparison.values(block, lang)
            assert comparison.decisive_keys(block, lang) == comparison.keys_of(values)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.sampled_from([*TOKENS, *_PATHS, "ＦａｓｔＡＰＩ", "ＳＭ１００"]), max_size=6).map(
        " ".join
    ),
    st.sampled_from(["en", "de", "ja", "fr"]),
    st.data(),
)
def test_keys_before_an_offset_are_those_of_the_values_standing_there(text, lang, data):
    """A container's own-text keys read without making its values (tokens placed where they
    first stand, or at 0 when normal form changed them and they stand nowhere as written)
    are those of the values that stand before the offset and decide."""
    from parallelcheck.rules._values import ValueComparison

    block = _paragraph(text)
    size = data.draw(st.integers(min_value=1, max_value=len(block.text) + 1))
    for comparison in _comparisons(("en", "de", "ja", "fr")):
        full = ValueComparison.keys_before(comparison, block, lang, size)
        assert comparison.keys_before(block, lang, size) == full


_LINES = [*NUMBERS, *TOKENS, "gzip", "`gzip`", "fetch()", "`fetch()`", "word", "Wort"]
_lines = st.lists(st.sampled_from(_LINES), min_size=1, max_size=4).map(" ".join)
_shapes = st.sampled_from(["{}", "- {}\n- {}", "| a | b |\n|---|---|\n| {} | {} |", "> {}"])
_documents = st.lists(st.tuples(_shapes, _lines, _lines), min_size=1, max_size=4).map(
    lambda blocks: "# T\n\n" + "\n\n".join(shape.format(a, b) for shape, a, b in blocks) + "\n"
)


@settings(max_examples=150, deadline=None)
@given(st.lists(_documents, min_size=2, max_size=4))
def test_rows_settled_by_their_keys_give_the_findings_of_the_whole_comparison(texts):
    """A row whose versions hold the same decisive keys is not compared value by value, nor
    is a version whose keys are the reference's in a row whose keys differ; the findings are
    those of comparing every row and version in full (keys that never agree)."""
    from parallelcheck.rules import REGISTRY
    from parallelcheck.rules._values import ValueComparison

    langs = ["en", "de", "ja", "fr"][: len(texts)]
    documents = {
        lang: parse_text(text, f"{lang}.md", lang, "markdown")
        for lang, text in zip(langs, texts, strict=True)
    }
    article = align_article("a", documents, "en")

    def findings():
        facts = ArticleFacts()
        return [
            found
            for rule in ("number-mismatch", "token-mismatch")
            for found in REGISTRY[rule].run(article, facts=facts)
        ]

    settled = findings()
    with pytest.MonkeyPatch.context() as patch:
        for comparison in (_NumberComparison, _TokenComparison, ValueComparison):
            patch.setattr(comparison, "decisive_keys", lambda *_: frozenset({object()}))
        assert findings() == settled


@settings(max_examples=300, deadline=None)
@given(texts, texts, st.sampled_from(["en", "ja"]))
def test_numbers_that_do_not_decide_are_never_reported_alone(ours, theirs, lang):
    """prune keeps nothing of unmatched numbers none of which decides (inline code, weak
    words, counts in words): what lets a row whose deciding numbers share their readings be
    settled by its keys."""
    comparison = _NumberComparison(ArticleFacts())
    mine = comparison.values(_paragraph(ours), lang)
    other = comparison.values(_paragraph(theirs), lang)
    extra = [pair for pair in mine if not comparison.decides(pair[0])]
    lacking = [pair for pair in other if not comparison.decides(pair[0])]
    assert comparison.prune(extra, lacking, mine, other, (lang, lang)) == ([], [])
    assert not comparison.may_differ(extra, lacking, mine, other)


@settings(max_examples=300, deadline=None)
@given(texts, texts, st.data())
def test_the_section_is_not_looked_at_when_nothing_left_may_be_reported(ours, theirs, data):
    """may_differ is false only when prune keeps nothing of any part of what the aligned
    blocks leave unmatched (the section's pools take some of it away, never add)."""
    for comparison in _comparisons():
        mine = comparison.values(_paragraph(ours), "en")
        other = comparison.values(_paragraph(theirs), "en")
        extra = comparison.unmatched_here(mine, other)
        lacking = comparison.unmatched_here(other, mine)
        if comparison.may_differ(extra, lacking, mine, other):
            continue
        kept_extra = [pair for pair in extra if data.draw(st.booleans())]
        kept_lacking = [pair for pair in lacking if data.draw(st.booleans())]
        assert comparison.prune(kept_extra, kept_lacking, mine, other, ("en", "en")) == ([], [])


@settings(max_examples=300, deadline=None)
@given(st.frozensets(st.text(alphabet="a/ :.B1-", max_size=8), max_size=6))
def test_a_set_of_tokens_holds_a_url_or_path_as_one_of_its_tokens_does(tokens):
    """The joined search for ``/`` answers as asking each token whether it is localised."""
    from parallelcheck.rules.token_mismatch import _any_localised, _localised

    assert _any_localised(tokens) == any(_localised(token) for token in tokens)


def test_an_item_changed_in_a_list_that_agrees_as_a_whole_is_still_reported():
    """Items whose versions hold the same tokens are passed over; an item that does not
    (two versions swapped between two items) is compared and reported at its line."""
    from parallelcheck.rules import REGISTRY

    texts = {
        "en": "# T\n\n- uses `alpha()` here\n- uses `beta()` here\n- plain `gamma()`\n",
        "de": "# T\n\n- nutzt `beta()` hier\n- nutzt `alpha()` hier\n- schlicht `gamma()`\n",
    }
    documents = {
        lang: parse_text(text, f"{lang}.md", lang, "markdown") for lang, text in texts.items()
    }
    article = align_article("a", documents, "en")
    found = list(REGISTRY["token-mismatch"].run(article, facts=ArticleFacts()))
    assert [(f.langs, f.evidence) for f in found] == [
        (("de",), {"extra": ["beta()"], "missing": ["alpha()"]}),
        (("de",), {"extra": ["alpha()"], "missing": ["beta()"]}),
    ]
