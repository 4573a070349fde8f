"""Shortcuts taken for speed give the answers of the full computations they skip."""

from __future__ import annotations

import itertools
import os
import re
import subprocess
import sys
import textwrap
from collections import Counter
from dataclasses import replace
from datetime import date
from pathlib import Path

import pytest
from conftest import parse_versions
from hypothesis import example, given, settings
from hypothesis import strategies as st

from parallelcheck.align.progressive import written_in_non_latin
from parallelcheck.facts import ArticleFacts
from parallelcheck.model.document import Block, BlockKind
from parallelcheck.readers import parse_text
from parallelcheck.rules.number_mismatch import _NumberComparison
from parallelcheck.rules.untranslated import (
    _clearly_at_home,
    _comparable,
    _in_own_language,
    _judge,
    _most_frequent_short,
    _same,
    _Unit,
    _units,
)
from parallelcheck.text import landmarks as anchors
from parallelcheck.text import langid as identifier
from parallelcheck.text import lexicon, script, tokens
from parallelcheck.text import numeric as numbers
from parallelcheck.text.numeric import extract_numbers
from parallelcheck.text.script import NON_LATIN_SAMPLE, block_language, mostly_non_latin

PIECES = [
    "the request body",
    "Die Anfrage",
    "la requête",
    "FastAPI",
    "OpenAPI-Schema",
    "Pydantic",
    "リクエストボディ",
    "を使います",
    "要求主體",
    "請求",
    "요청 본문을",
    "사용합니다",
    "тело запроса",
    "अनुरोध",
    "https://example.com/路径",
    "user@example.com",
    "“quoted text”",
    "「引用」",
    # quotations, URLs and addresses that hold a version's own letters (a quotation another
    # version quotes too is set aside; a URL runs on to the next white space)
    "「リクエストボディ」",
    "“요청 본문을”",
    "«тело запроса»",
    '"अनुरोध"',
    "https://example.com/リクエストボディを使います",
    "WWW.例え.jp/要求主體",
    "用户@例子.com",
    "3.14",
    "v0.110",
    "`model_config`",
    "`日本語`",
    "\n",
]
LANGS = ["ja", "ko", "zh-Hant", "ru", "hi", "de", "en", "fr"]
texts = st.lists(st.sampled_from(PIECES), min_size=1, max_size=14).map(" ".join)


def _unit(text: str) -> _Unit:
    spans = re.findall(r"`([^`]+)`", text)
    block = Block(BlockKind.PARAGRAPH, text.replace("`", ""), 1, 1, code_spans=spans)
    return _Unit(block, block.text, spans, "paragraph", block, lexicon.NormalForms())


@settings(max_examples=400, deadline=None)
@given(texts, st.sampled_from(LANGS), st.booleans(), st.lists(st.sampled_from(PIECES)))
@example(" ".join(["the request body"] * 3), "de", True, [])  # 42 letters of English
def test_a_unit_clearly_at_home_is_never_judged_foreign(text, lang, sign, others):
    unit = _unit(text)

    def signs(_unit, _lang):
        return sign

    facts = ArticleFacts()
    if _clearly_at_home(facts, unit, lang, signs):
        verdict = _judge(facts, unit, lang, LANGS, lambda: others, signs)
        assert not verdict.foreign


# every white space character, characters whose NFKC holds a space (¨ ¯ ˘), and others
_SPACED = " \t\n\x0b\x0c\r\x1c\x1f\x85\xa0\u1680\u2000\u200a\u2028\u2029\u202f\u205f\u3000"
_COMPARED_PIECES = [*_SPACED, "\u00a8", "\u00af", "\u02d8", "\u00bd", "ﬁ", "Ａ", "a", "語"]


@settings(max_examples=500, deadline=None)
@given(st.one_of(st.text(alphabet=st.sampled_from(_COMPARED_PIECES), max_size=12), st.text()))
@example("\u00a8x")  # NFKC makes a space of it: its normal form starts with one
def test_a_units_compared_form_is_its_normal_form_with_white_space_collapsed(text):
    assert _comparable(lexicon.normalise(text)) == " ".join(lexicon.normalise(text).split())


def test_normal_forms_normalise_each_text_once(monkeypatch):
    normalised: list[str] = []
    normalise = lexicon.normalise

    def counting(text: str) -> str:
        normalised.append(text)
        return normalise(text)

    monkeypatch.setattr(lexicon, "normalise", counting)  # what NormalForms calls
    forms = lexicon.NormalForms()
    assert forms["ＦａｓｔＡＰＩ（例）"] == "FastAPI(例)" == forms["ＦａｓｔＡＰＩ（例）"]
    assert normalised == ["ＦａｓｔＡＰＩ（例）"]


def test_an_articles_texts_are_normalised_once_for_alignment_facts_and_rules(monkeypatch):
    """The engine hands one :class:`NormalForms` to an article's alignment (its anchors) and
    its facts (tokens; ``untranslated``'s compared form): every text below differs, and none
    is normalised twice."""
    from parallelcheck import engine

    normalised: list[str] = []
    normalise = lexicon.normalise

    def counting(text: str) -> str:
        normalised.append(text)
        return normalise(text)

    for module in (lexicon, tokens, anchors):  # NormalForms', and the texts' functions'
        monkeypatch.setattr(module, "normalise", counting)
    documents = parse_versions(
        en="# Ｓｅｔｕｐ `v2`\n\nRun ＦａｓｔＡＰＩ 2.0 with `uvicorn`.\n\n"
        "- one item\n- two items\n",
        ja="# 設定（Ｓｅｔｕｐ）`v2`\n\nＦａｓｔＡＰＩ 2.0 を `uvicorn` で実行します。\n\n"
        "- 一つ目（１）\n- 二つ目（２）\n",
    )
    rules = {"token-mismatch": None, "untranslated": None}
    engine.check_article(documents, [], engine.ArticleContext("a", "en", ("en", "ja"), rules))
    assert "ＦａｓｔＡＰＩ 2.0 を uvicorn で実行します。" in normalised  # read by all three
    assert len(normalised) == len(set(normalised))


