"""Shortcuts of glossary matching give the answers of the full computations they skip:
a form's pattern is tried only where its needle is, texts are normalised run by run, and the
search for near misses of keep terms works out what it asks about words only when asked."""

from __future__ import annotations

import re
import unicodedata
from unittest import mock

from conftest import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from parallelcheck.glossary import Glossary, LangTerms, Term
from parallelcheck.glossary import match as terms
from parallelcheck.glossary.match import (
    find_terms,
    form_needle,
    form_pattern,
    normalise_with_offsets,
)

FORMS = [
    "KV cache",
    "KV-cache quantization",
    "batch policy",
    "box",
    "API",
    "PD 分離",
    "用語",
    "サーバー構成",
    "캐시",
    "KV 캐시 양자화",
    "Straße",
    "İstanbul",
    "data",
    "-O2",
    "llama.cpp",
    "TensorRT-LLM",
    "ｶｰﾈﾙ",
    "pipeline",
    "policy",
]
# Text pieces: the forms written otherwise (case, width, separators, inflections) and the
# characters Python's case-insensitive matching takes for ASCII letters.
PIECES = [
    *FORMS,
    "kv  CACHE",
    "Kv‑Cache",
    "KV CACHES",
    "batch policies",
    "Policies",
    "pıpelıne",
    "PİPELİNE",
    "BOXES",
    "api",
    "PD分離",
    "ＫＶ ｃａｃｈｅ",
    "ſtraße",
    "dıata",
    "İSTANBUL",
    "ıstanbul",
    "K",
    "캐시는",
    "분산캐시",
    "サーバ構成",
    "カーネル",
    "e\u0301",
    "O2",
    " ",
    "\n",
    "、",
    "，",
]
texts = st.lists(st.sampled_from(PIECES), min_size=1, max_size=10).map("".join)


@settings(max_examples=examples(600), deadline=None)
@given(st.sampled_from(FORMS), texts, st.booleans(), st.booleans())
def test_a_form_matches_only_in_texts_that_hold_its_needle(form, text, exact, case_sensitive):
    pattern, _ = form_pattern(form, exact=exact, case_sensitive=case_sensitive)
    needle = form_needle(form, exact=exact)
    norm, _ = normalise_with_offsets(text)
    if pattern.search(norm):
        assert needle is None or needle in terms._fold(norm)


def test_needles_are_the_start_of_the_first_word():
    assert form_needle("KV cache", exact=False) == "kv"
    assert form_needle("policy", exact=False) == "polic"  # matched as "policies" too
    assert form_needle("policy", exact=True) == "policy"
    assert form_needle("PD 分離", exact=False) == "pd"
    assert form_needle("用語", exact=False) == "用語"
    assert form_needle("Straße", exact=False) == "stra"  # ß has case beyond A–Z
    assert form_needle("İstanbul", exact=False) is None


_TRANSLATED = [
    Term(
        f"t{number}",
        None,
        {lang: LangTerms((form,), (FORMS[-1 - number],)) for lang in ("en", "ja", "ko")},
    )
    for number, form in enumerate(FORMS[:8])
]
GLOSSARY = Glossary((*_TRANSLATED, Term("keep", "TensorRT-LLM", {})))


@settings(max_examples=examples(300), deadline=None)
@given(texts, st.sampled_from(["en", "ja", "ko"]))
def test_terms_found_with_needles_are_those_found_trying_every_form(text, lang):
    with_needles = find_terms(text, lang, GLOSSARY)
    every_form = Glossary(GLOSSARY.terms)  # another glossary object: its own matchers
    with mock.patch.object(terms, "form_needle", return_value=None):
        assert find_terms(text, lang, every_form) == with_needles


@settings(max_examples=400, deadline=None)
@given(texts)
def test_normalising_run_by_run_is_normalising_each_character(text):
    norm, index = normalise_with_offsets(text)
    if unicodedata.normalize("NFKC", text) == text:
        assert (norm, index) == (text, None)
        return
    pieces = [unicodedata.normalize("NFKC", char) for char in text]
    assert norm == "".join(pieces)
    assert index == [position for position, piece in enumerate(pieces) for _ in piece]


WORDY = [
    "Deep Infer",
    "deepseek-ai/DeepSeek-V3",
    "lmdeploy.serve",
    "org/repo",
    "DSpark/SWA/EPLB",
    "a - b",
    "x..y",
    "snake_case",
    "~/path",
    "https://e.com/a",
    "分離",
    "word",
    " ",
    "  ",
    "\t",
    ".",
]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(WORDY), min_size=1, max_size=12).map("".join))
def test_what_near_misses_ask_about_words_is_what_the_whole_text_says(text):
    norm, _ = normalise_with_offsets(text)
    words = terms._Words(norm)
    inside = bytearray(len(norm) + 1)
    for chunk in terms._CHUNK.finditer(norm):
        if terms._pathlike(chunk.group()):
            inside[chunk.start() : chunk.end()] = b"\x01" * (chunk.end() - chunk.start())
    spans = words.spans
    for number, (start, _) in enumerate(spans):
        assert words.in_path(number) == bool(inside[start])
        following = 0
        while number + following + 1 < len(spans) and terms._GAP.fullmatch(
            norm[spans[number + following][1] : spans[number + following + 1][0]]
        ):
            following += 1
        assert words.joined(number) == following


def test_every_character_python_matches_with_an_ascii_letter_folds_to_it():
    """The needle test relies on this table; a Python release that matched more characters
    with A–Z case-insensitively would make it turn texts away wrongly."""
    letter = re.compile("[a-z]", re.IGNORECASE)
    for code in range(0x80, 0x110000):
        char = chr(code)
        if letter.fullmatch(char):
            (ascii_letter,) = [
                c for c in "abcdefghijklmnopqrstuvwxyz" if re.fullmatch(c, char, re.I)
            ]
            assert terms._fold(char) == ascii_letter
