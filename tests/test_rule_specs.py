"""The rule specifications: every rule declares what the engine, the configuration and the
documentation need, and adding a rule with an option needs nothing but the rule's module."""

from __future__ import annotations

import os
import re
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import REPO, parse_versions, write_article

from parallelcheck.align.progressive import align_article
from parallelcheck.config import load_config
from parallelcheck.discover.sets import discover
from parallelcheck.engine import CheckOptions
from parallelcheck.errors import InputError
from parallelcheck.model.finding import Finding
from parallelcheck.rules import REGISTRY
from parallelcheck.rules._reference import explanation, plain_text, reference_markdown
from parallelcheck.rules.base import NEEDS, TAGS, Option, OptionError, RuleContext, rule
from parallelcheck.run import workers
from parallelcheck.run.pipeline import check_all

RULE_ID = re.compile(r"^[a-z]+(-[a-z]+)*$")


@pytest.mark.parametrize("rule_id", sorted(REGISTRY))
def test_every_rule_declares_what_the_run_and_the_reference_need(rule_id):
    spec = REGISTRY[rule_id]
    assert RULE_ID.match(spec.id)
    assert spec.tags and spec.tags <= TAGS
    assert spec.needs <= NEEDS
    assert spec.summary.endswith((".", ")")) and "\n" not in spec.summary
    assert len(spec.doc.split("\n\n")) >= 2, "a summary, then what the rule compares"
    for option in spec.options.values():
        assert option.read(option.default) == option.default  # the default is a valid value
        assert option.help


def test_docs_rules_md_is_the_reference_the_specs_write():
    written = (REPO / "docs" / "rules.md").read_text(encoding="utf-8")
    assert written == reference_markdown(), (
        "docs/rules.md is out of date: run `parallelcheck rules --format markdown > docs/rules.md`"
    )


def test_plain_text_renders_the_docstring_markup_for_a_terminal():
    doc = """A block is **missing** from *some* versions.

    Read by the fence (see :mod:`parallelcheck.text.code_skeleton`): ``{* app.py *}``,
    ``*.svg`` and a `single` literal keep their stars and text; `` `"x"` `` its quotes.

    * **Script** (an *error*): characters of the other script, written the way
      every reader sees them.
    * ``vocabulary``: terms.

    Configure it in ``parallelcheck.yaml``::

        regional:
          zh-Hant: {script: true}

    Last paragraph."""
    assert plain_text(doc, width=44) == (
        "A block is missing from some versions.\n"
        "\n"
        "Read by the fence (see\n"
        "parallelcheck.text.code_skeleton): {* app.py\n"
        "*}, *.svg and a single literal keep their\n"
        'stars and text; `"x"` its quotes.\n'
        "\n"
        "- Script (an error): characters of the other\n"
        "  script, written the way every reader sees\n"
        "  them.\n"
        "- vocabulary: terms.\n"
        "\n"
        "Configure it in parallelcheck.yaml:\n"
        "\n"
        "    regional:\n"
        "      zh-Hant: {script: true}\n"
        "\n"
        "Last paragraph.\n"
    )


@pytest.mark.parametrize("rule_id", sorted(REGISTRY))
def test_explain_shows_no_markup_and_fits_the_width(rule_id):
    text = explanation(REGISTRY[rule_id], width=72)
    assert not re.search(r"``|:[a-z]+:`|\*\*", text), text
    for line in text.splitlines():
        # only a literal block, or a word that cannot be cut (a URL), may pass the width
        assert len(line) <= 72 or line.startswith("    ") or " " not in line.strip(), line
    assert text.startswith(f"{rule_id} (default severity: {REGISTRY[rule_id].severity};")


def test_explain_drops_single_backquotes_and_keeps_the_ones_inside_a_literal():
    altered = " ".join(explanation(REGISTRY["term-altered"]).split())
    assert "(Deepinfer, LM Deploy)" in altered
    tokens = " ".join(explanation(REGISTRY["token-mismatch"]).split())
    assert '(`"gzip"` = gzip, `fetch()` = fetch)' in tokens


def test_no_page_lists_a_rule_with_another_severity_or_summary():
    """A table row naming a rule id in its first cell (README or docs/) gives the registry's
    default severity; a third cell, when it is the rule's summary, is the registry's."""
    pages = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
    rows = 0
    for page in pages:
        for line in page.read_text(encoding="utf-8").splitlines():
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            rule_id = cells[0].strip("`[]").split("]")[0].strip("`") if cells else ""
            if (
                line.startswith("|")
                and rule_id in REGISTRY
                and len(cells) >= 2
                and cells[1] in ("error", "warning", "info")
            ):
                rows += 1
                assert cells[1] == REGISTRY[rule_id].severity, (page.name, line)
    assert rows >= len(REGISTRY)  # docs/rules.md lists them all


# ---------------------------------------------------------------------------
# A throwaway rule with an option: registering it is all it takes.


