"""Front matter: read once per document as keys and values (readers/front_matter.py), and
compared across versions by ``front-matter-mismatch`` (the rule cases are in
``tests/cases/front-matter-mismatch/`` and ``tests/cases/in-sync/front-matter-localised/``)."""

from __future__ import annotations

import pytest
from conftest import parse_versions

from parallelcheck.align.progressive import align_article
from parallelcheck.readers import parse_text
from parallelcheck.readers.front_matter import read_front_matter
from parallelcheck.rules import REGISTRY
from parallelcheck.rules.front_matter_mismatch import matches

RULE = REGISTRY["front-matter-mismatch"]


def _values(front_matter) -> list[tuple[str, str, int]]:
    return [(v.path, v.text, v.line) for v in front_matter.values]


# -- reading ---------------------------------------------------------------------------------


def test_yaml_values_are_flattened_with_their_file_lines():
    body = (
        "title: 'Fix CVE-2024-3094'\n"  # file line 2
        "description: >-\n"
        "  Folded text\n"
        "  on two lines.\n"
        "sidebar:\n"
        "  label: Fixes\n"
        "  order: 3\n"
        "tags: [a, b]\n"
        "empty:\n"
    )
    found = read_front_matter(body, "yaml", "en.md")
    assert not found.error
    assert _values(found) == [
        ("title", "Fix CVE-2024-3094", 2),
        ("description", "Folded text on two lines.", 3),
        ("sidebar.label", "Fixes", 7),
        ("sidebar.order", "3", 8),
        ("tags.0", "a", 9),
        ("tags.1", "b", 9),
        ("empty", "", 10),
    ]
    assert found.keys == (
        ("title", 2),
        ("description", 3),
        ("sidebar", 6),
        ("tags", 9),
        ("empty", 10),
    )
    assert (found.line, found.end_line) == (1, 11)  # the --- lines around the body


def test_toml_values_are_placed_at_their_keys_lines():
    body = 'title = "A"\nweight = 3\ndate = 2024-01-02\n\n[params]\ntoc = true\nlist = [1, 2]\n'
    found = read_front_matter(body, "toml", "en.md")
    assert not found.error
    assert _values(found) == [
        ("title", "A", 2),
        ("weight", "3", 3),
        ("date", "2024-01-02", 4),
        ("params.toc", "true", 7),
        ("params.list.0", "1", 8),
        ("params.list.1", "2", 8),
    ]
    assert found.key_lines() == {"title": 2, "weight": 3, "date": 4, "params": 6}


@pytest.mark.parametrize(
    ("body", "syntax", "line", "words"),
    [
        ('title: "open quote\nweight: 3\n', "yaml", 2, "in a quoted value that starts"),
        ("title: [a, b\nweight: 3\n", "yaml", 2, "in a flow list that starts"),
        ("title: x\n\tweight: 3\n", "yaml", 3, "tab"),
        ("title: Tutorial: part 1\n", "yaml", 2, "a value holding “: ” must be put in quotes"),
        ("title: x\nnext: \x07\n", "yaml", 3, "U+0007 (BEL)"),
        ("- a list\n- not keys\n", "yaml", 2, "not a mapping of keys"),
        ("a: " + "[" * 200 + "]" * 200 + "\n", "yaml", 2, "nested more than"),
        ('title = "open\nweight = 3\n', "toml", 2, "invalid TOML"),
        ("title = 1\ntitle = 2\n", "toml", 3, "invalid TOML"),
        ("a = " + "[" * 5000 + "]" * 5000 + "\n", "toml", 2, "nested too deeply"),
    ],
)
def test_a_block_that_cannot_be_read_gives_its_fault_and_line_not_an_exception(
    body, syntax, line, words
):
    found = read_front_matter(body, syntax, "ja.md")
    assert words in found.error
    assert found.error_line == line
    assert found.values == () and found.keys == ()


def test_an_alias_bomb_is_refused_as_a_fault():
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]" for i in range(1, 8)]
    found = read_front_matter("\n".join(lines) + "\n", "yaml", "ja.md")
    assert "too large" in found.error


def test_documents_carry_their_front_matter_read_once_by_the_reader():
    markdown = parse_text("---\ntitle: T\nweight: 2\n---\n\n# T\n", "en.md", "en", "markdown")
    assert _values(markdown.front_matter_data) == [("title", "T", 2), ("weight", "2", 3)]
    toml = parse_text('+++\ntitle = "T"\n+++\n\n# T\n', "en.md", "en", "markdown")
    assert toml.front_matter_data.syntax == "toml"
    mdx = parse_text("---\ntitle: T\n---\n\nimport X from './x';\n\n# T\n", "en.mdx", "en", "mdx")
    assert _values(mdx.front_matter_data) == [("title", "T", 2)]
    plain = parse_text("# T\n\nText.\n", "en.md", "en", "markdown")
    assert plain.front_matter is None and plain.front_matter_data is None
    # a thematic break, then text: no metadata block
    ruled = parse_text("---\n\nText after a rule.\n---\n", "en.md", "en", "markdown")
    assert ruled.front_matter_data is None


