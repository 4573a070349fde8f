"""Sentences: the segmenter, sentence alignment, and missing-sentence / extra-sentence on real
pages.

Why our own segmenter rather than spaCy's rule-based ``sentencizer`` (``spacy.blank(lang)`` +
``sentencizer``, no model) or pysbd.  Measured on the 55,105 paragraphs of the FastAPI corpus
(124 pages × 13 languages), one process, CPU time: these rules 0.42–0.58 s, spaCy 3.8 9.0 s,
pysbd 0.3.4 29.2 s.  On the criteria cases of the issue (27 sentences: CJK stops without a
space, Korean and Hindi ends, ``e.g.``/``i.e.``/``etc.``/``Dr.``, ``3.10``, ``v1.2.3``,
``main.py``, URLs, inline code with dots, ``**`` left over, French ``« … »``, Russian
``т.е.``): these rules 27/27, pysbd 22/27 (splits inside a URL's query, ``p. ex.``, ``т.е.``
and at every soft line break), spaCy 20/27 (no split at ``。`` or ``！`` without a space, in a
blank pipeline with no Japanese tokenizer installed; ``etc. are``, ``p. ex.`` and list numbers
``1.`` split; ``fastapi.routing.APIRoute`` split on the corpus).  Both libraries also make a
sentence of an emoji after a full stop (``… commands. 🚀``), which the FastAPI pages are full
of.  So: these rules, which also know the readers' block text (soft breaks kept as ``\\n``,
inline code spans given apart), at a twentieth of spaCy's cost; and only the pairs of blocks
whose lengths leave room for a finding are split at all (about 1 % in sync).
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from parallelcheck.align import sentences as aligned_sentences
from parallelcheck.align.sentences import (
    Calibration,
    _Unit,
    align_sentences,
    calibrate,
    prose_pairs,
    sentence_gaps,
)
from parallelcheck.model.aligned import AlignedArticle, AlignedBlock, AlignedSection
from parallelcheck.model.document import Block, BlockKind, Document, Section
from parallelcheck.text.sentences import has_sentence, may_hold_several, split_sentences

# -- the segmenter -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "spans", "expected"),
    [
        # CJK stops need no space; full-width forms count
        (
            "これはペンです。あれは本です！本当？はい",
            (),
            ["これはペンです。", "あれは本です！", "本当？", "はい"],
        ),
        ("這是筆。那是書。", (), ["這是筆。", "那是書。"]),
        ("全角の句点．次の文", (), ["全角の句点．", "次の文"]),
        ("「引用です。」と言った。次。", (), ["「引用です。」", "と言った。", "次。"]),
        # Korean and Hindi
        ("이것은 펜입니다. 저것은 책입니다.", (), ["이것은 펜입니다.", "저것은 책입니다."]),
        ("यह एक कलम है। वह एक किताब है।", (), ["यह एक कलम है।", "वह एक किताब है।"]),
        # abbreviations never end a sentence; "etc." before a capital does
        ("Use e.g. the dev server. Then run it.", (), ["Use e.g. the dev server.", "Then run it."]),
        (
            "Dr. Smith wrote it. Mr. Jones read it.",
            (),
            ["Dr. Smith wrote it.", "Mr. Jones read it."],
        ),
        ("Apples, pears, etc. are fruit.", (), ["Apples, pears, etc. are fruit."]),
        ("Das ist z. B. gut. Das auch.", (), ["Das ist z. B. gut.", "Das auch."]),
        ("Voir p. ex. le guide. Puis lancez-le.", (), ["Voir p. ex. le guide.", "Puis lancez-le."]),
        ("Хорошо, т.е. нормально. Да.", (), ["Хорошо, т.е. нормально.", "Да."]),
        # versions, file names, URLs, inline code
        (
            "Python 3.10 is required. Install v1.2.3 first!",
            (),
            ["Python 3.10 is required.", "Install v1.2.3 first!"],
        ),
        (
            "Copy that to a file main.py. Then run it.",
            ("main.py",),
            ["Copy that to a file main.py.", "Then run it."],
        ),
        (
            "Open http://127.0.0.1:8000/docs. You will see it.",
            (),
            ["Open http://127.0.0.1:8000/docs.", "You will see it."],
        ),
        (
            "See https://example.com/a.b?c=d. It works.",
            (),
            ["See https://example.com/a.b?c=d.", "It works."],
        ),
        (
            "Call foo.bar() first. uvicorn starts the app.",
            ("foo.bar()", "uvicorn"),
            ["Call foo.bar() first.", "uvicorn starts the app."],
        ),
        ("Run x. Done. y", ("x. Done. y",), ["Run x. Done. y"]),
        # closers, Markdown remnants, list numbers, emoji
        ('He said "stop." Then left.', (), ['He said "stop."', "Then left."]),
        (
            "Ceci est une phrase. « Citation. » Fin.",
            (),
            ["Ceci est une phrase.", "« Citation. »", "Fin."],
        ),
        ("1. Install it", (), ["1. Install it"]),
        ("It is fast. 🚀", (), ["It is fast. 🚀"]),
        # an emoji after a Chinese full stop belongs to the sentence; alone it is no sentence
        ("你可以用它。😎", (), ["你可以用它。😎"]),
        ("😎", (), []),
        ("** **", (), []),
        ("", (), []),
    ],
)
def test_segmenter(text, spans, expected):
    assert [s.text for s in split_sentences(text, spans)] == expected
    # the quick tests agree with the split: no sentence without a letter or digit, and never
    # two where there may not be several
    assert has_sentence(text) == bool(expected)
    if not may_hold_several(text):
        assert len(expected) <= 1


def test_one_sentence_texts_need_no_split():
    assert not may_hold_several("Only one sentence here.")
    assert not may_hold_several("これは一文です。😎")
    assert may_hold_several("One. Two")
    assert may_hold_several("これは。あれは")


def test_each_sentence_knows_the_line_it_starts_on():
    text = "Line one.\nLine two\ncontinues. Three.\nFour."
    got = [(s.text, s.line, s.start) for s in split_sentences(text)]
    assert got == [
        ("Line one.", 1, 0),
        ("Line two\ncontinues.", 2, 10),
        ("Three.", 3, 30),
        ("Four.", 4, 37),
    ]


# -- sentence alignment --------------------------------------------------------------------


def _units(*lengths: float, anchors: dict[int, list[str]] | None = None) -> list[_Unit]:
    anchors = anchors or {}
    return [_Unit(float(n), Counter(anchors.get(i, []))) for i, n in enumerate(lengths)]


def test_two_sentences_joined_into_one_align_two_to_one():
    beads, _ = align_sentences(_units(40, 35, 80), _units(78, 82), 0.1)
    assert [(b.source, b.target) for b in beads] == [((0, 1), (0,)), ((2,), (1,))]


def test_the_sentence_the_lengths_leave_out_is_alone():
    beads, _ = align_sentences(_units(40, 90, 42), _units(41, 40), 0.1)
    assert [(b.source, b.target) for b in beads] == [((0,), (0,)), ((1,), ()), ((2,), (1,))]


def test_anchors_decide_where_lengths_cannot():
    # two sentences of the same length; the translation keeps the one with the number
    source = _units(50, 50, anchors={1: ["#8000"]})
    beads, _ = align_sentences(source, _units(50, anchors={0: ["#8000"]}), 0.1)
    assert [(b.source, b.target) for b in beads] == [((0,), ()), ((1,), (0,))]


def test_a_sentence_alone_pays_nothing_for_its_anchors():
    """The translation kept the sentence without code: the one naming code and a number is
    the one lost, although its length matches the translation's better (a sentence left alone
    has nothing to match: its anchors cost nothing)."""
    source = _units(50, 45, anchors={0: ["`uv add", "#8000"]})
    beads, _ = align_sentences(source, _units(50), 0.1)
    assert [(b.source, b.target) for b in beads] == [((0,), ()), ((1,), (0,))]


def test_names_both_latin_sentences_hold_tie_them():
    """Between two Latin-script versions a capitalised word both hold ties two sentences; one
    only one side holds costs nothing (German capitalises every noun)."""
    source = [_Unit(40.0, Counter(), Counter(["~cloud"])), _Unit(40.0, Counter())]
    target = [_Unit(40.0, Counter(), Counter(["~cloud", "~projekte"]))]
    beads, _ = align_sentences(source, target, 0.1)
    assert [(b.source, b.target) for b in beads] == [((0,), (0,)), ((1,), ())]


def test_an_alignment_may_be_asked_to_leave_no_sentence_of_a_side_alone():
    source, target = _units(40, 90, 42), _units(41, 40)
    best, cost = align_sentences(source, target, 0.1)
    kept, kept_cost = align_sentences(source, target, 0.1, keep=(True, None))
    assert any(not b.target for b in best)
    assert all(b.target for b in kept) and kept_cost > cost
    # no alignment leaves nothing of the source alone when the translation is empty
    assert align_sentences(source, [], 0.1, keep=(True, None)) == ([], float("inf"))


def test_calibration_is_the_ratio_of_totals_and_a_robust_spread():
    pairs = [(100, 50), (80, 40), (120, 60), (60, 30), (90, 46), (70, 35), (200, 20)]
    # a Latin-script translation: every character is worth the ratio of the totals
    calibration = calibrate([(s, t, t) for s, t in pairs])
    assert calibration is not None
    assert calibration.ascii_weight == calibration.other_weight == pytest.approx(720 / 281)
    # one block far off (200 → 20) does not widen the spread: the bound's floor
    assert calibration.spread == pytest.approx(0.06)
    assert calibrate([(10, 0, 0)]) is None


def test_a_translation_in_another_script_keeps_its_ascii_as_the_source_has_it():
    """Japanese prose worth two source characters a character, with code and names in ASCII
    kept as they are: one ratio for every character would take a block dense with code for a
    long one."""
    # (source, translation, translation's ASCII): prose alone, then blocks holding 20 to 100
    # characters of code that the source holds too
    prose = [(200, 100, 0), (120, 60, 0), (160, 80, 0), (100, 50, 0)]
    code = [(220, 120, 20), (260, 160, 60), (300, 200, 100), (400, 300, 200), (140, 100, 60)]
    pairs = [*prose, *code]
    calibration = calibrate(pairs)
    assert calibration.ascii_weight == 1.0
    assert calibration.other_weight == pytest.approx(2.0)
    assert calibration.worth(300, 200) == 400  # a code-dense block is predicted exactly
    assert calibration.spread == pytest.approx(0.06)  # so the spread is the floor
    # the same lengths under one ratio would spread
    single = calibrate([(s, t, t) for s, t, _ in pairs])
    assert single.spread > 0.12


# -- which prose is compared ---------------------------------------------------------------


def _para(text: str, line: int) -> Block:
    return Block(BlockKind.PARAGRAPH, text, line, line)


def _list(*items: str, line: int = 1) -> Block:
    children = [Block(BlockKind.ITEM, t, line + i, line + i) for i, t in enumerate(items)]
    return Block(BlockKind.LIST, "\n".join(items), line, line + len(items) - 1, children=children)


def test_prose_pairs_walk_paragraphs_with_split_halves_and_lists_item_by_item():
    split = AlignedBlock(
        {"en": _para("One. Two.", 1), "de": _para("Eins.", 1)},
        extra={"de": [_para("Zwei.", 3)]},
    )
    [(lang, ours, theirs)] = list(prose_pairs(split, "en"))
    assert (lang, [t.text for t in ours], [t.text for t in theirs]) == (
        "de",
        ["One. Two."],
        ["Eins.", "Zwei."],
    )
    lists = AlignedBlock({"en": _list("a. B.", "c."), "ja": _list("あ。", "い。")})
    assert [([a.text for a in x], [b.text for b in y]) for _, x, y in prose_pairs(lists, "en")] == [
        (["a. B."], ["あ。"]),
        (["c."], ["い。"]),
    ]
    # lists of different lengths are list-shape's, code is not prose
    uneven = AlignedBlock({"en": _list("a.", "b."), "ja": _list("あ。")})
    code = AlignedBlock(
        {"en": Block(BlockKind.CODE, "x = 1. y", 1, 1), "ja": Block(BlockKind.CODE, "x", 1, 1)}
    )
    assert list(prose_pairs(uneven, "en")) == list(prose_pairs(code, "en")) == []


def test_every_translation_of_a_row_is_given_the_same_source_prose_of_each_block():
    nested = Block(BlockKind.ITEM, "b. Inner.\nInner.", 2, 3, children=[_para("Inner.", 3)])
    items = [Block(BlockKind.ITEM, "a.", 1, 1), nested]
    source = Block(BlockKind.LIST, "a.\nb. Inner.\nInner.", 1, 3, children=items)

    def translated(first: str, own: str, inner: str) -> Block:
        inner_item = Block(BlockKind.ITEM, f"{own}\n{inner}", 2, 3, children=[_para(inner, 3)])
        children = [Block(BlockKind.ITEM, first, 1, 1), inner_item]
        return Block(BlockKind.LIST, f"{first}\n{own}\n{inner}", 1, 3, children=children)

    row = AlignedBlock(
        {
            "en": source,
            "de": translated("a.", "b.", "Innen."),
            "ja": translated("あ。", "い。", "中。"),
        }
    )
    pairs = list(prose_pairs(row, "en"))
    assert [(lang, [a.text for a in x], [b.text for b in y]) for lang, x, y in pairs] == [
        ("de", ["a."], ["a."]),
        ("de", ["b. Inner.\n"], ["b.\n"]),  # an item's own text: its children's taken off
        ("de", ["Inner."], ["Innen."]),
        ("ja", ["a."], ["あ。"]),
        ("ja", ["b. Inner.\n"], ["い。\n"]),
        ("ja", ["Inner."], ["中。"]),
    ]
    # The same list for the same source block (its length is measured once per row).
    assert all(pairs[i][1] is pairs[i + 3][1] for i in range(3))
    assert len({id(x) for _, x, _ in pairs}) == 3


def _article(rows: list[AlignedBlock]) -> AlignedArticle:
    langs = ("en", "de")
    documents = {lang: Document(f"{lang}.md", lang, [Section(0, "", 1)]) for lang in langs}
    section = AlignedSection({lang: documents[lang].sections[0] for lang in langs}, rows)
    return AlignedArticle(
        "a", "en", langs, langs, {x: f"{x}.md" for x in langs}, documents, [section], ()
    )


def test_pairs_whose_lengths_agree_are_never_split_into_sentences():
    """The shortcut is exact by construction: only pairs the length model lets through are
    segmented, and only they can give a finding."""
    rows = [
        AlignedBlock(
            {
                "en": _para(f"Paragraph {i} says one thing here. And a second thing too.", i),
                "de": _para(f"Absatz {i} sagt hier eine Sache. Und noch eine zweite dazu.", i),
            }
        )
        for i in range(8)
    ]
    rows.append(
        AlignedBlock(
            {
                "en": _para(
                    "This one keeps its first sentence. But the second one, which said"
                    " much more than the first, went away.",
                    9,
                ),
                "de": _para("Dieser behält seinen ersten Satz.", 9),
            }
        )
    )
    seen: list[str] = []

    def segment(text, spans):
        seen.append(text)
        return split_sentences(text, spans)

    gaps = list(sentence_gaps(_article(rows), segment, missing=True))
    assert seen == [rows[-1].cells["en"].text, rows[-1].cells["de"].text]
    assert [(lang, gap.sentence.text, gap.line) for lang, gap in gaps] == [
        ("de", "But the second one, which said much more than the first, went away.", 9)
    ]
    assert not list(sentence_gaps(_article(rows), segment, missing=False))


def test_a_gap_needs_fewer_sentences_on_the_shorter_side():
    """A one-sentence paragraph translated by one much shorter sentence is rewording."""
    rows = [
        AlignedBlock(
            {
                "en": _para(f"Paragraph number {i} is here.", i),
                "de": _para(f"Absatz {i} ist da.", i),
            }
        )
        for i in range(8)
    ]
    rows.append(
        AlignedBlock(
            {
                "en": _para("A long sentence that says a great deal more than it needs to.", 9),
                "de": _para("Kurz gesagt.", 9),
            }
        )
    )
    assert not list(sentence_gaps(_article(rows), split_sentences, missing=True))


def _rows(pairs: list[tuple[str, str]], start: int = 0) -> list[AlignedBlock]:
    return [
        AlignedBlock({"en": _para(en, start + i), "de": _para(de, start + i)})
        for i, (en, de) in enumerate(pairs)
    ]


#: Paragraphs in sync that calibrate the length model (German as long as English).
_CALIBRATION = [
    (
        f"Paragraph {i} explains one part of the setup in a few words of its own here.",
        f"Absatz {i} erklärt einen Teil der Einrichtung mit ein paar eigenen Worten.",
    )
    for i in range(8)
]


def test_a_short_sentence_is_reported_on_the_alignments_own_evidence():
    """A sentence under 30 characters, between two that match theirs, is reported when no way
    of pairing it is nearly as likely as leaving it alone; the same paragraph with the short
    sentence translated gives nothing."""
    en = (
        "The browser sends the cookies with every single request it makes."
        " Only the server can set them. Their values are always plain strings of text."
    )
    dropped = (
        "Der Browser schickt die Cookies mit jeder einzelnen Anfrage mit."
        " Ihre Werte sind immer schlichte Zeichenketten."
    )
    kept = dropped.replace(" Ihre", " Nur der Server kann sie setzen. Ihre")
    rows = _rows([*_CALIBRATION, (en, dropped)])
    gaps = list(sentence_gaps(_article(rows), split_sentences, missing=True))
    assert [(lang, gap.sentence.text) for lang, gap in gaps] == [
        ("de", "Only the server can set them.")
    ]
    assert not list(
        sentence_gaps(_article(_rows([*_CALIBRATION, (en, kept)])), split_sentences, missing=True)
    )


def test_a_sentence_split_in_two_is_no_sentence_added():
    en = (
        "FastAPI includes several middlewares for common use cases,"
        " we will see next how to use them."
    )
    de = (
        "FastAPI enthält mehrere Middlewares für häufige Anwendungsfälle."
        " Wir sehen als Nächstes, wie man sie verwendet."
    )
    rows = _rows([*_CALIBRATION, (en, de)])
    assert not list(sentence_gaps(_article(rows), split_sentences, missing=False))


def test_a_sentence_only_partly_translated_names_what_it_lacks():
    """A translator split a long sentence in two and dropped the half naming the code: no
    sentence is missing as a whole, the source sentence is only partly translated."""
    en = _para(
        "Mount the older application, the one written for WSGI servers, with WSGIMiddleware"
        " from fastapi.middleware.wsgi, which takes it as its only argument and serves it.",
        9,
    )
    en.code_spans = ["WSGIMiddleware", "fastapi.middleware.wsgi"]
    de = _para("Sie nimmt sie als einziges Argument und stellt sie bereit.", 9)
    rows = [*_rows(_CALIBRATION), AlignedBlock({"en": en, "de": de})]
    [(lang, gap)] = list(sentence_gaps(_article(rows), split_sentences, missing=True))
    assert (lang, gap.line, gap.other.line) == ("de", 9, 9)
    assert gap.lacks == ("`WSGIMiddleware`", "`fastapi.middleware.wsgi`", "WSGI")
    # the code and names still there (reworded, shortened): nothing
    de.text = "Binden Sie die WSGI-Anwendung mit WSGIMiddleware aus fastapi.middleware.wsgi ein."
    de.code_spans = ["WSGIMiddleware", "fastapi.middleware.wsgi"]
    assert not list(sentence_gaps(_article(rows), split_sentences, missing=True))
    # code written as plain text, without backticks, is there too
    de.text = "Binden Sie die WSGI-Anwendung mit WSGIMiddleware aus fastapi.middleware.wsgi ein."
    de.code_spans = []
    assert not list(sentence_gaps(_article(rows), split_sentences, missing=True))
    # and so is what the translation moved to the next block (an introduction and a list)
    de.text = "Sie nimmt sie als einziges Argument und stellt sie bereit, und zwar:"
    listed = _para("WSGI-Anwendungen mit WSGIMiddleware aus fastapi.middleware.wsgi", 10)
    rows.append(AlignedBlock({"de": listed}))
    assert not list(sentence_gaps(_article(rows), split_sentences, missing=True))
    rows.pop()
    assert list(sentence_gaps(_article(rows), split_sentences, missing=True))


def test_an_ordinal_written_as_a_word_is_not_lacking():
    en = (
        "When you do need to extend your site, the framework provides several official"
        " and 3rd-party community integrations that you can install with a single command."
    )
    de = "Zum Erweitern gibt es offizielle Integrationen und solche von Dritten."
    rows = _rows([*_CALIBRATION, (en, de)])
    assert not list(sentence_gaps(_article(rows), split_sentences, missing=True))
    rows = _rows([*_CALIBRATION, (en.replace("3rd-party", "3 partner"), de)])
    [(_, gap)] = list(sentence_gaps(_article(rows), split_sentences, missing=True))
    assert gap.lacks == ("3",)


def test_one_name_alone_lacking_is_no_partly_translated_sentence():
    """A translation that leaves a name implied (“the MCP server” → “it”) says as much."""
    en = (
        "You can optionally configure the local MCP server to start on launch with a flag"
        " in the configuration file of your editor."
    )
    rows = _rows([*_CALIBRATION, (en, "Sie können ihn beim Start aktivieren.")])
    assert not list(sentence_gaps(_article(rows), split_sentences, missing=True))


def test_the_translation_side_of_a_gap_is_the_half_where_the_sentence_was():
    """A paragraph split in two around a code block: the lost sentence was in the second half,
    so the translation's line is that half's, not the first one's."""
    first = (
        "Install the tool with the official guide, and then create a new project:",
        "Installieren Sie das Werkzeug laut Anleitung und erstellen Sie dann ein Projekt:",
    )
    second_en = (
        "The tool creates a virtual environment for the project by itself."
        " You do not need to create or activate one yourself."
    )
    second_de = "Das Werkzeug erstellt selbst eine virtuelle Umgebung für das Projekt."
    row = AlignedBlock(
        {"en": _para(first[0], 20), "de": _para(first[1], 20)},
        extra={"en": [_para(second_en, 30)], "de": [_para(second_de, 30)]},
    )
    rows = [*_rows(_CALIBRATION), row]
    [(_, gap)] = list(sentence_gaps(_article(rows), split_sentences, missing=True))
    assert gap.sentence.text == "You do not need to create or activate one yourself."
    assert (gap.line, gap.other.line) == (30, 30)