def test_no_white_space_but_the_ascii_space_is_printable():
    # what _comparable's shortcut rests on, for every character
    spaces = [chr(code) for code in range(sys.maxunicode + 1) if chr(code).isspace()]
    assert [char for char in spaces if char.isprintable()] == [" "]


_WORDS_USED = st.lists(
    st.sampled_from(["de", "der", "die", "und", "the", "request", "Anfrage", "a", "lesen"])
    | st.text(alphabet="abcdefgh", min_size=1, max_size=8),
    max_size=400,
)


@settings(max_examples=300, deadline=None)
@given(_WORDS_USED)
@example(["a"] * 3 + [f"w{i}" for i in range(70) for _ in range(3)])  # ties at the 60th
def test_the_most_frequent_short_words_are_those_counter_ranks_first(words):
    counts = Counter(words)
    short = Counter({word: count for word, count in counts.items() if len(word) <= 6})
    expected = [(word, count) for word, count in short.most_common(60) if count >= 3]
    assert _most_frequent_short(counts) == expected


SHORT_LATIN = [
    "Use the body.",
    "Die Anfrage ist gut.",
    "la requête est prête",
    "Read the request body and return it.",
    "Lesen Sie den Anfragekörper und geben Sie ihn zurück.",
    "the request body of the request",
    "FastAPI",
]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(SHORT_LATIN), min_size=1, max_size=4).map(" ".join),
    st.sampled_from(["de", "en", "fr"]),
)
def test_a_unit_judged_without_naming_its_language_is_foreign_exactly_when_named(text, lang):
    unit = _unit(text)

    def signs(_unit, _lang):
        return True

    named = _judge(ArticleFacts(), unit, lang, LANGS, lambda: [], signs)
    unnamed = _judge(ArticleFacts(), unit, lang, LANGS, lambda: [], signs, named=False)
    assert unnamed.foreign == named.foreign
    assert unnamed.excused == named.excused


@settings(max_examples=300, deadline=None)
@given(texts, st.sampled_from([*LANGS, "sr-Latn", "sr"]), st.booleans())
def test_a_counterpart_in_its_own_language_is_told_without_naming_foreign_text(text, lang, sr):
    # Serbian in Cyrillic: foreign to sr-Latn's script, yet Serbian once named
    unit = _unit("Тело захтева се чита и враћа. " + text if sr else text)
    langs = [*LANGS, "sr", "sr-Latn"]
    named, _ = block_language(unit.text, lang, languages=langs, code_spans=unit.code_spans)
    facts = ArticleFacts()
    assert _in_own_language(facts, unit, lang, langs) == (named == lang.split("-")[0])
    # asked again, the article's facts give the guess they were given
    assert _in_own_language(facts, unit, lang, langs) == (named == lang.split("-")[0])


def test_the_shortcut_is_taken_for_ordinary_paragraphs():
    def no_signs(_unit, _lang):
        return False

    assert _clearly_at_home(
        ArticleFacts(), _unit("リクエストボディを使います。FastAPI が読みます。"), "ja", no_signs
    )
    assert _clearly_at_home(ArticleFacts(), _unit("Die Anfrage wird gelesen."), "de", no_signs)
    assert not _clearly_at_home(
        ArticleFacts(), _unit("The request body is read by FastAPI."), "ja", no_signs
    )

    def signs(_unit, _lang):
        return True

    longer = "Die Anfrage wird gelesen und als JSON zurückgegeben."
    assert not _clearly_at_home(ArticleFacts(), _unit(longer), "de", signs)
    # too short for a guess between Latin-script languages to be trusted, signs or not
    assert _clearly_at_home(ArticleFacts(), _unit("Die Anfrage wird gelesen."), "de", signs)
    assert not _clearly_at_home(ArticleFacts(), _unit("Die Anfrage: 読み込み"), "de", no_signs)


_NON_LATIN = re.compile(r"[^\W\d_A-Za-z\u00C0-\u024F]")
_LATIN = re.compile(r"[A-Za-z]")


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=2500))
def test_the_non_latin_test_counts_letters_as_its_definition_says(text):
    sample = text[:2000]
    assert mostly_non_latin(text) == (len(_NON_LATIN.findall(sample)) > len(_LATIN.findall(sample)))


numbers_text = st.lists(
    st.sampled_from(["1", "2", "10", "1,000", "1.5", "3.14", "50%", "2×", "十", "two", "2024"]),
    max_size=6,
).map(" ".join)


@settings(max_examples=300, deadline=None)
@given(numbers_text, numbers_text, st.sampled_from(["en", "de", "ja", "fr"]))
def test_numbers_are_matched_by_shared_readings_as_pairwise_comparison_would(ours, theirs, lang):
    comparison = _NumberComparison(ArticleFacts())
    mine = comparison.values(Block(BlockKind.PARAGRAPH, ours, 1, 1), lang)
    other = [
        value for value, _ in comparison.values(Block(BlockKind.PARAGRAPH, theirs, 1, 1), lang)
    ]
    expected = [
        (value, line)
        for value, line in mine
        if not any(comparison.matches(value, candidate) for candidate in other)
    ]
    assert comparison.unmatched(mine, [], comparison.pool(other)) == expected
    assert extract_numbers(ours, lang) == extract_numbers(ours, lang)  # no shared state


