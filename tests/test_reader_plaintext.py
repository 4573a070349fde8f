"""The plain-text reader: inferred headings, lists, tables and paragraphs; the seed article."""

from __future__ import annotations

from pathlib import Path

import pytest

from parallelcheck.model.document import BlockKind, Directive
from parallelcheck.readers import parse_text, read_document
from parallelcheck.readers.plaintext import display_width, is_heading_like, is_question_like

SEEDS = Path("/work/shared/seeds")
SEED_FILES = {
    "en": "000_acf75c2cd110725b.txt",
    "zh-Hant": "001_61dfab4233348671.txt",
    "ja": "002_48051570feed81d2.txt",
    "ko": "004_259e56fef89c489f.txt",
}


def txt(text: str):
    return parse_text(text, "doc.txt", "en", "plaintext")


def outline(document):
    """(level, block kinds with list sizes / table shapes) per section."""
    shape = []
    for section in document.sections:
        blocks = []
        for block in section.blocks:
            if block.kind is BlockKind.LIST:
                blocks.append(f"list{len(block.children)}")
            elif block.kind is BlockKind.TABLE:
                blocks.append(f"table{block.body_rows}x{block.columns}")
            else:
                blocks.append(block.kind.value)
        shape.append((section.level, blocks))
    return shape


# -- the seed article --------------------------------------------------------------------------

P = "paragraph"

EN_OUTLINE = [
    (0, []),
    (1, [P]),  # title
    (2, [P, P]),  # The short answer
    (2, []),  # What each one is
    (2, [P, P]),  # DeepInfer
    (2, [P, P]),  # LMDeploy
    (2, [P]),  # Head-to-head: scope, not speed
    (2, ["list4"]),  # Where DeepInfer wins
    (2, ["list5"]),  # Where LMDeploy wins
    (2, [P, P, P]),  # The benchmark trap
    (2, []),  # Decision guide
    (2, []),  # FAQ
    (2, ["list5", P]),  # Sources + "Next: …"
]

CJK_OUTLINE = [
    (0, []),
    (1, [P, P]),  # title + extra lede
    (2, [P, P]),
    (2, []),
    (2, [P, P]),
    (2, [P, P]),
    (2, ["table9x3", P]),  # head-to-head: table before the 來源 / 출처 paragraph
    (2, ["list4"]),
    (2, ["list5"]),
    (2, [P, P, P, P]),  # benchmark trap + extra paragraph
    (2, ["table5x3"]),  # decision guide
    (2, []),  # FAQ
    (3, [P]),
    (3, [P]),
    (3, [P]),
    (3, [P]),
    (2, ["list5", P]),  # sources + next
]


def _seed(lang: str):
    path = SEEDS / SEED_FILES[lang]
    if not path.is_file():
        pytest.skip(f"seed article not available: {path} is absent")
    return read_document(str(path), lang)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_seed_en_and_ja_structure(lang):
    assert outline(_seed(lang)) == EN_OUTLINE


@pytest.mark.parametrize("lang", ["zh-Hant", "ko"])
def test_seed_zh_hant_and_ko_structure(lang):
    assert outline(_seed(lang)) == CJK_OUTLINE


def test_seed_en_titles_and_lines():
    doc = _seed("en")
    assert [(s.title, s.line) for s in doc.sections[1:]] == [
        ("DeepInfer vs LMDeploy: DeepSeek V4.1-Flash Serving Compared", 1),
        ("The short answer", 5),
        ("What each one is", 11),
        ("DeepInfer", 13),
        ("LMDeploy", 19),
        ("Head-to-head: scope, not speed", 25),
        ("Where DeepInfer wins", 29),
        ("Where LMDeploy wins", 36),
        ("The benchmark trap", 44),
        ("Decision guide", 52),
        ("FAQ", 54),
        ("Sources", 56),
    ]
    assert doc.line_count == 64
    sources = doc.sections[-1]
    assert sources.blocks[1].text == "Next: DeepInfer vs TGI, vs Xinference, or the comparison hub."
    wins = doc.sections[7].blocks[0]
    assert [item.line for item in wins.children] == [31, 32, 33, 34]
    assert wins.children[0].text.startswith("V4.1-Flash is the design target.")