def test_key_patterns_name_a_key_at_any_depth_or_a_whole_path():
    assert matches("title", ("title",)) and matches("hero.title", ("title",))
    assert matches("head.0.content", ("content",))  # a list index is not a key
    assert matches("sidebar.label", ("sidebar.label",))
    assert not matches("label", ("sidebar.label",))
    assert matches("min-kubernetes-server-version", ("*version",))
    assert not matches("Title", ("title",))  # keys are case-sensitive


# -- comparing -------------------------------------------------------------------------------


def _findings(options=None, **texts):
    article = align_article("a", parse_versions(**texts), "en")
    return list(RULE.run(article, options=options))


def _page(front: str, body: str = "# Heading\n\nText.\n") -> str:
    return f"---\n{front}---\n\n{body}"


def test_translated_prose_is_no_finding_but_a_lost_or_changed_fact_is_an_error():
    en = _page("title: Upgrade to v2.4 before 2025-06-30\n")
    assert _findings(en=en, ja=_page("title: 2025年6月30日までに v2.4 に更新する\n")) == []
    (lost,) = _findings(en=en, ja=_page("title: v2.4 に更新する\n"))
    assert lost.severity == "error" and lost.langs == ("ja",)
    assert "ja lacks “2025-06-30”" in lost.message
    (changed,) = _findings(en=en, ja=_page("title: 2025年6月30日までに v2.5 に更新する\n"))
    assert "ja writes “v2.5” where en writes “v2.4”" in changed.message
    assert {loc.lang: loc.line for loc in changed.locations} == {"en": 2, "ja": 2}
    assert changed.evidence == {
        "kind": "facts",
        "key": "title",
        "extra": ["v2.5"],
        "missing": ["v2.4"],
    }


def test_what_a_translation_may_write_otherwise_in_prose_is_no_finding():
    en = _page(
        "title: Two ways to add i18n to Astro v4\n"
        "description: See [the guide](/en/guides/routing/) first.\n"
    )
    ja = _page(
        "title: Astro v4.0 に国際化を追加する方法\n"  # count dropped; i18n spelled out; v4.0
        "description: まず[ガイド](/ja/guides/routing/)をご覧ください。\n"  # a localised link
    )
    assert _findings(en=en, ja=ja) == []
    # a count in digits in place of another is reported
    ja = ja.replace("Astro v4.0 に国際化を追加する方法", "Astro v4 に i18n を追加する 3 つの方法")
    (count,) = _findings(en=en, ja=ja)
    assert "“3”" in count.message and "“Two”" in count.message


def test_structural_keys_are_compared_for_equality_and_the_lists_are_options():
    en = _page("layout: post\nweight: 3\nurl: /docs/x/\nproduct: DeepInfer\n")
    ja = _page("layout: page\nweight: 3\nurl: /ja/docs/x\nproduct: ディープインファー\n")
    (layout,) = _findings(en=en, ja=ja)
    assert layout.severity == "error" and layout.evidence["key"] == "layout"
    assert "ja writes “page” where en writes “post”" in layout.message
    options = {
        "structural_keys": ("product",),
        "prose_keys": RULE.options["prose_keys"].default,
    }
    (product,) = _findings(options, en=en, ja=ja)
    assert product.evidence["key"] == "product"  # layout is no longer compared


def test_a_key_left_out_is_a_warning_at_the_line_where_it_belongs():
    en = _page("title: A\nweight: 3\ndate: 2024-01-02\nreviewers: [x]\n")
    ja = _page("title: B\ndate: 2024-01-02\n")
    (missing,) = _findings(en=en, ja=ja)  # reviewers is not compared
    assert missing.severity == "warning"
    assert missing.evidence == {"kind": "missing", "key": "weight"}
    assert {loc.lang: loc.line for loc in missing.locations} == {"en": 3, "ja": 3}  # before date
    # nested keys left out are not reported; a key only the translation has is not either
    en = _page("title: A\nsidebar:\n  label: A\n  order: 2\n")
    assert _findings(en=en, ja=_page("title: B\nsidebar:\n  order: 2\nslug: b\n")) == []
    # nor is an empty value left out; a key written twice is compared once, by its last value
    en = _page("title: A 1.2\ndescription:\ntitle: A 1.3\n")
    (changed,) = _findings(en=en, ja=_page("title: B 1.2\n"))
    assert changed.evidence["missing"] == ["1.3"]


def test_versions_differing_the_same_way_form_one_finding():
    en = _page("weight: 3\n")
    found = _findings(en=en, ja=_page("weight: 4\n"), ko=_page("weight: 4\n"), de=en)
    assert [(f.langs, f.reference_langs) for f in found] == [(("ja", "ko"), ("en", "de"))]


def test_a_broken_front_matter_is_reported_and_the_others_are_still_compared():
    en = _page("title: Patch 1.2.3\nweight: 3\n")
    found = _findings(en=en, ja=_page('title: "1.2.3\nweight: 3\n'), ko=_page("weight: 4\n"))
    assert [(f.langs, f.evidence["kind"], f.severity) for f in found] == [
        (("ja",), "unreadable", "error"),
        (("ko",), "missing", "warning"),  # the title
        (("ko",), "value", "error"),
    ]
    assert found[0].locations[0].line == 2


def test_the_fastapi_corpus_gives_no_front_matter_finding(fastapi_run):
    _sets, _results, findings = fastapi_run
    assert not [f for f in findings if f.rule == "front-matter-mismatch"]