def _raw_model() -> bytes:
    packed = identifier._packed()
    assert packed is not None
    raw = identifier._decompress(packed)
    assert raw is not None
    return raw


def test_the_model_read_in_memory_classifies_as_py3langid_loads_it():
    ours = identifier._build(_raw_model())
    assert isinstance(ours.tk_nextmove, memoryview)  # views, not py3langid's own loader
    theirs = identifier._own_loader()
    for languages in (["de", "en"], ["en", "es", "fr", "pt"]):
        ours.set_languages(languages)
        theirs.set_languages(languages)
        for text in ("Die Anfrage wird gelesen", "The request body", "Le corps de la requête"):
            assert ours.classify(text) == theirs.classify(text)


def test_identifiers_kept_restricted_guess_as_one_restricted_afresh():
    # one identifier per set of languages asked about, the least recently asked let go
    theirs = identifier._build(_raw_model())
    texts = ("Die Anfrage wird gelesen", "The request body is read", "Le corps de la requête")
    sets = [["de", "en"], ["en", "es", "fr", "pt"], ["en", "fr"], ["de", "en", "fr", "pl"]]
    sets += [[*pair, "en"] for pair in itertools.combinations(["de", "es", "fr", "pt"], 2)]
    assert len(sets) > identifier.RESTRICTED_KEPT
    for languages in sets + sets[::-1]:  # each set again, most in memory still
        theirs.set_languages(languages)
        for text in texts:
            assert identifier.identify(text, languages) == theirs.classify(text)
    assert len(identifier._IDENTIFIER._restricted) == identifier.RESTRICTED_KEPT


def test_a_stopped_read_ahead_gives_nothing():
    import threading

    stop = threading.Event()
    stop.set()
    packed = identifier._packed()
    assert packed is not None
    assert identifier._decompress(packed, stop) is None
    assert identifier._load(None, stop) is None


def _run(code: str, cache: Path) -> str:
    """What *code* prints, run in a new interpreter whose cache folder is *cache* (an empty
    one: no model stored decompressed there by an earlier run)."""
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        check=True,
        capture_output=True,
        text=True,
        env={**os.environ, "PARALLELCHECK_CACHE_DIR": str(cache)},
    ).stdout


def test_the_model_is_loaded_once_before_workers_fork_only_when_needed(tmp_path):
    for name, langs in (("latin", ("en", "de")), ("cjk", ("en", "ja"))):
        for index in range(4):
            folder = tmp_path / name / f"a{index}"
            folder.mkdir(parents=True)
            (folder / "en.md").write_text("# Title\n\nThe request body is read.\n")
            text = {"de": "Die Anfrage wird gelesen.", "ja": "リクエストを読みます。"}[langs[1]]
            (folder / f"{langs[1]}.md").write_text(f"# Title\n\n{text}\n")
    output = _run(
        f"""
        import contextlib, io, os, sys
        from parallelcheck.text import langid as identifier
        from parallelcheck.cli import cli
        reads = []
        real = identifier._decompress
        identifier._decompress = lambda packed, stop=None: reads.append(stop is not None) or real(
            packed, stop
        )
        for name in ("cjk", "latin"):
            folder = os.path.join({str(tmp_path)!r}, name)
            with contextlib.suppress(SystemExit), contextlib.redirect_stdout(io.StringIO()):
                cli.main(["check", folder, "--no-cache", "--jobs", "2", "--format", "json"])
            print(name, identifier.is_loaded(), "numpy" in sys.modules, reads)
        """,
        tmp_path / "cache",
    )
    # The model, and the libraries it needs, only for the run that needs them: the command
    # without two Latin-script languages never starts reading it (not even in the
    # background), the other reads it once, in the background (with a stop signal), and
    # holds it before its workers fork.
    assert output.split() == ["cjk", "False", "False", "[]", "latin", "True", "True", "[True]"]


def test_workers_that_cannot_inherit_the_model_leave_the_main_process_without_it(tmp_path):
    for index in range(4):
        folder = tmp_path / f"a{index}"
        folder.mkdir()
        (folder / "en.md").write_text("# Title\n\nThe request body is read.\n")
        (folder / "de.md").write_text("# Titel\n\nDie Anfrage wird gelesen.\n")
    output = _run(
        f"""
        import contextlib, io
        from parallelcheck.run import workers
        from parallelcheck.text import langid as identifier
        from parallelcheck.cli import cli
        reads = []
        real = identifier._decompress
        identifier._decompress = lambda packed, stop=None: reads.append(stop is not None) or real(
            packed, stop
        )
        workers.INHERIT = False  # as where workers start afresh (Windows, macOS)
        out = io.StringIO()
        with contextlib.suppress(SystemExit), contextlib.redirect_stdout(out):
            cli.main(["check", {str(tmp_path)!r}, "--no-cache", "--jobs", "2", "--format", "json"])
        print(identifier.is_loaded(), reads, '"articles"' in out.getvalue())
        """,
        tmp_path / "cache",
    )
    # Each worker reads its own copy: the main process reads none, not even ahead.
    assert output.split() == ["False", "[]", "True"]


