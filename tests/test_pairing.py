"""Robust pairing: the in-order fast path, contradicting values, stems of Latin-script
headings, description + code units and lists read into a paragraph (align/progressive.py,
align/cognates.py, align/swallowed_lists.py)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from conftest import parse_versions
from hypothesis import given, settings
from hypothesis import strategies as st

from parallelcheck.align import progressive
from parallelcheck.align.cognates import gram_likeness, heading_grams
from parallelcheck.align.progressive import _contradicting, align_article, values_by_kind
from parallelcheck.align.swallowed_lists import numbered_lines
from parallelcheck.model.document import Block, BlockKind


def _pairs(article, section: int, a: str = "en", b: str = "de"):
    """(line in a, line in b) of every block row of one aligned section (None where absent)."""
    rows = article.sections[section].rows
    return [
        (r.cells[a].line if r.cells.get(a) else None, r.cells[b].line if r.cells.get(b) else None)
        for r in rows
    ]


# ---------------------------------------------------------------------------
# Stems of Latin-script headings


def test_translated_latin_headings_share_stems_and_unrelated_ones_do_not():
    def like(a: str, b: str) -> float:
        return gram_likeness(heading_grams(a), heading_grams(b))

    assert like("Install the Server Program", "Das Serverprogramm installieren") > 0.6
    assert like("Deployment Concepts", "Konzepte des Deployments") > 0.5  # c/k, z/s folded
    assert like("Running the server", "Lancer le serveur") > 0.2
    # the right one of two candidates is the more alike
    assert like("Install the Server Program", "Das Serverprogramm installieren") > like(
        "Install the Server Program", "Das Serverprogramm ausführen"
    )
    assert like("Configuration", "Den Server ausführen") == 0.0
    assert heading_grams("A to Z") == frozenset()  # short words carry nothing


def test_a_section_one_place_off_pairs_by_heading_stems_not_by_position():
    en = (
        "# Guide\n\nIntro.\n\n## Installation\n\nInstall the package.\n\n"
        "## Configuration\n\nCopy the settings file.\n\n## Running the server\n\n"
        "Start the server in the foreground.\n\n## Troubleshooting\n\nRead the log.\n"
    )
    de = (
        "# Leitfaden\n\nEinleitung.\n\n## Installation\n\nInstallieren Sie das Paket.\n\n"
        "## Den Server ausführen\n\nStarten Sie den Server im Vordergrund.\n\n"
        "## Fehlerbehebung\n\nLesen Sie das Protokoll.\n"
    )
    article = align_article("a", parse_versions(en=en, de=de), "en")
    titles = [
        (
            s.cells["en"].title if s.cells["en"] else None,
            s.cells["de"].title if s.cells["de"] else None,
        )
        for s in article.sections[1:]
    ]
    assert ("Configuration", None) in titles
    assert ("Running the server", "Den Server ausführen") in titles
    assert ("Troubleshooting", "Fehlerbehebung") in titles


# ---------------------------------------------------------------------------
# The in-order fast path and contradicting values

EN_OPTIONS = """# Options

The `--reload` flag restarts the server whenever a source file changes.

Use `--host 0.0.0.0` to listen on every network interface of the machine.

The `--port` option picks another port, such as 9000, for the server.

Set `--workers 4` to run four worker processes behind one socket.

Logs go to standard output unless `--log-config` names a configuration file.
"""

DE_OPTIONS = """# Optionen

Das Flag `--reload` startet den Server neu, sobald sich eine Quelldatei ändert.

Mit `--host 0.0.0.0` lauscht der Server auf jeder Netzwerkschnittstelle des Rechners.

Für HTTPS geben Sie `--ssl-keyfile` und `--ssl-certfile` mit den Pfaden Ihrer Schlüssel an.

Die Option `--port` wählt einen anderen Port, etwa 9000, für den Server.

