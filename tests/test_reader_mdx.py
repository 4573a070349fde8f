"""The MDX reader: ESM, expressions, JSX components as containers and facts, asides, lines."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from conftest import CORPUS, need

from parallelcheck.config import Config
from parallelcheck.engine import CheckOptions
from parallelcheck.model.article import ArticleSet
from parallelcheck.model.document import BlockKind
from parallelcheck.readers import EXTENSIONS, kind_for_path, parse_text, read_document
from parallelcheck.rules._common import describe_block
from parallelcheck.run.pipeline import check_set


def mdx(text: str):
    return parse_text(textwrap.dedent(text).lstrip("\n"), "doc.mdx", "en", "mdx")


def md(text: str):
    return parse_text(textwrap.dedent(text).lstrip("\n"), "doc.md", "en", "markdown")


def blocks(doc):
    return [block for section in doc.sections for block in section.blocks]


def walk(items):
    for block in items:
        yield block
        yield from walk(block.children)


# -- registration ------------------------------------------------------------------------------


def test_mdx_files_are_read_by_the_mdx_reader():
    assert EXTENSIONS[".mdx"] == "mdx"
    assert kind_for_path("guides/install.MDX") == "mdx"


# -- front matter, ESM, expressions -------------------------------------------------------------


def test_front_matter_and_import_lines_give_no_block():
    doc = mdx(
        """
        ---
        title: Install Astro
        ---
        import { Tabs, TabItem } from '@astrojs/starlight/components';
        import ReadMore from '~/components/ReadMore.astro';

        The CLI is the fastest way to start.
        """
    )
    assert doc.front_matter == "title: Install Astro\n"
    [paragraph] = blocks(doc)
    assert (paragraph.kind, paragraph.text, paragraph.line) == (
        BlockKind.PARAGRAPH,
        "The CLI is the fastest way to start.",
        7,
    )


def test_a_multi_line_export_is_no_block_up_to_the_blank_line():
    doc = mdx(
        """
        export const meta = {
          title: 'x',
        };

        Text.
        """
    )
    assert [(b.kind, b.text, b.line) for b in blocks(doc)] == [(BlockKind.PARAGRAPH, "Text.", 5)]


def test_comments_and_expression_lines_are_not_prose():
    doc = mdx(
        """
        {/* TODO: add a link to the reference
           once it is translated */}

        Set the option {/* see #123 */} in your config.

        {frontmatter.title}
        """
    )
    [paragraph] = blocks(doc)
    assert paragraph.text == "Set the option in your config."
    assert paragraph.line == 4


def test_an_import_line_in_a_code_fence_stays_code():
    doc = mdx(
        """
        ```js
        import { defineConfig } from 'astro/config';
        ```
        """
    )
    [code] = blocks(doc)
    assert (code.kind, code.info, code.text) == (
        BlockKind.CODE,
        "js",
        "import { defineConfig } from 'astro/config';",
    )


# -- components with children -----------------------------------------------------------------


def test_steps_around_an_ordered_list_is_a_container_of_that_list():
    doc = mdx(
        """
        Intro.

        <Steps>
        1. Create a directory.

        2. Install Astro.
        </Steps>

        After.
        """
    )
    intro, steps, after = blocks(doc)
    assert (intro.text, intro.line) == ("Intro.", 1)
    assert (steps.kind, steps.info, steps.line, steps.end_line) == (
        BlockKind.ADMONITION,
        "steps",
        3,
        7,
    )
    [listing] = steps.children
    assert listing.kind is BlockKind.LIST and listing.ordered
    assert [(item.text, item.line) for item in listing.children] == [
        ("Create a directory.", 4),
        ("Install Astro.", 6),
    ]
    assert (after.text, after.line) == ("After.", 9)


def test_tab_items_wrap_their_indented_code_fences_with_the_label_as_title():
    doc = mdx(
        """
        <Tabs>
          <TabItem label="npm">
            ```sh
            npm install astro
            ```
          </TabItem>
          <TabItem label="pnpm">
            ```sh
            pnpm add astro
            ```
          </TabItem>
        </Tabs>
        """
    )
    [tabs] = blocks(doc)
    assert (tabs.info, tabs.line, tabs.end_line) == ("tabs", 1, 12)
    assert [(t.kind, t.info, t.line, t.end_line) for t in tabs.children] == [
        (BlockKind.ADMONITION, "tabitem", 2, 6),
        (BlockKind.ADMONITION, "tabitem", 7, 11),
    ]
    first = tabs.children[0]
    assert first.text.split("\n")[0] == "npm"  # the title is the first line of the text
    [code] = first.children
    assert (code.kind, code.info, code.text, code.line) == (
        BlockKind.CODE,
        "sh",
        "npm install astro",
        3,
    )


def test_a_fence_indented_inside_a_fragment_keeps_its_unindented_code():
    doc = mdx(
        """
        <Tabs>
          <Fragment slot="jsx">
            ```jsx
            import React from 'react';
        const x = 1;
            ```
          </Fragment>
        </Tabs>
        """
    )
    [tabs] = blocks(doc)
    [fragment] = tabs.children
    [code] = fragment.children
    assert (code.kind, code.info, code.line, code.end_line) == (BlockKind.CODE, "jsx", 3, 6)
    assert "const x = 1;" in code.text


def test_code_less_indented_than_its_fence_stays_in_the_list_item_when_tabs_are_dedented():
    # Astro's pt-BR recipes: the fence at six columns inside the item, its command at four
    doc = mdx(
        """
        1. Install the packages:

            <PackageManagerTabs>
              <Fragment slot="npm">
              ```shell
            npm install reading-time
              ```
              </Fragment>
            </PackageManagerTabs>

        2. Create a plugin.
        """
    )
    [steps] = blocks(doc)
    first, second = steps.children
    [tabs] = first.children
    [code] = tabs.children[0].children
    assert (code.kind, code.line, code.text) == (BlockKind.CODE, 5, "npm install reading-time")
    assert not [b for b in walk(blocks(doc)) if b.kind is BlockKind.PARAGRAPH]
    assert second.text == "Create a plugin."


def test_fences_after_list_markers_move_with_their_items_when_a_component_is_dedented():
    # Astro's tutorial: `<details>` at four, its items at eight, their fences after the marker
    doc = mdx(
        """
        <details>
            <summary>Show the answers</summary>

                1.  ```markdown
                    title: One
                    ```

                2.  ```astro
                    import Footer from './Footer.astro'
                    ```
        </details>
        """
    )
    [details] = blocks(doc)
    [items] = details.children
    codes = [item.children[0] for item in items.children]
    assert [(c.kind, c.info, c.text) for c in codes] == [
        (BlockKind.CODE, "markdown", "title: One"),
        (BlockKind.CODE, "astro", "import Footer from './Footer.astro'"),
    ]


def test_aside_type_goes_into_info_and_its_title_into_the_text():
    doc = mdx(
        """
        <Aside type="caution" title="Heads up">
        Back up your project first.
        </Aside>
        """
    )
    [aside] = blocks(doc)
    assert (aside.kind, aside.info) == (BlockKind.ADMONITION, "aside caution")
    assert aside.text == "Heads up\nBack up your project first."
    assert [(c.kind, c.line) for c in aside.children] == [(BlockKind.PARAGRAPH, 2)]


def test_a_closing_tag_at_the_end_of_a_text_line_ends_the_component():
    doc = mdx(
        """
        <Spoiler>
        The answer is 42.</Spoiler>

        Next.
        """
    )
    spoiler, after = blocks(doc)
    assert (spoiler.info, spoiler.line, spoiler.end_line) == ("spoiler", 1, 2)
    assert after.text == "Next."


def test_details_is_a_container_titled_by_its_summary():
    doc = mdx(
        """
        <details>
        <summary>Show the code</summary>
        ```astro
        ---
        const title = "x";
        ---
        ```
        </details>
        """
    )
    [details] = blocks(doc)
    assert (details.kind, details.info, details.line, details.end_line) == (
        BlockKind.ADMONITION,
        "details",
        1,
        8,
    )
    assert details.text.split("\n")[0] == "Show the code"
    [code] = details.children
    assert (code.kind, code.info, code.line) == (BlockKind.CODE, "astro", 3)


def test_an_unclosed_component_runs_to_the_next_heading():
    doc = mdx(
        """
        <Box icon="check">
        Some text.

        ## Next
        """
    )
    [box] = doc.preamble.blocks
    assert box.info == "box" and [c.text for c in box.children] == ["Some text."]
    assert doc.sections[1].title == "Next"


# -- components without children: facts ------------------------------------------------------


def test_self_closing_components_on_their_own_lines_are_facts():
    doc = mdx(
        """
        <CardGrid>
          <LinkCard title="Basics" href="/en/basics/" description="Learn the basics" />
          <DontEditWarning />
        </CardGrid>
        """
    )
    [grid] = blocks(doc)
    [card] = grid.children  # the warning has no facts: no block
    assert (card.kind, card.line) == (BlockKind.HTML, 2)
    assert card.text == "Basics\nLearn the basics"
    assert [link.target for link in card.links] == ["/en/basics/"]


def test_a_multi_line_self_closing_component_keeps_its_first_and_last_line():
    doc = mdx(
        """
        <LinkCard
          title="Deploy"
          href="/en/guides/deploy/"
        />

        After.
        """
    )
    card, after = blocks(doc)
    assert (card.kind, card.line, card.end_line, card.text) == (BlockKind.HTML, 1, 4, "Deploy")
    assert card.links[0].line == 1
    assert after.line == 6


def test_a_component_in_running_text_gives_its_values_as_inline_code():
    doc = mdx(
        """
        **Type:** `boolean`<br />
        <Since v="4.2.0" pkg="@astrojs/mdx" />
        """
    )
    [paragraph] = blocks(doc)
    assert paragraph.kind is BlockKind.PARAGRAPH
    assert "Since" not in paragraph.text and "4.2.0" not in paragraph.text
    assert paragraph.code_spans == ["boolean", "4.2.0", "@astrojs/mdx"]


def test_a_one_line_component_with_text_is_inline():
    doc = mdx("<ReadMore>See [the guide](/en/guide/).</ReadMore>\n")
    [paragraph] = blocks(doc)
    assert (paragraph.kind, paragraph.text) == (BlockKind.PARAGRAPH, "See the guide.")
    assert [link.target for link in paragraph.links] == ["/en/guide/"]


def test_capitalised_tags_in_plain_markdown_are_not_components():
    doc = md('<Since v="4.2.0" />\n')
    assert blocks(doc) == []  # an HTML block without text or link, as before


# -- asides ------------------------------------------------------------------------------------


@pytest.mark.parametrize("read", [mdx, md])
def test_colon_asides_are_admonitions_with_their_titles(read):
    doc = read(
        """
        :::tip[Online previews]
        Try Astro in your browser.
        :::

        :::caution{title="Deprecated"}
        Do not use this.
        :::

        :::note
        Plain.
        :::
        """
    )
    tip, caution, note = blocks(doc)
    assert [(b.kind, b.info, b.line, b.end_line) for b in (tip, caution, note)] == [
        (BlockKind.ADMONITION, "tip", 1, 3),
        (BlockKind.ADMONITION, "caution", 5, 7),
        (BlockKind.ADMONITION, "note", 9, 11),
    ]
    assert tip.text == "Online previews\nTry Astro in your browser."
    assert caution.text.startswith("Deprecated\n")
    assert note.text == "Plain."


def test_an_aside_after_a_list_keeps_its_own_list():
    doc = mdx(
        """
        1. First step.
        2. Second step.

        :::note[Takeaways]
        1. Define variables.
        2. Use them.
        :::
        """
    )
    listing, note = blocks(doc)
    assert [item.text for item in listing.children] == ["First step.", "Second step."]
    assert (note.info, note.line) == ("note", 4)
    [inner] = note.children
    assert [item.line for item in inner.children] == [5, 6]


def test_a_slash_block_after_a_list_in_markdown_keeps_its_own_list():
    doc = md(
        """
        //// tab | Python 3.10+

        * `list`
        * `dict`

        ////

        //// tab | Python 3.8+

        * `List`
        * `Dict`

        ////
        """
    )
    first, second = blocks(doc)
    assert [(b.info, b.line, b.end_line) for b in (first, second)] == [
        ("tab", 1, 6),
        ("tab", 8, 13),
    ]
    assert [item.text for item in first.children[0].children] == ["list", "dict"]
    assert [item.text for item in second.children[0].children] == ["List", "Dict"]


def test_a_component_tag_deep_under_item_text_still_ends_that_text():
    doc = mdx(
        "4. Return to your project files.\n"
        '\t\t<FileTree title="Project Structure">\n'
        "\t\t- src/\n"
        "\t\t  - pages/\n"
        "\t\t</FileTree>\n"
    )
    [item] = blocks(doc)[0].children
    assert item.text.split("\n")[0] == "Return to your project files."
    [tree] = item.children
    assert (tree.info, tree.line, tree.end_line) == ("filetree", 2, 5)
    [listing] = tree.children
    assert listing.kind is BlockKind.LIST and listing.children[0].text.startswith("src/")


def test_nested_asides_close_by_colon_count():
    doc = mdx(
        """
        ::::note
        Outer.
        :::tip
        Inner.
        :::
        ::::
        """
    )
    [outer] = blocks(doc)
    assert (outer.info, outer.end_line) == ("note", 6)
    assert [(c.kind, c.info) for c in outer.children] == [
        (BlockKind.PARAGRAPH, ""),
        (BlockKind.ADMONITION, "tip"),
    ]


# -- no indented code in MDX --------------------------------------------------------------------


def test_deeply_indented_text_is_markdown_in_mdx_and_code_in_markdown():
    text = """
        1. Set the base.

            :::caution
                All links must then start with the base.
            :::
        """
    item = blocks(mdx(text))[0].children[0]
    [caution] = [b for b in walk(item.children) if b.kind is BlockKind.ADMONITION]
    [paragraph] = caution.children
    assert (paragraph.kind, paragraph.text, paragraph.line) == (
        BlockKind.PARAGRAPH,
        "All links must then start with the base.",
        4,
    )
    markdown_item = blocks(md(text))[0].children[0]
    assert BlockKind.CODE in [b.kind for b in walk(markdown_item.children)]


def test_a_fence_right_under_item_text_is_a_fence():
    doc = mdx(
        """
        5.  Check the file. For example:
                ```markdown
                ---
                title: My First Post
                ---
                ```
        """
    )
    [item] = blocks(doc)[0].children
    [code] = item.children
    assert (code.kind, code.info, code.line, code.end_line) == (BlockKind.CODE, "markdown", 2, 6)
    assert code.text == "---\ntitle: My First Post\n---"


def test_lines_stay_within_the_file_for_odd_input():
    for text in ("<Tabs>\n", "</Tabs>\n", "<Steps>\n1. a\n", "{/* open\n", "<A\n  b='x", "{{x"):
        doc = parse_text(text, "odd.mdx", "en", "mdx")
        for block in walk(blocks(doc)):
            assert 1 <= block.line <= block.end_line <= doc.line_count


# -- two versions ------------------------------------------------------------------------------


EN = """\
---
title: Install
---
import { Tabs, TabItem } from '@astrojs/starlight/components';