def test_the_library_is_imported_beside_the_model_read_without_loading_it(tmp_path):
    output = _run(
        """
        import sys
        from parallelcheck.text import langid as identifier
        identifier.read_ahead()
        identifier.import_library()
        print("py3langid.langid" in sys.modules, identifier.is_loaded())
        identifier.load()
        print(identifier.identify("Die Anfrage wird im Hintergrund gelesen", ["de", "en"])[0])
        """,
        tmp_path / "cache",
    )
    assert output.split() == ["True", "False", "de"]


def _anchors_word_by_word(text: str, non_latin: bool) -> Counter:
    """Every word of the text, in turn, at the place the word pattern finds it."""
    text = anchors.normalise(text)
    keys = ["#" + value.replace(",", "") for value in anchors._NUMBER.findall(text)]
    for match in anchors._WORD.finditer(text):
        strength = anchors._name_strength(match.group(), text, match.start(), non_latin)
        if strength:
            keys.append(("" if strength == 2 else "~") + match.group().lower())
    return Counter(keys)


_ANCHOR_WORDS = ["FastAPI", "the", "The", "Foo", "api", "foo_bar", "a.B", "v2", "9abc", "x.y"]
_ANCHOR_WORDS += ["ＡＰＩ", "DeepSeek-V3", "日本", "e.g.", "1,000"]
# Numbers inside words and beside them (read in the words' scan), in other scripts' digits too.
_ANCHOR_WORDS += ["C+1", "g++11", "x+2,5", "a.1", "٣٤", "é12", "3.5.7", ",42"]
anchor_text = st.lists(
    st.tuples(st.sampled_from(_ANCHOR_WORDS), st.sampled_from([" ", ". ", "-", "\n", "", "("])),
    max_size=30,
).map(lambda pairs: "".join(word + gap for word, gap in pairs))


@settings(max_examples=500, deadline=None)
@given(anchor_text, st.booleans())
def test_anchors_are_those_found_word_by_word(text, non_latin):
    assert anchors.anchors_of(text, non_latin=non_latin) == _anchors_word_by_word(text, non_latin)


@settings(max_examples=300, deadline=None)
@given(
    anchor_text,
    st.booleans(),
    st.lists(st.sampled_from(["~x", "日本語", "ü", "Foo"]), max_size=3),
    st.lists(st.sampled_from(["~/path", "/ü", "https://example.com"]), max_size=3),
)
def test_strong_anchors_are_the_anchors_without_the_weak_ones(text, non_latin, code, targets):
    found = anchors.anchors_of(text, non_latin=non_latin, code_spans=code, targets=targets)
    strong = Counter({key: n for key, n in found.items() if not key.startswith("~")})
    assert anchors.strong_only(found) == strong


def test_inline_code_keys_kept_for_an_article_are_the_keys_formed_each_time():
    code_keys: dict[str, str] = {}
    spans = ["{{branch_name}}", "fetch()", "{{nom_de_branche}}", "fetch()"]
    for text in ("Run `x` on the branch.", "Lance `x` sur la branche."):
        found = anchors.anchor_keys(text, False, spans, ["/a"], code_keys)
        assert found == anchors.anchor_keys(text, False, spans, ["/a"])
    assert code_keys == {span: anchors.code_key(span) for span in spans}
    assert code_keys["{{branch_name}}"] == code_keys["{{nom_de_branche}}"] == "`{{…}}"