def test_seed_zh_hant_tables_faq_and_lines():
    doc = _seed("zh-Hant")
    head_to_head = doc.sections[6]
    assert head_to_head.title == "同場對比：比範圍，不比速度"
    table, sources = head_to_head.blocks
    assert (table.line, table.end_line, table.header) == (15, 25, True)
    assert table.rows[0] == ["面向", "DeepInfer", "LMDeploy"]
    assert table.rows[-1][0] == "最適合"
    assert sources.line == 26 and sources.text.startswith("來源：")
    faq = doc.sections[11]
    assert (faq.title, faq.level) == ("常見問題", 2)
    questions = doc.sections[12:16]
    assert [q.line for q in questions] == [52, 54, 56, 58]
    assert questions[0].title == "DeepInfer 比 LMDeploy 快嗎？"
    assert [q.blocks[0].line for q in questions] == [53, 55, 57, 59]


def test_seed_ko_questions_are_level_three():
    doc = _seed("ko")
    assert [(s.title, s.level) for s in doc.sections if s.title.endswith("?")] == [
        ("DeepInfer가 LMDeploy보다 빠른가요?", 3),
        ("LMDeploy가 DeepSeek-V4.1-Flash를 지원하나요?", 3),
        ("LMDeploy가 Huawei Ascend를 지원하나요?", 3),
        ("어느 쪽을 골라야 하나요?", 3),
    ]


# -- headings ----------------------------------------------------------------------------------


def test_display_width_counts_wide_characters_twice():
    assert display_width("abc") == 3
    assert display_width("日本語") == 6
    assert display_width("한국어 ok") == 9
    assert display_width("ｶ") == 1  # half-width katakana


def test_heading_like_rules():
    assert is_heading_like("Decision guide")
    assert is_heading_like("同場對比：比範圍，不比速度")  # colon inside is fine
    assert not is_heading_like("A sentence.")
    assert not is_heading_like("結論です。")
    assert not is_heading_like("Note:")
    assert not is_heading_like("He said “done.”")  # punctuation before a closing quote
    assert not is_heading_like("Is it fast?")
    assert not is_heading_like(" ".join(["word"] * 15))  # too many words
    assert not is_heading_like("長" * 46)  # 92 columns
    assert is_question_like("Is it fast?") and is_question_like("速いですか？")


def test_blank_line_separated_file_joins_lines_and_infers_headings():
    doc = txt(
        "My Title\n"
        "\n"
        "First paragraph line one\n"
        "continues here.\n"
        "\n"
        "Section Two\n"
        "\n"
        "Body of section two.\n"
    )
    assert [(s.level, s.title, s.line) for s in doc.sections] == [
        (0, "", 1),
        (1, "My Title", 1),
        (2, "Section Two", 6),
    ]
    (paragraph,) = doc.sections[1].blocks
    assert paragraph.text == "First paragraph line one\ncontinues here."
    assert (paragraph.line, paragraph.end_line) == (3, 4)


def test_one_paragraph_per_line_without_blank_lines():
    doc = txt("Title here\nFirst sentence.\nSecond sentence.\nSub heading\nThird one.\n")
    assert [s.title for s in doc.sections] == ["", "Title here", "Sub heading"]
    assert [b.text for b in doc.sections[1].blocks] == ["First sentence.", "Second sentence."]
    assert doc.sections[2].blocks[0].line == 5


def test_short_lines_at_the_end_are_paragraphs_not_headings():
    doc = txt("Intro sentence that is body.\n\nThanks\n\nBye now\n")
    assert len(doc.sections) == 1
    assert [b.text for b in doc.preamble.blocks] == [
        "Intro sentence that is body.",
        "Thanks",
        "Bye now",
    ]


def test_run_of_short_lines_before_a_list_are_all_headings():
    doc = txt("Title\n\nBody.\n\nGuide\n\nFAQ\n\nSources\n\n• one\n• two\n")
    assert [(s.title, s.level) for s in doc.sections[1:]] == [
        ("Title", 1),
        ("Guide", 2),
        ("FAQ", 2),
        ("Sources", 2),
    ]
    assert doc.sections[-1].blocks[0].kind is BlockKind.LIST