Protokolle gehen an die Standardausgabe, außer `--log-config` nennt eine Konfigurationsdatei.
"""


def test_an_added_and_a_lost_paragraph_in_an_equal_count_section_are_each_unpaired():
    article = align_article("a", parse_versions(en=EN_OPTIONS, de=DE_OPTIONS), "en")
    assert _pairs(article, 1) == [(3, 3), (5, 5), (None, 7), (7, 9), (9, None), (11, 11)]


def test_without_the_near_best_check_the_in_order_pairs_are_taken(monkeypatch):
    # What the check prevents: the neighbours one place off paired with each other.
    monkeypatch.setattr(progressive, "UNCHALLENGED", 0.0)
    monkeypatch.setattr(progressive, "CONTRADICTION", 0.0)
    article = align_article("a", parse_versions(en=EN_OPTIONS, de=DE_OPTIONS), "en")
    assert _pairs(article, 1) == [(3, 3), (5, 5), (7, 7), (9, 9), (11, 11)]


def test_versions_in_sync_keep_the_in_order_pairing():
    de = DE_OPTIONS.replace(
        "Für HTTPS geben Sie `--ssl-keyfile` und `--ssl-certfile` mit den Pfaden Ihrer "
        "Schlüssel an.\n\n",
        "",
    ).replace(
        "Protokolle",
        "Mit `--workers 4` laufen vier Arbeitsprozesse hinter einem Socket.\n\nProtokolle",
    )
    article = align_article("a", parse_versions(en=EN_OPTIONS, de=de), "en")
    assert _pairs(article, 1) == [(3, 3), (5, 5), (7, 7), (9, 9), (11, 11)]


def _contradict(a: dict[str, int], b: dict[str, int]) -> int:
    return _contradicting(values_by_kind(Counter(a)), values_by_kind(Counter(b)))


def test_contradicting_values_are_counted_by_kind():
    assert _contradict({"#30": 1, "`a": 1}, {"#35": 1, "`a": 1}) == 1  # numbers differ
    assert _contradict({"#30": 1, "`a": 1}, {"#35": 1, "`b": 1}) == 2
    assert _contradict({"#30": 1}, {"`b": 1}) == 0  # different kinds: nothing contradicts
    assert _contradict({"#30": 1, "#4": 1}, {"#30": 1, "#5": 1}) == 0  # one shared


def _contradicting_by_definition(a: Counter[str], b: Counter[str]) -> int:
    """The kinds of value (numbers, inline code, link targets) both blocks state, none alike,
    counted from the anchors themselves."""
    count = 0
    for mark in ("#", "`", "@"):
        mine = [key for key in a if key[0] == mark]
        if mine and not any(key in b for key in mine) and any(key[0] == mark for key in b):
            count += 1
    return count


_KEYS = ["#30", "#4", "`a", "`b", "@/x", "@/y", "~foo", "api", "#x", "`#30"]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_KEYS), max_size=6), st.lists(st.sampled_from(_KEYS), max_size=6))
def test_values_by_kind_contradict_as_the_anchors_do(a, b):
    mine, theirs = Counter(a), Counter(b)
    found = _contradicting(values_by_kind(mine), values_by_kind(theirs))
    assert found == _contradicting_by_definition(mine, theirs)


# ---------------------------------------------------------------------------
# Units: a description and its code

REFERENCE = Path(__file__).parent / "cases" / "code-mismatch" / "example-missing-from-reference"


def _reference_article():
    texts = {p.stem: p.read_text(encoding="utf-8") for p in sorted(REFERENCE.glob("*.md"))}
    return align_article(
        "a", parse_versions(**{k.replace("-", "_"): v for k, v in texts.items()}), "en"
    )


def test_the_example_a_translation_lacks_is_unpaired_as_a_whole():
    # ko lacks en 13 ("with more information") and its code at en 15 ("-o wide")
    expected = [(7, 7), (9, 9), (13, None), (15, None), (19, 13), (21, 15), (25, 19), (27, 21)]
    assert _pairs(_reference_article(), 2, "en", "ko")[:8] == expected


def test_without_units_the_neighbouring_description_is_taken_for_the_missing_one(monkeypatch):
    monkeypatch.setattr(progressive, "UNIT_MIN", 10**6)
    pairs = _pairs(_reference_article(), 2, "en", "ko")
    assert (13, 7) not in pairs and (19, None) in pairs  # one place off


def test_description_and_code_are_units_only_in_a_section_of_examples():
    one = "# T\n\nRun this:\n\n```shell\nmake\n```\n\nDone.\n"
    article = align_article("a", parse_versions(en=one), "en")
    features = progressive._document_features(article.documents["en"], (), "en", {})[1]
    blocks = features[id(article.documents["en"].sections[1])]
    assert all(f.partner is None for f in blocks)
    two = "# T\n\nRun this:\n\n```shell\nmake\n```\n\nThen this:\n\n```shell\nmake test\n```\n"
    doc = parse_versions(en=two)["en"]
    blocks = progressive._document_features(doc, (), "en", {})[1][id(doc.sections[1])]
    assert [f.partner is not None for f in blocks] == [True, True, True, True]
    assert blocks[0].partner() is blocks[1] and blocks[1].partner() is blocks[0]


# ---------------------------------------------------------------------------
# A list read into the paragraph before it


def test_numbered_lines_of_a_paragraph_start_from_two():
    def para(text: str) -> Block:
        return Block(BlockKind.PARAGRAPH, text, 1, text.count("\n") + 1)

    assert numbered_lines(para("Steps:\n2. two\n3) three")) == [(1, 2), (2, 3)]
    assert numbered_lines(para("Steps:\n1. one")) == []  # would have been a list
    assert numbered_lines(para("2. In 2026 we moved.")) == []  # the first line is the paragraph's
    assert numbered_lines(Block(BlockKind.LIST, "a\nb", 1, 2)) == []


def test_a_list_whose_first_item_was_deleted_is_folded_into_the_paragraph_row():
    en = "# T\n\nDo this:\n1. Clone it.\n2. Run `make`.\n3. Run `make test`.\n\nDone.\n"
    de = (
        "# T\n\nMachen Sie das:\n2. Führen Sie `make` aus.\n"
        "3. Führen Sie `make test` aus.\n\nFertig.\n"
    )
    article = align_article("a", parse_versions(en=en, de=de), "en")
    rows = article.sections[1].rows
    assert [tuple(r.present()) for r in rows] == [("en", "de"), ("en", "de")]
    assert [b.kind for b in rows[0].extra["en"]] == [BlockKind.LIST]
    assert rows[0].cells["de"].kind is BlockKind.PARAGRAPH


def test_a_paragraph_with_its_own_numbered_lines_does_not_swallow_an_unrelated_list():
    # the list of en has one item; de's paragraph holds two numbered lines: not that list
    en = "# T\n\nSee this:\n\n- one thing\n\nDone.\n"
    de = "# T\n\nSiehe:\n2. zwei\n3. drei\n\nFertig.\n"
    article = align_article("a", parse_versions(en=en, de=de), "en")
    assert not any(r.extra for r in article.sections[1].rows)


def test_leftovers_between_two_matches_are_not_paired_when_their_headings_contradict():
    en = "# G\n\nIntro.\n\n## Start\n\nStart it.\n\n## Use `uvicorn`\n\nRun it.\n\n## End\n\nBye.\n"
    de = (
        "# G\n\nIntro.\n\n## Start\n\nStarten.\n\n## `hypercorn` nutzen\n\nLos.\n\n"
        "## End\n\nTschüss.\n"
    )
    article = align_article("a", parse_versions(en=en, de=de), "en")
    present = [tuple(s.present()) for s in article.sections[1:]]
    assert ("en",) in present and ("de",) in present
    same = de.replace("`hypercorn` nutzen", "`uvicorn` nutzen")
    article = align_article("a", parse_versions(en=en, de=same), "en")
    assert all(s.present() == ["en", "de"] for s in article.sections[1:])