def test_a_failing_read_ahead_is_silent_and_the_model_loads_in_the_foreground():
    output = subprocess.run(
        [
            sys.executable,
            "-c",
            textwrap.dedent(
                """
                from parallelcheck.text import langid as identifier

                real = identifier._decompress
                calls = []

                def failing(packed, stop=None):
                    calls.append(stop)
                    if stop is not None:
                        raise MemoryError("no room for the model")
                    return real(packed, stop)

                identifier._decompress = failing
                identifier.read_ahead()
                print(identifier.identify("Die Anfrage wird gelesen", ["de", "en"])[0], len(calls))
                """
            ),
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    assert output.stdout.split() == ["de", "2"]
    assert output.stderr == ""  # no traceback from the background thread


# --- Regular expressions that take a token's first character before looking behind it ------

_LATIN_PIECES = ["FastAPI", "api", "Api", "I", "a", "e.g.", "x.Y", "C++", "v2", "_id", "é", "É"]
_LATIN_PIECES += ["ßtraße", "Ärger", "ĀBC", "ɏx", "日本", "–", "“", "@app", "#tag", "$x", "1.5"]
latin_text = st.lists(
    st.tuples(st.sampled_from(_LATIN_PIECES), st.sampled_from([" ", ". ", "-", "\n", "", "/"])),
    max_size=24,
).map(lambda pairs: "".join(piece + gap for piece, gap in pairs))


def _spans(pattern: re.Pattern[str], text: str) -> list[tuple[int, int]]:
    return [match.span() for match in pattern.finditer(text)]


@settings(max_examples=400, deadline=None)
@given(st.one_of(latin_text, st.text(max_size=40)))
@example("a,#.//baxZ+")  # a possessive group's repeat matched "#." here under Python 3.11.2
def test_name_like_tokens_are_those_of_their_definition(text):
    """The definition: a run of token characters not preceded by one, unless it is a word of
    small letters or a capitalised word (each with a plain end); its repeated group greedy,
    as Python 3.11.2 matches a possessive repeat of a group wrongly."""
    letters, small, capital = lexicon.LATIN_TOKEN_CHARS, lexicon.LATIN_LOWER, lexicon.LATIN_UPPER
    end = lexicon._PLAIN_END
    definition = re.compile(
        rf"(?<![{letters}])(?![{small}]++{end}|[{capital}][{small}]++{end})"
        rf"[{letters}]+(?:[./:+][{letters}]+)*[+#]*"
    )
    assert _spans(lexicon.NAME_LIKE, text) == _spans(definition, text)


_GAPS = [" ", ". ", ".", "!  ", "?\n", "\n", "\t", "(", "（", "「", "“ ", '"', "'", "‘", "• "]
_GAPS += ["* ", "- ", "–", "—  ", "   ", "。", "：", "\u3000", "\xa0", ";", ""]
sentence_text = st.lists(
    st.tuples(st.sampled_from([*_LATIN_PIECES, "Über", "Zz"]), st.sampled_from(_GAPS)),
    max_size=16,
).map(lambda pairs: "".join(piece + gap for piece, gap in pairs))


@settings(max_examples=600, deadline=None)
@given(st.one_of(sentence_text, latin_text, st.text(max_size=40)))
def test_capitalised_names_are_the_capitalised_words_that_start_no_sentence(text):
    """The definition: a capitalised word not preceded by a token character, whose three
    characters before do not end as a sentence's start is preceded."""
    letters, small, capital = lexicon.LATIN_TOKEN_CHARS, lexicon.LATIN_LOWER, lexicon.LATIN_UPPER
    capitalised = re.compile(rf"(?<![{letters}])[{capital}][{small}]+(?![{letters}])")
    names = [s for s in _spans(capitalised, text) if not lexicon.starts_sentence(text, s[0])]
    assert _spans(lexicon.CAPITALISED_NAME, text) == names


@settings(max_examples=500, deadline=None)
@given(st.one_of(anchor_text, latin_text, st.text(alphabet="aZ9_.+-é ", max_size=30)))
@example("Z..")  # a possessive group matched "Z." here under Python 3.11.2
@example("9Q_Z_,ax\n\n+")
def test_anchor_words_are_those_of_their_definition(text):
    # a letter, letters and digits, then runs of letters and digits each after one of `_ . +`
    # (greedy: the possessive runs the module uses give nothing back, and need not)
    definition = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:[_.+][A-Za-z0-9]+)*")
    assert _spans(anchors._WORD, text) == _spans(definition, text)


@settings(max_examples=400, deadline=None)
@given(st.one_of(latin_text, st.text(max_size=40)))
def test_token_candidates_are_those_of_their_definition(text):
    # a word of ASCII letters and digits holding a capital, a digit or a joiner; not glued to
    # a letter, digit or accented Latin letter on either side, nor to the rest of a number
    # (a comma or full stop right after a letter or digit)
    definition = re.compile(
        r"(?<![A-Za-z0-9_\u00c0-\u024f-])(?<![A-Za-z0-9_][.,])[A-Za-z0-9]"
        r"(?=[A-Za-z0-9_.+-]*?[A-Z0-9_.+-])[A-Za-z0-9_.+-]*[A-Za-z0-9+]"
        r"(?![A-Za-z0-9_\u00c0-\u024f])"
    )
    assert _spans(tokens._CANDIDATE, text) == _spans(definition, text)


def _letters_script_by_script(text: str) -> dict[str, int]:
    """count_letters as it was: for each script with a counted lead byte in the text, its
    lead bytes counted alone, plus its longer sequences, less those subtracted."""
    letters: dict[str, int] = {}
    data = text.encode("utf-8")
    ascii_letters = sum(chr(b).isalpha() for b in data if b < 128)
    if ascii_letters:
        letters["Latin"] = ascii_letters
    for name, alone, sequences, minus in script._SCRIPT_BYTES:
        count = sum(data.count(bytes([lead])) for lead in alone)
        count += sum(data.count(seq) for seq in sequences)
        if count:
            count -= sum(data.count(seq) for seq in minus)
            if count > 0:
                letters[name] = letters.get(name, 0) + count
    return letters


# a character of every block counted, its neighbours, and what is subtracted (× ÷ ・)
_LETTER_SAMPLES = "aZ é×÷ſǅ ɐ Ḁỿ Ꭰ 漢字 ぁかな・カナ 한국 ㄱ Жж ӿ Ωω ا ە א ף क ॐ ก ๛ ℃ 😀"
letters_text = st.text(alphabet=st.sampled_from(_LETTER_SAMPLES), max_size=40)


@settings(max_examples=500, deadline=None)
@given(st.one_of(letters_text, st.text(max_size=40)))
def test_letters_are_counted_as_script_by_script(text):
    assert script.count_letters(text) == _letters_script_by_script(text)


_SCRIPT_SETS = sorted({script.language_scripts(lang) for lang in [*LANGS, "ar", "th", "el"]})


def _weighted(text: str) -> dict[str, float]:
    letters = script.count_letters(text)
    return {name: count * script.WEIGHT.get(name, 1.0) for name, count in letters.items()}


_SHARED_TEXT = st.one_of(letters_text, st.text(max_size=40), texts)


@settings(max_examples=500, deadline=None)
@given(
    _SHARED_TEXT,
    st.sampled_from(_SCRIPT_SETS),
    st.sampled_from([0.03, 0.06, 0.25, 0.5, 0.9]),
    st.lists(_SHARED_TEXT, max_size=3),
)
@example("漢" + "a" * 96, ("Han",), 0.03, [])  # 3 / (3 + 96) is 0.0303…
@example("한" + "a" * 63, ("Hangul", "Han"), 0.03, [])  # 2 / (2 + 63) is 0.0307…
@example("한漢", ("Hangul",), 0.5, [])  # 2 / (2 + 3): another script's letter may weigh more
@example("漢字" * 2, ("Han",), 0.6, ["漢", "a"])  # 12 / (12 + 3 + 1) is 0.75
@example("漢字" * 2, ("Han",), 0.7, ["漢", "a"])  # the letters of the rest weigh too
def test_a_share_told_surely_is_at_most_the_counted_share(text, scripts, share, rest):
    # untranslated's one-pass test of a non-Latin unit against its full letter count: the
    # letters of a text, or of the part of it that stays when some pieces are set aside
    whole = " ".join([*rest[:1], text, *rest[1:]])
    for part, among in ((text, None), (text, whole)):
        if script.surely_shares(part, scripts, share, among=among):
            own = sum(_weighted(part).get(name, 0.0) for name in scripts)
            assert own / sum(_weighted(among or part).values()) >= share


def test_a_share_is_told_surely_in_running_text_of_the_script():
    japanese = "リクエストボディを使います。FastAPI が読みます。"
    assert script.surely_shares(japanese, ("Han", "Kana"), 0.06)
    assert script.surely_shares("Тело запроса читается FastAPI.", ("Cyrillic",), 0.06)
    assert not script.surely_shares("The request body is read by FastAPI 読.", ("Han",), 0.06)


# --- Number passes skipped for texts below their first character -------------------------

_NUMERAL_PIECES = [
    "第三",
    "三百",
    "百分之五十",
    "ひとつ",
    "ふたつ",
    "삼십",
    "스물",
    "하나",
    "２０％",
]
_NUMERAL_PIECES += ["12，5", "＋3", "٣", "१०", "3 500", "two", "Zwei", "“1”", "é", "x", " "]
_NUMERAL_PIECES += ["twice", "fifty", "％", "%", "вдвое", "doppelt", "hundred", "İ", "million"]
_NUMERAL_PIECES += ["iki katı", "-two", "one-", "Twenty", "dos", "mil"]
numeral_text = st.lists(st.sampled_from(_NUMERAL_PIECES), max_size=10).map("".join)


@settings(max_examples=400, deadline=None)
@given(numeral_text, st.sampled_from(["en", "de", "ja", "ko", "zh-Hans", "fr"]))
def test_number_passes_skipped_below_their_floor_would_have_found_nothing(text, lang):
    found = extract_numbers(text, lang)
    profile = numbers._profile_of(lang)
    unfloored = replace(profile, passes=tuple(replace(p, floor="") for p in profile.passes))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(numbers, "_profile_of", lambda _: unfloored)
        patch.setattr(numbers, "_MAP_FLOOR", "\0")  # every non-ASCII text searched for digits
        patch.setattr(numbers, "_MAP_REACH", script.reaching("\0"))
        assert extract_numbers(text, lang) == found


@settings(max_examples=400, deadline=None)
@given(
    st.one_of(numeral_text, st.text(max_size=30)),
    st.sampled_from(["en", "de", "ja", "ko", "zh-Hans", "fr", "ru", "hi", "es", "tr"]),
)
def test_a_text_without_digit_or_numeral_gives_what_every_pass_would_find(text, lang):
    found = extract_numbers(text, lang)
    profile = numbers._profile_of(lang)
    anything = re.compile("")  # finds something in any text
    every_pass = replace(profile, numberish=anything, digitish=anything, words_anywhere=anything)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(numbers, "_profile_of", lambda _: every_pass)
        assert extract_numbers(text, lang) == found


@settings(max_examples=500, deadline=None)
@given(
    st.one_of(numeral_text, st.text(min_size=1, max_size=40)).filter(bool),
    st.sampled_from(["\u0370", "〇", "一", "ひ", "가", "\x7f", "\x80", "\U0010ffff", "é"]),
)
def test_a_text_reaches_a_floor_exactly_when_its_largest_character_does(text, floor):
    from parallelcheck.rules import untranslated

    assert (script.reaching(floor).search(text) is not None) == (max(text) >= floor)
    assert (untranslated._FROM_GREEK.search(text) is None) == (max(text) < "\u0370")


# --- Date searches skipped for texts without a word every date holds --------------------

_DATE_LANGS = ["en", "de", "fr", "es", "pt", "ru", "uk", "tr", "hi", "vi", "pl", "id", "zh", "it"]


def _date_pieces(lang: str) -> list[str]:
    """Dates of every skeleton the profile reads, written by babel, cut into words, with
    their separators and words that resemble month and weekday names."""
    from babel import Locale
    from babel.dates import format_date, format_skeleton

    from parallelcheck.text.dates import _SKELETONS

    locale = Locale.parse(lang.replace("-", "_"))
    day = date(2026, 3, 2)
    written = [format_date(day, width, locale=locale) for width in ("full", "long", "medium")]
    written += [
        format_skeleton(skeleton, day, locale=locale)
        for skeleton in _SKELETONS
        if skeleton in locale.datetime_skeletons
    ]
    words = {word for text in written for word in re.split(r"(\W+)", text) if word}
    return sorted(words) + written + ["Mar", "marzo", "Dec", "2026", "2", " ", ", ", "x"]


@settings(max_examples=300, deadline=None)
@given(st.data(), st.sampled_from(_DATE_LANGS))
def test_a_date_search_is_skipped_only_where_it_would_find_nothing(data, lang):
    from parallelcheck.text.dates import date_profile, may_hold_date

    profile = date_profile(lang)
    pieces = _date_pieces(lang)
    text = "".join(data.draw(st.lists(st.sampled_from(pieces), min_size=1, max_size=8)))
    if profile.pattern.search(text):
        assert profile.witnesses is None or profile.witnesses.search(text)
    if profile.witnesses is not None and not profile.witnesses.search(text):
        assert not may_hold_date(profile, text)


_NAME_PIECES = ["mar", "Marzo", "may", "Mai", "ma", "abr", "abril", "Σεπ", "ς", "İ", "ſ", "K"]
_NAME_PIECES += ["dez", "dezembro", "ДЕК", "декабря", "1", " ", ".", "x", "é", "月", "年"]


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.sampled_from(_NAME_PIECES), min_size=1, max_size=8),
    st.lists(st.sampled_from(["дек", "abr", "Ma"]), max_size=2),
    st.lists(st.lists(st.sampled_from(_NAME_PIECES), max_size=6).map("".join), max_size=6),
    st.sampled_from([0, re.IGNORECASE]),
    st.sampled_from(["", r"(?![^\W\d_])", r"\s"]),
)
def test_a_witness_finds_words_where_their_alternation_does(words, stems, texts, flags, end):
    # A date witness searches for a trie of the words (Words.found) instead of the
    # alternation the date pattern holds (Words.regex): the same places must match, whatever
    # the case and whatever follows the words.
    from parallelcheck.text.dates import _words

    names = _words(["".join(words[:i]) for i in range(1, len(words) + 1)], stems).ending(end)
    alternation, trie = re.compile(names.regex, flags), re.compile(names.found, flags)
    for text in texts:
        for at in range(len(text) + 1):
            assert bool(trie.match(text, at)) == bool(alternation.match(text, at)), (text, at)


