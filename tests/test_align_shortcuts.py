"""Shortcuts of alignment and of the text primitives it reads give the answers of the full
computations they skip (issue 18's seventh round; see also ``test_shortcuts.py``)."""

from __future__ import annotations

import re
import unicodedata

from hypothesis import example, given, settings
from hypothesis import strategies as st

from parallelcheck.text import lexicon
from parallelcheck.text.script import NON_LATIN_SAMPLE, mostly_non_latin

#: Pieces of text around the punctuation normalise writes out before NFKC: full-width
#: letters and digits, combining marks (which compose with what precedes them), Hangul
#: jamo (which compose with each other), ligatures and other compatibility characters.
_NFKC_PIECES = [
    *"，（）：？；！\xa0",
    "中文",
    "日本語",
    "Ａ",
    "ｚ",
    "１",
    "\u0301",
    "\u0338",
    "\u3099",
    "か",
    "\u1100",
    "\u1161",
    "e",
    "=",
    "ﬁ",
    "…",
    "½",
    "\u2011",
    "\u3000",
    " ",
    "Ω",
]


@settings(max_examples=600, deadline=None)
@given(st.one_of(st.lists(st.sampled_from(_NFKC_PIECES), max_size=30).map("".join), st.text()))
@example("（\u0301")
@example("，\u0338")
def test_normal_form_is_nfkc_of_the_text_as_written(text):
    assert lexicon.normalise(text) == unicodedata.normalize("NFKC", text)


def test_the_punctuation_written_out_first_is_its_compatibility_decomposition():
    # What makes the shortcut exact: NFKC decomposes character by character first.
    for wide, narrow in lexicon._WIDE_PUNCTUATION:
        assert unicodedata.normalize("NFKD", wide) == narrow != wide


def test_a_text_in_nfkc_holds_none_of_the_punctuation_written_out_first():
    # What lets a text already in NFKC be returned without looking for that punctuation.
    for wide, _ in lexicon._WIDE_PUNCTUATION:
        assert not unicodedata.is_normalized("NFKC", f"中文{wide}")
    assert lexicon.normalise("日本語、ひらがな。") == "日本語、ひらがな。"


_NON_LATIN = re.compile(r"[^\W\d_A-Za-z\u00C0-\u024F]")
_LATIN = re.compile(r"[A-Za-z]")


_RUNS = st.lists(
    st.tuples(st.sampled_from(["a", "日", " ", "ü", "Ω", "1", "，"]), st.integers(0, 300)).map(
        lambda run: run[0] * run[1]
    ),
    max_size=8,
).map("".join)


@settings(max_examples=600, deadline=None)
@given(_RUNS, st.integers(-2, 2), st.integers(0, 300), st.integers(0, 400), st.booleans())
def test_the_non_latin_test_read_a_stretch_at_a_time_counts_as_its_definition(
    start, margin, latin, spaces, mixed
):
    # A sample whose non-Latin letters outnumber its ASCII letters by *margin* (-2 to 2),
    # both ending near any place in the sample, so that what is read or what is left
    # decides within a stretch or only at the sample's end.
    start = start[:1200]
    ours, others = len(_LATIN.findall(start)), len(_NON_LATIN.findall(start))
    missing = ours + latin + margin - others
    if missing < 0:
        latin, missing = latin - missing, 0
    tail = ["a"] * latin + ["日"] * missing
    if mixed:
        tail = [tail[i // 2] if i % 2 else tail[-1 - i // 2] for i in range(len(tail))]
    text = start + " " * spaces + "".join(tail)
    sample = text[:NON_LATIN_SAMPLE]
    assert mostly_non_latin(text) == (len(_NON_LATIN.findall(sample)) > len(_LATIN.findall(sample)))


class _Element:
    """An element of a version for :class:`~parallelcheck.align.progressive._Profile`: its
    shape and, for the similarity drawn below, its version and place."""

    def __init__(self, lang: int, place: int, form: int) -> None:
        self.lang, self.place, self.form = lang, place, form


#: Similarities around the bars the in-step test reads (the thresholds with their margins,
#: ``CLEAR_MATCH``, ``UNCHALLENGED``), and the extremes.
_SCORES = st.one_of(
    st.sampled_from([0.0, 0.3, 0.36, 0.44, 0.5, 0.55, 0.62, 0.649, 0.65, 0.651, 0.7, 1.0]),
    st.floats(0.0, 1.0),
)


@settings(max_examples=400, deadline=None)
@given(
    st.integers(1, 6),
    st.integers(1, 7),
    st.lists(_SCORES, min_size=400, max_size=400),
    st.lists(st.integers(0, 1), min_size=60, max_size=60),
)
def test_versions_in_step_are_told_as_by_the_whole_mean_when_similarity_is_never_negative(
    columns, versions, scores, forms
):
    # The in-step test stops summing a column's members once the mean is sure to reach
    # UNCHALLENGED (progressive._Profile.score with settle): it must decide as the mean does.
    from parallelcheck.align import progressive

    def similarity(a: _Element, b: _Element) -> float:
        return scores[(a.lang * 7 + b.lang * 3 + a.place * 11 + b.place * 5) % len(scores)]

    def version(lang: int) -> list[_Element]:
        return [_Element(lang, i, forms[(lang * columns + i) % len(forms)]) for i in range(columns)]

    profile = progressive._Profile("v0", version(0))
    for lang in range(1, versions):
        for column, item in zip(profile.columns, version(lang), strict=True):
            column[f"v{lang}"] = item
    items = version(versions)
    for threshold in (progressive.BLOCK_THRESHOLD, progressive.SECTION_THRESHOLD):
        settled = profile._in_step(items, similarity, threshold, nonnegative=True)
        assert settled == profile._in_step(items, similarity, threshold)