def test_question_heading_needs_a_longer_answer():
    doc = txt("FAQ\nIs it fast?\nNobody has measured it on the same hardware yet.\nWhy?\nNo.\n")
    assert [(s.title, s.level) for s in doc.sections[1:]] == [("FAQ", 1), ("Is it fast?", 2)]
    assert [b.text for b in doc.sections[2].blocks] == [
        "Nobody has measured it on the same hardware yet.",
        "Why?",
        "No.",
    ]


def test_question_level_follows_the_nearest_plain_heading():
    doc = txt("Title\nIntro text.\nFAQ\nQuestion one?\nA longer answer to it.\n")
    assert [(s.title, s.level) for s in doc.sections[1:]] == [
        ("Title", 1),
        ("FAQ", 2),
        ("Question one?", 3),
    ]


# -- lists and tables --------------------------------------------------------------------------


@pytest.mark.parametrize("bullet", ["• ", "- ", "* ", "・", "・ "])
def test_bullets_make_one_list(bullet):
    doc = txt(f"Intro.\n{bullet}alpha\n{bullet}beta\n{bullet}gamma\nAfter.\n")
    _intro, block, after = doc.preamble.blocks
    assert block.kind is BlockKind.LIST and not block.ordered
    assert [(i.kind, i.text, i.line) for i in block.children] == [
        (BlockKind.ITEM, "alpha", 2),
        (BlockKind.ITEM, "beta", 3),
        (BlockKind.ITEM, "gamma", 4),
    ]
    assert (block.line, block.end_line) == (2, 4)
    assert after.line == 5


def test_ordered_list_and_change_of_kind():
    doc = txt("1. first\n2) second\n- other\n")
    numbered, bulleted = doc.preamble.blocks
    assert numbered.ordered and [i.text for i in numbered.children] == ["first", "second"]
    assert not bulleted.ordered and len(bulleted.children) == 1


def test_blank_lines_between_items_keep_one_list():
    doc = txt("Intro.\n\n• a\n\n• b\n\nEnd.\n")
    assert [len(b.children) for b in doc.preamble.blocks if b.kind is BlockKind.LIST] == [2]


def test_wrapped_item_continues_in_blank_line_mode():
    doc = txt("Intro.\n\n• a first item\n  that wraps\n• b\n\nEnd.\n")
    items = doc.preamble.blocks[1].children
    assert items[0].text == "a first item\nthat wraps"
    assert (items[0].line, items[0].end_line) == (3, 4)


def test_pipe_table_with_header():
    doc = txt("Compare\n| a | b |\n|---|:-:|\n| 1 | 2 |\n| 3 | x \\| y |\nDone.\n")
    table = doc.sections[1].blocks[0]
    assert table.kind is BlockKind.TABLE
    assert table.rows == [["a", "b"], ["1", "2"], ["3", "x | y"]]
    assert table.header
    assert (table.line, table.end_line) == (2, 5)
    assert table.text == "a\tb\n1\t2\n3\tx | y"


def test_pipe_table_without_separator_has_no_header():
    table = txt("| a | b |\n| 1 | 2 |\n").preamble.blocks[0]
    assert table.rows == [["a", "b"], ["1", "2"]] and not table.header


# -- other -------------------------------------------------------------------------------------


def test_bare_urls_are_links():
    block = txt("See https://example.com/docs, then (https://b.example).\n").preamble.blocks[0]
    assert [(link.target, link.line) for link in block.links] == [
        ("https://example.com/docs", 1),
        ("https://b.example", 1),
    ]


def test_suppression_comment_lines_are_directives_not_blocks():
    doc = txt("<!-- parallelcheck-disable untranslated -->\nOne sentence.\n")
    assert doc.directives == [Directive("disable", ("untranslated",), 1)]
    assert [b.text for b in doc.preamble.blocks] == ["One sentence."]


def test_separator_lines_are_ignored():
    assert [b.text for b in txt("One.\n-----\nTwo.\n").preamble.blocks] == ["One.", "Two."]


def test_line_count_and_crlf():
    doc = parse_text("Title\r\n\r\nBody text.\r\n", "a.txt", "en", "plaintext")
    assert doc.line_count == 3
    assert doc.sections[1].title == "Title" and doc.sections[1].blocks[0].line == 3