@pytest.mark.parametrize("lang", _DATE_LANGS)
def test_every_date_a_profile_reads_holds_its_witness(lang):
    from parallelcheck.text.dates import date_profile

    profile = date_profile(lang)
    for text in _date_pieces(lang):
        if profile.pattern.search(text):
            assert profile.witnesses is None or profile.witnesses.search(text), text


_WORD_PIECES = ["Die", "ANFRAGE", "ΟΔΟΣ", "Σ", "ς", "İstanbul", "ǅ", "ß", "x", "1a", "_b", "é", " "]
_WORD_PIECES += ["\n", ".", "日本語", "—", "'", "ﬁle"]
word_texts = st.lists(st.lists(st.sampled_from(_WORD_PIECES), max_size=8).map("".join), max_size=5)


_LETTER_EDGES = "aZ_1١²½ⅷǅß\u0130\u2fff\u3000\u3005ぁ漢😀\U0001d400-' \n"


@settings(max_examples=500, deadline=None)
@given(st.one_of(st.text(alphabet=st.sampled_from(_LETTER_EDGES), max_size=20), st.text()))
def test_words_are_the_runs_of_letters_of_their_definition(text):
    # lower_words reads most texts with a class listing the letters below U+3000
    assert lexicon.lower_words(text) == re.findall(r"[^\W\d_]{2,}", text.lower())