def test_calibration_type_is_plain_data():
    assert Calibration(1.0, 2.0, 0.1) == Calibration(1.0, 2.0, 0.1)


# -- on real pages -------------------------------------------------------------------------


def test_in_sync_corpus_stays_quiet(fastapi_run):
    """At most 2 missing-sentence warnings per 100 translation pairs on the FastAPI pages in
    sync, and as many extra-sentence findings (measured after the sentence-recall work: 4 and
    3 in 1,488 pairs; the 4 are source sentences only partly translated, judged real in
    bench/judged/sentence-recall.md)."""
    sets, _, findings = fastapi_run
    pairs = sum(len(s.versions) - 1 for s in sets)
    missing = [f for f in findings if f.rule == "missing-sentence"]
    extra = [f for f in findings if f.rule == "extra-sentence"]
    assert len(missing) * 100 <= 2 * pairs, [f.message for f in missing]
    assert len(extra) * 100 <= 2 * pairs, [f.message for f in extra]


@pytest.mark.parametrize(
    ("article", "langs", "words"),
    [
        # the year-old pages lack sentences the English pages have since gained
        ("advanced__events", ["pt"], "It's all lifespan or all events, not both."),
        ("help-fastapi", ["fr", "pt"], "You can also specify that you only want to be notified"),
        ("tutorial__response-model", ["de", "ru"], "So that even though the function returns"),
    ],
)
def test_drifted_corpus_reports_dropped_sentences(fastapi_drift_run, article, langs, words):
    findings = fastapi_drift_run[2]
    found = [
        f
        for f in findings
        if f.rule == "missing-sentence" and f.article == article and words in f.message
    ]
    assert found, [f.message for f in findings if f.article == article]
    assert set(langs) <= set(found[0].langs)
    source = next(loc for loc in found[0].locations if loc.lang == "en")
    with open(source.path, encoding="utf-8") as handle:
        line = handle.read().split("\n")[source.line - 1]
    assert words.split()[0] in line  # the sentence's own line in the source


# ---------------------------------------------------------------------------
# The first pass's shortcuts, against what they stand for


@settings(max_examples=500, deadline=None)
@given(
    st.integers(min_value=0, max_value=3000),
    st.one_of(st.integers(min_value=0, max_value=3000), st.floats(0, 5000)),
    st.floats(0.05, 1.0),
)
@example(10, 5e-324, 1.0)  # the ratio underflows to zero: infinitely far off, not an error
def test_the_room_a_pair_leaves_is_what_gap_finds_in_either_direction(length_s, expected, spread):
    missing = aligned_sentences._gap(length_s, expected, spread, missing=True)
    extra = aligned_sentences._gap(length_s, expected, spread, missing=False)
    room = aligned_sentences._room(length_s, expected, spread)
    assert room == (True if missing is not None else False if extra is not None else None)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=60))
def test_prose_lengths_count_the_prose_and_its_ascii_characters(text):
    length, ascii = aligned_sentences.prose_lengths(text)
    assert length == aligned_sentences.prose_length(text) == len(text.replace(" ", ""))
    assert ascii == sum(1 for ch in text if ch.isascii() and ch != " ")