@pytest.fixture
def long_heading():
    """Registers ``long-heading`` for one test (as a module of ``rules/`` would) and removes it
    afterwards."""

    def at_least_one(value: object) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise OptionError("must be a whole number of at least 1")
        return value

    @rule(
        "long-heading",
        severity="warning",
        tags=("structure",),
        options={"max_words": Option(8, "the most words a heading may have", at_least_one)},
    )
    def long_heading(ctx: RuleContext) -> Iterator[Finding]:
        """A heading has more words than ``max_words``.

        Reported per version and heading, at the heading's line.
        """
        limit = ctx.options["max_words"]
        for row in ctx.article.sections:
            for lang, section in row.cells.items():
                if section is not None and len(section.title.split()) > limit:
                    yield ctx.finding(row, [lang], [], {lang: section.line}, "long heading")

    yield REGISTRY["long-heading"]
    del REGISTRY["long-heading"]


def _project(tmp_path: Path, configuration: str) -> Path:
    write_article(
        tmp_path / "articles" / "post",
        {
            "en.md": "# A short title\n\n## One two three four\n\nText.\n",
            "de.md": "# Ein Titel\n\n## Eins zwei drei\n\nText.\n",
        },
    )
    (tmp_path / "parallelcheck.yaml").write_text(textwrap.dedent(configuration), "utf-8")
    return tmp_path


def _check(project: Path) -> list[Finding]:
    config = load_config(None, cwd=str(project), known_rules=REGISTRY)
    sets = discover([str(project / "articles")], root=str(project / "articles"))
    options = CheckOptions(select=("long-heading",))
    return [f for result in check_all(sets, config, options) for f in result.findings]


def test_a_new_rule_reads_its_option_from_the_configuration(tmp_path, long_heading):
    assert _check(_project(tmp_path / "a", "rules: {}\n")) == []  # default 8
    project = _project(tmp_path / "b", "rules:\n  long-heading:\n    max_words: 2\n")
    found = _check(project)
    assert [(f.rule, f.langs, f.severity, f.locations[0].line) for f in found] == [
        ("long-heading", ("de",), "warning", 3),
        ("long-heading", ("en",), "warning", 1),
        ("long-heading", ("en",), "warning", 3),
    ]
    project = _project(tmp_path / "c", "rules:\n  long-heading: {severity: error, max_words: 3}\n")
    found = _check(project)
    assert [(f.severity, f.langs, f.locations[0].line) for f in found] == [("error", ("en",), 3)]


def test_a_new_rules_option_is_checked_with_file_and_line(tmp_path, long_heading):
    project = _project(tmp_path, "rules:\n  long-heading:\n    max_words: 0\n")
    with pytest.raises(InputError) as caught:
        _check(project)
    assert caught.value.line == 3
    assert "'rules.long-heading.max_words' must be a whole number of at least 1" in str(
        caught.value
    )
    project = _project(tmp_path / "x", "rules:\n  long-heading:\n    max_word: 3\n")
    with pytest.raises(InputError) as caught:
        _check(project)
    assert "unknown option 'max_word'" in str(caught.value)
    assert "max_words" in str(caught.value) and caught.value.line == 3


def test_a_new_rule_is_in_the_reference(long_heading):
    reference = reference_markdown()
    assert "| [`long-heading`](#long-heading) | warning | structure |" in reference
    assert "- `max_words` (default `8`): the most words a heading may have" in reference


@pytest.fixture
def prepared_heading():
    """A rule that loads a table before the run forks its workers, and reports headings
    only where the table it finds is the one its preparation loaded."""
    table: dict[str, object] = {}

    def load(langs, options):
        table.setdefault("calls", []).append((tuple(langs), options["word"], os.getpid()))

    @rule(
        "prepared-heading",
        severity="info",
        tags=("structure",),
        options={"word": Option("heading", "what a heading is called", str)},
        prepare=load,
    )
    def prepared(ctx: RuleContext) -> Iterator[Finding]:
        """Every heading, as the word the preparation was given calls it."""
        (langs, word, pid) = table["calls"][0]  # inherited from the process that forked
        for row in ctx.article.sections[1:]:
            for lang, section in row.cells.items():
                if section is not None and lang in langs and pid != os.getpid():
                    yield ctx.finding(row, [lang], [], {lang: section.line}, word)

    yield table
    del REGISTRY["prepared-heading"]


@pytest.mark.skipif(not workers.INHERIT, reason="workers are forked on Linux only")
def test_a_rule_prepares_once_and_the_workers_share_what_it_loaded(tmp_path, prepared_heading):
    for name in ("a", "b", "c", "d"):
        write_article(tmp_path / "articles" / name, {"en.md": "# T\n", "de.md": "# U\n"})
    (tmp_path / "parallelcheck.yaml").write_text(
        "rules:\n  prepared-heading: {word: title}\n", "utf-8"
    )
    config = load_config(None, cwd=str(tmp_path), known_rules=REGISTRY)
    sets = discover([str(tmp_path / "articles")], root=str(tmp_path / "articles"))
    options = CheckOptions(select=("prepared-heading",), jobs=2)
    found = [f for result in check_all(sets, config, options) for f in result.findings]
    assert [(langs, word) for langs, word, _ in prepared_heading["calls"]] == [
        (("de", "en"), "title")
    ]
    assert sorted(f.message for f in found) == ["title"] * 8