def test_the_letters_listed_are_those_of_the_letter_class_below_east_asia():
    below = "".join(map(chr, range(0x3000)))
    listed = re.compile(f"[{lexicon._listed_letters(chr(0x3000))}]")
    assert listed.findall(below) == re.findall(r"[^\W\d_]", below)


@settings(max_examples=400, deadline=None)
@given(word_texts)
def test_the_words_of_texts_joined_by_line_breaks_are_each_texts_words_in_turn(texts):
    # untranslated counts a version's words block by block (each block's words are kept in
    # the article's facts for its units) instead of in the version's whole text.
    joined = lexicon.lower_words("\n".join(texts))
    assert joined == [word for text in texts for word in lexicon.lower_words(text)]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(["Serve", " ", "ü", "日本", "Ωμέγα", "1", ".", "が"]), max_size=900)
)
def test_the_non_latin_test_stops_early_only_where_its_definition_agrees(pieces):
    # Mostly Latin words, spaces and some letters of other scripts: the samples where ASCII
    # letters make half the characters or more are common here (the test stops at once).
    text = "".join(pieces)
    sample = text[:NON_LATIN_SAMPLE]
    assert mostly_non_latin(text) == (len(_NON_LATIN.findall(sample)) > len(_LATIN.findall(sample)))


_TITLE_WORDS = ["Serve", "日本語", "Ωμέγα", "über", "1"]


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.lists(st.sampled_from(_TITLE_WORDS), min_size=1, max_size=8), max_size=25),
    st.lists(
        st.tuples(st.sampled_from(["a", "日", " ", "ü", "Ω"]), st.integers(0, 700)).map(
            lambda run: run[0] * run[1]
        ),
        max_size=30,
    ),
)
def test_a_versions_script_is_told_from_the_start_of_its_headings_and_blocks(titles, blocks):
    markdown = "".join(f"# {' '.join(words)}\n\n" for words in titles)
    doc = parse_text(markdown, "x.md", "en", "markdown")
    # The blocks set directly, so that their texts are exactly the strategy's: long runs of
    # one letter, so that the characters near the sample's end often tip the balance.
    doc.sections[-1].blocks = [Block(BlockKind.PARAGRAPH, text, 1, 1) for text in blocks]
    whole = " ".join(s.title for s in doc.sections[:20]) + " ".join(
        b.text for b in itertools.islice(doc.iter_blocks(), 20)
    )
    assert written_in_non_latin(doc) == mostly_non_latin(whole)


# --- untranslated's signs of another language, from short words looked up in C ----------