## Install

<Tabs>
  <TabItem label="npm">
    Run this command in your terminal to install the package with the npm client:

    ```sh
    npm install astro
    ```
  </TabItem>
</Tabs>
"""
FR = """\
---
title: Installer
---
import { Tabs, TabItem } from '@astrojs/starlight/components';

## Installer

<Tabs>
  <TabItem label="npm">
    Run this command in your terminal to install the package with the npm client:

    ```sh
    npm install astro
    ```
  </TabItem>
</Tabs>
"""


def _check(tmp_path: Path, versions: dict[str, str], select=()):
    paths = {}
    for lang, text in versions.items():
        path = tmp_path / f"{lang}.mdx"
        path.write_text(text, encoding="utf-8")
        paths[lang] = str(path)
    return check_set(ArticleSet("page", paths), Config(), CheckOptions(select=select))


def test_components_align_and_their_children_are_judged(tmp_path):
    result = _check(tmp_path, {"en": EN, "fr": FR})
    rows = [row for section in result.article.sections for row in section.rows]
    assert [
        {lang: (cell.kind, cell.info, cell.line) for lang, cell in row.cells.items()}
        for row in rows
    ] == [{"en": (BlockKind.ADMONITION, "tabs", 8), "fr": (BlockKind.ADMONITION, "tabs", 8)}]
    [finding] = [f for f in result.findings if f.rule == "untranslated"]
    assert "in the tabitem box" in finding.message
    assert [(loc.lang, loc.line) for loc in finding.locations if loc.lang == "fr"] == [("fr", 10)]
    assert not [f for f in result.findings if f.rule.startswith("missing")]


# -- the real corpus ---------------------------------------------------------------------------


def _shape(blocks_):
    return [(b.kind, b.info.split(" ")[0], _shape(b.children)) for b in blocks_]


def test_every_astro_page_reads_and_an_in_sync_translation_has_the_same_shape():
    root = need(CORPUS / "astro-docs")
    pages = sorted(root.glob("*/**/*.mdx"))
    assert len(pages) > 2000
    for page in pages:
        doc = read_document(str(page), "en")
        for block in walk(blocks(doc)):
            assert 1 <= block.line <= block.end_line <= doc.line_count, page
    en = read_document(str(root / "en" / "install-and-setup.mdx"), "en")
    fr = read_document(str(root / "fr" / "install-and-setup.mdx"), "fr")
    assert [(s.level, _shape(s.blocks)) for s in en.sections] == [
        (s.level, _shape(s.blocks)) for s in fr.sections
    ]
    assert any(b.info == "packagemanagertabs" for b in walk(blocks(en)))


def test_a_component_with_values_and_no_text_is_named_by_its_values():
    doc = mdx(
        """
        Some text.

        <Since v="14.2.0" pkg="@astrojs/cloudflare" />

        <ContributorList githubRepo="withastro/docs" />
        """
    )
    since, contributors = [b for b in blocks(doc) if b.kind is BlockKind.HTML]
    assert describe_block(since) == "html with the values “14.2.0”, “@astrojs/cloudflare”"
    assert describe_block(contributors) == "html with the value “withastro/docs”"