def test_link_mismatch_ignores_the_configured_targets(tmp_path):
    files = {
        "en.md": "# T\n\nSee [the logo](img/logo.svg) and [docs](https://a.example/x).\n",
        "de.md": "# T\n\nSiehe [das Logo](img/logo-de.svg) und [Doku](https://a.example/y).\n",
    }
    for name, configuration in {
        "plain": "",
        "legacy": "links:\n  ignore_targets: ['*.svg']\n",
        "option": "rules:\n  link-mismatch: {ignore_targets: ['*.svg']}\n",
    }.items():
        project = tmp_path / name
        write_article(project / "articles" / "post", files)
        (project / "parallelcheck.yaml").write_text(configuration or "{}\n", "utf-8")
        config = load_config(None, cwd=str(project), known_rules=REGISTRY)
        sets = discover([str(project / "articles")], root=str(project / "articles"))
        results = check_all(sets, config, CheckOptions(select=("link-mismatch",)))
        found = [f for result in results for f in result.findings]
        (finding,) = found
        shown = finding.message
        assert "a.example/y" in shown
        assert ("logo-de.svg" in shown) is (name == "plain"), (name, shown)


def test_findings_keep_their_place_in_the_alignment():
    """A finding about a block records the aligned section row and block row it is about, so
    a report can place it without searching by line."""
    from parallelcheck.config import Config
    from parallelcheck.run.pipeline import check_set

    for case, rule_id in (
        ("missing-paragraph/dropped-first", "missing-paragraph"),
        ("number-mismatch/changed-number", "number-mismatch"),
        ("code-mismatch/changed-code", "code-mismatch"),
    ):
        folder = REPO / "tests" / "cases" / case
        (article_set,) = discover([str(folder)], root=str(folder.parent))
        result = check_set(article_set, Config(), CheckOptions(select=(rule_id,)))
        assert result.findings, case
        for found in result.findings:
            row = result.article.sections[found.section_row].rows[found.block_row]
            for location in found.locations:
                block = row.cells[location.lang]
                if block is not None:  # a version lacking the block points at its place
                    assert block.line <= location.line <= max(block.end_line, block.line), case


# ---------------------------------------------------------------------------
# Severity by what differs, and the configured severity over it


@pytest.fixture
def graded_heading():
    """Registers ``graded-heading`` for one test: a finding per heading, an error for a
    level-1 heading and info for the others (a rule grading its findings)."""

    @rule("graded-heading", severity="warning", tags=("structure",))
    def graded_heading(ctx: RuleContext) -> Iterator[Finding]:
        """Every heading, graded by its level.

        Level 1 is an error, the others are info.
        """
        for row in ctx.article.sections:
            for lang, section in row.cells.items():
                if section is not None and section.level:
                    severity = "error" if section.level == 1 else "info"
                    yield ctx.finding(
                        row, [lang], [], {lang: section.line}, "heading", severity=severity
                    )

    yield REGISTRY["graded-heading"]
    del REGISTRY["graded-heading"]


def _graded(project: Path) -> list[tuple[str, str, int]]:
    config = load_config(None, cwd=str(project), known_rules=REGISTRY)
    sets = discover([str(project / "articles")], root=str(project / "articles"))
    found = check_all(sets, config, CheckOptions(select=("graded-heading",)))
    return [(f.severity, f.langs[0], f.locations[0].line) for r in found for f in r.findings]


def test_a_rule_grades_its_findings_unless_the_configuration_sets_a_severity(
    tmp_path, graded_heading
):
    graded = [("info", "de", 3), ("error", "de", 1), ("info", "en", 3), ("error", "en", 1)]
    assert sorted(_graded(_project(tmp_path / "a", "rules: {}\n"))) == sorted(graded)
    # naming the rule on, or with options only, keeps the rule's grading
    assert sorted(_graded(_project(tmp_path / "b", "rules: {graded-heading: on}\n"))) == sorted(
        graded
    )
    for word in ("warning", "{severity: warning}"):
        project = _project(tmp_path / f"c{len(word)}", f"rules: {{graded-heading: {word}}}\n")
        assert {severity for severity, _, _ in _graded(project)} == {"warning"}


def test_a_rule_without_grading_gives_its_default_severity(long_heading):
    documents = parse_versions(en="# A b c d e f g h i j\n\nText.\n", de="# A\n\nText.\n")
    (finding,) = REGISTRY["long-heading"].run(align_article("a", documents, "en"))
    assert finding.severity == "warning"  # the spec's, not the Finding's own default


def test_an_unknown_severity_given_by_a_rule_is_a_programming_error(graded_heading):
    documents = parse_versions(en="# T\n\nText.\n", de="# T\n\nText.\n")
    article = align_article("a", documents, "en")
    context = RuleContext(REGISTRY["graded-heading"], article, None)  # type: ignore[arg-type]
    section = article.sections[0]
    with pytest.raises(ValueError, match="unknown severity 'fatal'"):
        context.finding(section, ["de"], [], {"de": 1}, "x", severity="fatal")