_SIGN_WORDS = {
    "en": ["the", "and", "of", "request", "is", "body", "The", "to", "returns", "server"],
    "de": ["die", "und", "der", "Anfrage", "ist", "werden", "Körper", "zurück", "nicht"],
    "fr": ["la", "et", "le", "requête", "est", "les", "réponse", "corps", "serveur"],
    "pt": ["de", "que", "os", "corpo", "requisição", "é", "não", "resposta"],
}
_SIGN_PIECES = [
    *sorted({word for words in _SIGN_WORDS.values() for word in words}),
    "FastAPI",  # no function word of any version
    "abcdef",  # six letters: a function word may be this long
    "abcdefg",  # seven: never one
    "İst",
    "x1",
    ".",
    "\n",
]


def _sign_paragraphs(lang: str) -> st.SearchStrategy[list[str]]:
    own = st.sampled_from(_SIGN_WORDS[lang])
    word = st.one_of(own, own, own, st.sampled_from(_SIGN_PIECES))
    return st.lists(st.lists(word, min_size=1, max_size=30).map(" ".join), max_size=12)


def _reference_signs(versions: dict[str, list[str]], text: str, lang: str) -> bool:
    """untranslated's signs of another language as first written: every word of every block
    counted, each word of the unit looked up one by one."""
    from parallelcheck.rules import untranslated as rule

    counts = {
        other: Counter(word for para in paras for word in lexicon.lower_words(para))
        for other, paras in versions.items()
    }
    totals = {
        other: max(sum(n for word, n in every.items() if len(word) <= 6), 1)
        for other, every in counts.items()
    }
    function_words = {}
    for other, every in counts.items():
        short = Counter({word: n for word, n in every.items() if len(word) <= 6})
        ranked = [(word, n) for word, n in short.most_common(60) if n >= 3]
        function_words[other] = {
            word
            for word, n in ranked
            if all(
                n / totals[other] >= 4 * counts[rival].get(word, 0) / totals[rival]
                for rival in counts
                if rival[:2] != other[:2]
            )
        }
    if len(function_words[lang]) < 4:
        return True
    hits: Counter[str] = Counter()
    for word in lexicon.lower_words(text):
        for holder, words in function_words.items():
            if word in words:
                hits[holder] += 1
    own = hits[lang]
    if not own:
        return True
    rivals = [other for other in function_words if other[:2] != lang[:2]]
    assert rule.FOREIGN_HITS == 2
    return any(hits[o] > own or (hits[o] >= 2 and hits[o] == own) for o in rivals)


@settings(max_examples=300, deadline=None)
@given(
    st.fixed_dictionaries({lang: _sign_paragraphs(lang) for lang in ["en", "de", "fr", "pt"]}),
    st.sampled_from(["de", "fr", "pt", "en"]),
    st.sampled_from(["de", "fr", "pt", "en"]),
    st.integers(0, 11),
    st.lists(st.sampled_from(_SIGN_PIECES), max_size=20).map(" ".join),
)
def test_signs_of_another_language_are_those_of_every_word_counted(
    versions, lang, other, at, extra
):
    from types import SimpleNamespace

    from parallelcheck.model.document import Document, Section
    from parallelcheck.rules.untranslated import _ForeignSigns

    versions = {**versions, "ja": ["日本語の文です。"]}  # a version in another script: no words
    documents = {
        other: Document(
            f"{other}.md",
            other,
            [Section(0, "", 1, blocks=[Block(BlockKind.PARAGRAPH, p, 1, 1) for p in paras])],
        )
        for other, paras in versions.items()
    }
    article = SimpleNamespace(langs=list(versions), documents=documents)
    signs = _ForeignSigns(article, ArticleFacts())  # type: ignore[arg-type]
    # a paragraph of the version itself (its words read for the counts too), with another
    # version's (a pasted sentence) or other words
    pieces = [*versions[lang][at : at + 1], *versions[other][at : at + 1], extra]
    text = " ".join(pieces[:2] if at % 2 else pieces[::2])
    latin = {name: paras for name, paras in versions.items() if name != "ja"}
    assert signs(_unit(text), lang) == _reference_signs(latin, text, lang)


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="ab c", max_size=30), st.text(alphabet="ab c", max_size=30))
@example("a" * 9, "a" * 10)  # 9 is 0.9 × 10: compared
@example("a" * 8, "a" * 9)  # 8 is under 0.9 × 9: ruled out by the lengths
@example("", "")
def test_similarity_ruled_out_by_lengths_is_the_lengths_test_written_out(a, b):
    from rapidfuzz.fuzz import ratio

    ruled_out = not a or not b or min(len(a), len(b)) < 0.9 * max(len(a), len(b))
    assert _same(a, b) == (0.0 if ruled_out else ratio(a, b, score_cutoff=95))


_ITEM_MARKDOWN = [
    "- plain item\n",
    "- item with `code`\n",
    "- item\n\n  ```\n  code in it\n  ```\n",
    "- item\n  - nested item\n",
    "- loose item\n\n  second paragraph\n",
    "1. numbered item\n",
    "- item\n\n  <div>html</div>\n",
]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(_ITEM_MARKDOWN), min_size=1, max_size=6))
def test_a_list_items_unit_text_is_its_prose_text(items):
    # a tight item (no nested block) is taken for its text without asking for its prose
    markdown = "".join(items).replace("\n1. ", "\n- ")
    doc = parse_text(markdown, "x.md", "en", "markdown")
    for block in doc.iter_blocks():
        found = _units(block, lexicon.NormalForms())
        if block.kind is BlockKind.LIST:
            items_ = [child for child in block.children if child.kind is BlockKind.ITEM]
            texts = [unit.text for unit in found if unit.noun == "list item"]
            assert texts == [child.prose_text() for child in items_]
