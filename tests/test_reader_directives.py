"""Template directives in every reader: Hugo shortcodes, Liquid / Jinja, MkDocs includes."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from parallelcheck.config import Config
from parallelcheck.engine import CheckOptions
from parallelcheck.model.article import ArticleSet
from parallelcheck.model.document import BlockKind
from parallelcheck.readers import parse_text
from parallelcheck.readers.directives import (
    ANY,
    _normalise_one,
    normalise,
    only_directives,
    shorten,
)
from parallelcheck.run.pipeline import check_set


def md(text: str, kind: str = "markdown"):
    return parse_text(textwrap.dedent(text).lstrip("\n"), f"doc.{kind}", "en", kind)


def blocks(doc):
    return [block for section in doc.sections for block in section.blocks]


# -- the directives module ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("{*  ../../docs_src/a.py   hl[3]  *}", "{* ../../docs_src/a.py hl[3] *}"),
        ("{* a.py ln[1:5] hl[3, 4] *}", "{* a.py hl[3,4] ln[1:5] *}"),
        ("--8<-- 'a.md'", '--8<-- "a.md"'),
        ("{!docs/x.md!}", "{! docs/x.md !}"),
        ('{{<note title = "A">}}', '{{% note title="A" %}}'),
        ("{%- include 'x.html' -%}", '{%- include "x.html" -%}'),
    ],
)
def test_two_spellings_of_one_directive_normalise_alike(one, other):
    assert normalise(one) == normalise(other)


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("{* a.py hl[3] *}", "{* a.py hl[4] *}"),
        ("{* a.py hl[3] *}", "{* b.py hl[3] *}"),
        ('--8<-- "a.md"', '--8<-- "b.md"'),
        ('{{< codenew file="a.yaml" >}}', '{{< code_sample file="a.yaml" >}}'),
    ],
)
def test_a_changed_target_or_range_normalises_differently(one, other):
    assert normalise(one) != normalise(other)


def test_only_directives_and_the_short_form():
    assert only_directives('{{< include "x.md" >}} {{< version-check >}}')
    assert only_directives("{% raw %}")
    assert not only_directives("{not a directive}")
    assert not only_directives("See {{ site.url }}/about.")
    text, spans = shorten(
        'In the {{< glossary_tooltip text="annotation" term_id="annotation" >}}, see '
        "[x]({% link _posts/x.md %}) or {{ site.url | relative_url }}/about."
    )
    assert text == "In the {{< glossary_tooltip >}}, see [x]({% link %}) or {{ site.url }}/about."
    assert spans == ["{{< glossary_tooltip >}}", "{% link %}", "{{ site.url }}"]


# -- directive-only blocks ---------------------------------------------------------------------


def test_a_paragraph_of_shortcodes_is_a_directive_code_block():
    doc = md(
        """
        Intro.

        {{< include "task-tutorial-prereqs.md" >}}   {{< version-check >}}

        {% raw %}
        """
    )
    intro, shortcodes, raw = blocks(doc)
    assert intro.kind is BlockKind.PARAGRAPH
    assert (shortcodes.kind, shortcodes.info, shortcodes.line) == (BlockKind.CODE, "directive", 3)
    assert shortcodes.text == '{{< include "task-tutorial-prereqs.md" >}} {{< version-check >}}'
    assert (raw.kind, raw.info, raw.text, raw.line) == (BlockKind.CODE, "directive", "{% raw %}", 5)


@pytest.mark.parametrize(
    ("line", "text"),
    [
        ("{! docs/snippet.md !}", "{! docs/snippet.md !}"),
        ("--8<-- 'docs/snippet.md'", '--8<-- "docs/snippet.md"'),
        ("{*  ../../docs_src/a.py   hl[3]  *}", "{* ../../docs_src/a.py hl[3] *}"),
    ],
)
def test_line_includes_stand_alone_under_paragraph_text(line, text):
    doc = md(f"Some text:\n{line}\nMore text.\n")
    before, include, after = blocks(doc)
    assert (before.text, after.text) == ("Some text:", "More text.")
    assert (include.kind, include.info, include.text, include.line) == (
        BlockKind.CODE,
        "include",
        text,
        2,
    )


def test_a_snippet_block_is_one_include():
    doc = md(
        """
        --8<--
        docs/a.md
        docs/b.md
        --8<--
        """
    )
    [include] = blocks(doc)
    assert (include.kind, include.info, include.line, include.end_line) == (
        BlockKind.CODE,
        "include",
        1,
        4,
    )
    assert include.text == "--8<--\ndocs/a.md\ndocs/b.md\n--8<--"


def test_a_directive_in_fenced_code_stays_code():
    doc = md(
        """
        ```jinja
        {% raw %}{{ id }}{% endraw %}
        ```
        """
    )
    [code] = blocks(doc)
    assert (code.kind, code.info) == (BlockKind.CODE, "jinja")
    assert code.text == "{% raw %}{{ id }}{% endraw %}"


def test_a_plain_text_paragraph_of_directives_is_code_and_no_heading():
    doc = md(
        """
        Title of the page

        {{< feature-state for_k8s_version="v1.24" state="stable" >}}

        The pod index is in the {{< glossary_tooltip text="annotation" term_id="x" >}} here.
        """,
        kind="txt",
    )
    shortcode, paragraph = blocks(doc)
    assert [s.title for s in doc.sections[1:]] == ["Title of the page"]
    assert (shortcode.kind, shortcode.info, shortcode.line) == (BlockKind.CODE, "directive", 3)
    assert paragraph.text == "The pod index is in the {{< glossary_tooltip >}} here."
    assert paragraph.code_spans == ["{{< glossary_tooltip >}}"]


# -- containers and code ---------------------------------------------------------------------


def test_paired_shortcodes_are_containers():
    doc = md(
        """
        Text before.
        {{< caution >}}
        Liveness probes must be configured carefully.
        {{< /caution >}}

        {{< tabs name="os" >}}
        {{% tab name="Linux" %}}
        Use the package manager.
        {{% /tab %}}
        {{< /tabs >}}
        """
    )
    before, caution, tabs = blocks(doc)
    assert before.text == "Text before."
    assert (caution.kind, caution.info, caution.line, caution.end_line) == (
        BlockKind.ADMONITION,
        "caution",
        2,
        4,
    )
    assert [c.text for c in caution.children] == ["Liveness probes must be configured carefully."]
    assert (tabs.info, tabs.line, tabs.end_line) == ("tabs", 6, 10)
    [tab] = tabs.children
    assert (tab.info, tab.line, tab.text) == ("tab", 7, "Linux\nUse the package manager.")


def test_highlight_blocks_are_fenced_code_and_liquid_comments_are_hidden():
    doc = md(
        """
        {% highlight ruby %}
        def foo
          puts 'foo'
        end
        {% endhighlight %}

        {{< highlight go "linenos=table" >}}
        fmt.Println("hi")
        {{< /highlight >}}

        {% comment %}
        Not shown to readers.
        {% endcomment %}
        """
    )
    ruby, go = blocks(doc)
    assert (ruby.kind, ruby.info, ruby.line, ruby.end_line) == (BlockKind.CODE, "ruby", 1, 5)
    assert ruby.text == "def foo\n  puts 'foo'\nend"
    assert (go.kind, go.info, go.text, go.line) == (BlockKind.CODE, "go", 'fmt.Println("hi")', 7)


# -- directives in running text ------------------------------------------------------------


def test_inline_directives_are_shortened_in_blocks_and_headings():
    doc = md(
        """
        ## {{% heading "prerequisites" %}}

        Set `x` in the {{< glossary_tooltip text="annotation" term_id="annotation" >}}.
        """
    )
    section = doc.sections[1]
    assert section.title == "{{% heading %}}"
    assert section.code_spans == []  # a heading's directive is no fact of it
    [paragraph] = section.blocks
    assert paragraph.text == "Set x in the {{< glossary_tooltip >}}."
    assert paragraph.code_spans == ["x", "{{< glossary_tooltip >}}"]


def test_a_directive_in_inline_code_is_left_alone():
    doc = md("Write `{{< skew currentVersion >}}` in the page.\n")
    [paragraph] = blocks(doc)
    assert paragraph.text == "Write {{< skew currentVersion >}} in the page."
    assert paragraph.code_spans == ["{{< skew currentVersion >}}"]


# -- two versions through the rules -----------------------------------------------------------


def _check(tmp_path: Path, versions: dict[str, str], select: tuple[str, ...]):
    paths = {}
    tmp_path.mkdir(parents=True, exist_ok=True)
    for lang, text in versions.items():
        path = tmp_path / f"{lang}.md"
        path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
        paths[lang] = str(path)
    result = check_set(ArticleSet("page", paths), Config(), CheckOptions(select=select))
    return result.findings


def test_a_block_of_directives_is_never_untranslated(tmp_path):
    findings = _check(
        tmp_path,
        {
            "en": """
                # Jobs

                {{< feature-state for_k8s_version="v1.24" state="stable" >}}

                {{% codenew language="yaml" file="application/job/indexed-job.yaml" %}}

                This paragraph explains how indexed jobs hand out their completion indexes.
                """,
            "ko": """
                # 잡

                {{< feature-state for_k8s_version="v1.24" state="stable" >}}

                {{% codenew language="yaml" file="application/job/indexed-job.yaml" %}}

                This paragraph explains how indexed jobs hand out their completion indexes.
                """,
        },
        ("untranslated",),
    )
    # the English paragraph left in ko is reported; the two directive blocks are not
    assert [(f.rule, [loc.line for loc in f.locations if loc.lang == "ko"]) for f in findings] == [
        ("untranslated", [7])
    ]


def test_directive_arguments_give_no_token_or_number_findings(tmp_path):
    findings = _check(
        tmp_path,
        {
            "en": """
                # Posts

                Read [the launch post]({% link _posts/2024-05-01-launch.md %}) in the
                {{< glossary_tooltip text="annotation" term_id="annotation" >}} section.
                """,
            "ja": """
                # 投稿

                [公開の記事]({% link _posts/2024-05-01-launch.ja.md %})を
                {{< glossary_tooltip text="注釈" term_id="annotation" >}}の節で読んでください。
                """,
        },
        ("token-mismatch", "number-mismatch", "untranslated"),
    )
    assert findings == []


def test_include_spellings_are_equal_and_a_changed_range_is_a_code_mismatch(tmp_path):
    en = """
        # Title

        {* ../../docs_src/a.py hl[3] *}

        --8<-- "snippets/a.md"
        """
    same = """
        # タイトル

        {*  ../../docs_src/a.py   hl[3]  *}

        --8<-- 'snippets/a.md'
        """
    changed = """
        # タイトル

        {* ../../docs_src/a.py hl[4] *}

        --8<-- "snippets/b.md"
        """
    assert _check(tmp_path / "same", {"en": en, "ja": same}, ("code-mismatch",)) == []
    findings = _check(tmp_path / "changed", {"en": en, "ja": changed}, ("code-mismatch",))
    assert sorted([loc.line for loc in f.locations if loc.lang == "ja"] for f in findings) == [
        [3],
        [5],
    ]
    assert all(f.rule == "code-mismatch" for f in findings)
    assert any("hl[4]" in f.message for f in findings)
    assert any("b.md" in f.message for f in findings)


def test_the_html_reader_reads_directives_like_the_markdown_reader() -> None:
    html = (
        "<h1>T</h1><p>{{< note >}}</p>"
        "<p>See {% link _posts/x.md %} and {{ site.url | relative_url }}/a.</p>"
        "<p>{%  include   footer.html %}</p>"
    )
    blocks = parse_text(html, "a.html", "en", "html").sections[-1].blocks
    assert [(b.kind, b.info) for b in blocks] == [
        (BlockKind.CODE, "directive"),
        (BlockKind.PARAGRAPH, ""),
        (BlockKind.CODE, "directive"),
    ]
    assert blocks[1].text == "See {% link %} and {{ site.url }}/a."
    assert blocks[1].code_spans == ["{% link %}", "{{ site.url }}"]
    assert blocks[2].text == "{% include footer.html %}"  # normalised spacing


@pytest.mark.parametrize(
    "text",
    [
        "{* ../../docs_src/app.py hl[3:5,8] *}",
        "  {* ../../docs_src/app.py   ln[1]  hl[2] *}\n",
        "{! ../../docs/en/docs/snippet.md !}",
        "{**}",
        "{*}",
        "{* a *} {* b *}",
        "{* a *}*}",
        "{! a !} {{< note >}}",
        "{* a.py hl[1] *}\n{* b.py *}",
        "{*\nspans lines.py\n*}",
        "{* x.py title='T' *}",
        "{! {{ variable }} !}",
    ],
)
def test_one_whole_include_normalises_as_the_directives_found_in_it(text: str) -> None:
    """The shortcut for a text that is one include (``{* … *}`` / ``{! … !}``) gives what
    normalising every directive ANY finds in it gives."""
    stripped = text.strip()
    full = " ".join(_normalise_one(match.group(0)) for match in ANY.finditer(stripped))
    assert normalise(text) == full
