"""The sarif, github, markdown and html output formats, on the user's article and on a small
article set full of hostile markup.

The helpers at the top (reports built by the real engine, a tiny DOM built with html.parser)
are shared with ``test_report_html_browser.py``.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import re
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

import jsonschema
import pytest
from conftest import REPO, SHARED, need

from parallelcheck.cli import rule_infos
from parallelcheck.config import Config
from parallelcheck.discover.sets import discover
from parallelcheck.engine import CheckOptions
from parallelcheck.report import FORMATS, Report
from parallelcheck.report.base import SiteLinks
from parallelcheck.report.github import escape_data, escape_property
from parallelcheck.report.html_site import render_site
from parallelcheck.report.html_site.assets import ARTICLE_SCRIPT, INDEX_SCRIPT
from parallelcheck.report.html_site.common import page_name, policy
from parallelcheck.report.markdown import escape as md_escape
from parallelcheck.report.sarif import artifact_uri, fingerprint
from parallelcheck.rules import REGISTRY
from parallelcheck.rules._reference import plain_text
from parallelcheck.run.pipeline import check_all

ARTICLE = "deepinfer-vs-lmdeploy"
LANGS = ["en", "ja", "ko", "zh-Hant"]
SCHEMA = SHARED / "spec" / "sarif-schema-2.1.0.json"

SCRIPT_TAG = "<script>document.title='pwned'</script>"
IMG_TAG = "<img src=x onerror=\"document.title='pwned'\">"
# An article id with characters that need escaping in every format.
HOSTILE_ID = "x&y,z'q|w"

HOSTILE_EN = f"""\
# Title `<script>` & "quotes" | pipe *star* _under_ [link](javascript:alert(1)) $x$ @someone

A paragraph with {SCRIPT_TAG} inline and {IMG_TAG} raw markup.

Entities: &lt;script&gt;document.title='pwned'&lt;/script&gt; and \
&lt;img src=x onerror="document.title='pwned'"&gt; | pipe.

{SCRIPT_TAG}

```html
{SCRIPT_TAG}
{IMG_TAG}
```

| a | b |
|---|---|
| &lt;img src=x onerror="document.title='pwned'"&gt; | `x \\| y` |
| &lt;script&gt;document.title='pwned'&lt;/script&gt; | 2 |

## Second `<img src=x onerror=alert(1)>` heading

- item &lt;script&gt;document.title='pwned'&lt;/script&gt;
- item two
"""

HOSTILE_JA = """\
# タイトル

段落 &lt;script&gt;document.title='pwned'&lt;/script&gt; です。

## 第二

- 項目
"""

PLAIN_EN = "Before the title: see `parse_v2()` first.\n\n# Plain\n\nOne paragraph with 42 apples.\n"
PLAIN_JA = "タイトルの前：まず `parse_v3()` を参照。\n\n# プレーン\n\n42 個のりんごの段落。\n"


def build_report(root: Path, cwd: Path, config: Config | None = None) -> Report:
    """Check every article below ``root`` with the real engine, paths relative to ``cwd``."""
    with contextlib.chdir(cwd):  # versions are read by their paths relative to cwd
        sets = discover([str(root)], root=str(root), cwd=str(cwd))
        results = list(check_all(sets, config or Config(), CheckOptions(jobs=1)))
    return Report(
        articles=[r.article for r in results],
        findings=[f for r in results for f in r.findings],
        rules=rule_infos(),
    )


def user_report() -> Report:
    return build_report(REPO / "articles", REPO)


def write_hostile_set(base: Path) -> Path:
    """A root with the hostile article (en, ja; ko expected but missing) and a clean one."""
    root = base / "articles"
    hostile = root / HOSTILE_ID
    hostile.mkdir(parents=True)
    (hostile / "en.md").write_text(HOSTILE_EN, encoding="utf-8")
    (hostile / "ja.md").write_text(HOSTILE_JA, encoding="utf-8")
    plain = root / "plain"
    plain.mkdir()
    (plain / "en.md").write_text(PLAIN_EN, encoding="utf-8")
    (plain / "ja.md").write_text(PLAIN_JA, encoding="utf-8")
    return root


def hostile_report(base: Path) -> Report:
    root = write_hostile_set(base)
    return build_report(root, base, Config(languages=("en", "ja", "ko")))


class Node:
    """An element of a parsed page."""

    def __init__(self, tag: str, attrs: dict[str, str | None], parent: Node | None) -> None:
        self.tag, self.attrs, self.parent = tag, attrs, parent
        self.children: list[Node | str] = []

    @property
    def classes(self) -> set[str]:
        return set((self.attrs.get("class") or "").split())

    def text(self) -> str:
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)

    def iter(self):
        yield self
        for child in self.children:
            if isinstance(child, Node):
                yield from child.iter()

    def find_all(self, tag: str | None = None, cls: str | None = None) -> list[Node]:
        return [
            n
            for n in self.iter()
            if (tag is None or n.tag == tag) and (cls is None or cls in n.classes)
        ]

    def kids(self, tag: str) -> list[Node]:
        return [c for c in self.children if isinstance(c, Node) and c.tag == tag]


VOID = {"meta", "input", "col", "br", "img", "link", "hr", "source", "wbr", "area", "base"}


class _TreeBuilder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#document", {}, None)
        self.current = self.root
        self.doctype = ""

    def handle_decl(self, decl: str) -> None:
        self.doctype = decl

    def handle_starttag(self, tag, attrs):
        node = Node(tag, dict(attrs), self.current)
        self.current.children.append(node)
        if tag not in VOID:
            self.current = node

    def handle_startendtag(self, tag, attrs):
        self.current.children.append(Node(tag, dict(attrs), self.current))

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        node = self.current
        while node is not None and node.tag != tag:
            node = node.parent
        assert node is not None and node.parent is not None, f"stray </{tag}>"
        self.current = node.parent

    def handle_data(self, data):
        self.current.children.append(data)


def parse_html(text: str) -> _TreeBuilder:
    builder = _TreeBuilder()
    builder.feed(text)
    builder.close()
    return builder


def page_of(report: Report, article_id: str) -> str:
    """The text of an article's page in the html site of *report*."""
    return render_site(report)[report.site.to_page(page_name(article_id))]


def render(name: str, report: Report) -> str:
    """What a format writes for *report*: its text, or every file of a site, one after the
    other."""
    if FORMATS[name].page is None:
        return FORMATS[name](report)
    return "\n".join(render_site(report).values())


# ---------------------------------------------------------------------------
# Fixtures


@pytest.fixture(scope="module")
def real() -> Report:
    return user_report()


@pytest.fixture(scope="module")
def hostile(tmp_path_factory) -> Report:
    return hostile_report(tmp_path_factory.mktemp("hostile"))


def test_every_format_is_registered():
    assert {"text", "json", "sarif", "github", "markdown", "html"} <= set(FORMATS)


@pytest.mark.parametrize("name", ["sarif", "github", "markdown", "html"])
def test_output_is_deterministic(real, hostile, name):
    for report in (real, hostile):
        assert render(name, report) == render(name, report)
    again = user_report()
    assert render(name, again) == render(name, real)


def test_the_hostile_set_yields_findings_of_every_kind(hostile):
    rules = {f.rule for f in hostile.findings}
    assert {"missing-version", "missing-paragraph", "missing-table", "code-mismatch"} <= rules
    assert all(not f.locations[0].path.startswith("/") for f in hostile.findings)


# ---------------------------------------------------------------------------
# SARIF


def _validate_sarif(document: dict) -> None:
    schema = json.loads(need(SCHEMA).read_text(encoding="utf-8"))
    validator = jsonschema.validators.validator_for(schema)
    validator.check_schema(schema)
    validator(schema).validate(document)


@pytest.mark.parametrize("which", ["real", "hostile"])
def test_sarif_validates_and_has_one_result_per_finding(real, hostile, which):
    report = real if which == "real" else hostile
    document = json.loads(FORMATS["sarif"](report))
    _validate_sarif(document)
    findings = json.loads(FORMATS["json"](report))["findings"]
    assert document["version"] == "2.1.0"
    (run,) = document["runs"]
    driver = run["tool"]["driver"]
    assert driver["name"] == "parallelcheck" and driver["version"] == report.tool_version
    rule_ids = [r["id"] for r in driver["rules"]]
    assert set(REGISTRY) <= set(rule_ids)
    results = run["results"]
    assert len(results) == len(findings)
    for result, finding in zip(results, findings, strict=True):
        assert result["ruleId"] == finding["rule"]
        assert driver["rules"][result["ruleIndex"]]["id"] == result["ruleId"]
        assert (
            result["level"]
            == {"error": "error", "warning": "warning", "info": "note"}[finding["severity"]]
        )
        assert result["message"]["text"] == finding["message"]
        assert re.fullmatch(r"[0-9a-f]{64}", result["partialFingerprints"]["parallelcheck/v2"])
        # the deviating versions' lines are the result's locations, the other versions' its
        # related locations; a finding with no line in a deviating version (missing-version)
        # is shown at its first location
        deviating = [x for x in finding["locations"] if x["lang"] in finding["langs"]]
        others = [x for x in finding["locations"] if x["lang"] not in finding["langs"]]
        if not deviating:
            deviating, others = others[:1], others[1:]
        assert _sarif_places(result["locations"]) == _places(deviating)
        assert _sarif_places(result.get("relatedLocations", [])) == _places(others)
        assert [r["id"] for r in result.get("relatedLocations", [])] == list(
            range(1, len(others) + 1)
        )


def _places(locations: list[dict]) -> list[tuple[str, int]]:
    return [(artifact_uri(x["path"]), max(x["line"], 1)) for x in locations]


def _sarif_places(locations: list[dict]) -> list[tuple[str, int]]:
    return [
        (
            loc["physicalLocation"]["artifactLocation"]["uri"],
            loc["physicalLocation"]["region"]["startLine"],
        )
        for loc in locations
    ]


def test_sarif_puts_reference_versions_in_related_locations(real):
    """The shipped article's first missing table: ko and zh-Hant hold a table that the
    source en (and ja) lack.  The result is located at ko's and zh-Hant's lines, where the
    table is (the versions that differ from the source); en's and ja's lines, where it would
    be, are related locations naming their role."""
    document = json.loads(FORMATS["sarif"](real))
    table = next(r for r in document["runs"][0]["results"] if r["ruleId"] == "missing-table")
    assert table["properties"]["langs"] == ["ko", "zh-Hant"]
    located = [(loc["message"]["text"], _sarif_places([loc])[0]) for loc in table["locations"]]
    related = [
        (loc["id"], loc["message"]["text"], _sarif_places([loc])[0])
        for loc in table["relatedLocations"]
    ]
    assert located == [
        ("ko: deviating version", ("articles/deepinfer-vs-lmdeploy/ko.md", 29)),
        ("zh-Hant: deviating version", ("articles/deepinfer-vs-lmdeploy/zh-Hant.md", 29)),
    ]
    assert related == [
        (1, "en: reference version", ("articles/deepinfer-vs-lmdeploy/en.md", 25)),
        (2, "ja: reference version", ("articles/deepinfer-vs-lmdeploy/ja.md", 25)),
    ]


def test_sarif_rules_carry_documentation(real):
    driver = json.loads(FORMATS["sarif"](real))["runs"][0]["tool"]["driver"]
    by_id = {r["id"]: r for r in driver["rules"]}
    table = by_id["missing-table"]
    assert table["name"] == "MissingTable"
    assert table["shortDescription"]["text"] == REGISTRY["missing-table"].summary
    assert table["help"]["text"] == plain_text(REGISTRY["missing-table"].doc).strip()
    # the documentation is plain text: no reStructuredText literal or role is left in it
    for rule in driver["rules"]:
        assert "``" not in rule["help"]["text"] and ":mod:`" not in rule["help"]["text"]
    assert table["defaultConfiguration"]["level"] == "error"
    assert by_id["list-shape"]["defaultConfiguration"]["level"] == "warning"


def test_sarif_without_rule_metadata_lists_the_rules_that_appear(real):
    bare = Report(articles=real.articles, findings=real.findings)
    document = json.loads(FORMATS["sarif"](bare))
    _validate_sarif(document)
    ids = [r["id"] for r in document["runs"][0]["tool"]["driver"]["rules"]]
    assert ids == sorted({f.rule for f in real.findings})


def test_sarif_fingerprints_ignore_lines_and_paths_are_uri_references(real):
    finding = real.findings[0]
    lines_moved = tuple(dataclasses.replace(loc, line=loc.line + 10) for loc in finding.locations)
    moved = dataclasses.replace(finding, locations=lines_moved)
    assert fingerprint(moved) == fingerprint(finding)
    assert len({fingerprint(f) for f in real.findings}) == len(real.findings)
    assert artifact_uri("articles/a/zh-Hant.md") == "articles/a/zh-Hant.md"
    assert artifact_uri("docs/my file#1:x.md") == "docs/my%20file%231%3Ax.md"


# ---------------------------------------------------------------------------
# GitHub workflow commands

COMMAND = re.compile(r"^::(error|warning|notice) file=[^,]+,line=\d+,title=[^:]+::.+$")


def _expected_github_lines(report: Report) -> int:
    """One per location of a deviating version; one at the first location when none."""
    total = 0
    for finding in report.findings:
        deviating = [loc for loc in finding.locations if loc.lang in finding.langs]
        total += len(deviating) if deviating else 1
    return total


@pytest.mark.parametrize("which", ["real", "hostile"])
def test_github_lines_are_strict_workflow_commands(real, hostile, which):
    report = real if which == "real" else hostile
    text = FORMATS["github"](report)
    lines = text.splitlines()
    assert text.endswith("\n")
    assert len(lines) == _expected_github_lines(report)
    for line in lines:
        assert COMMAND.match(line), line


def test_github_on_the_user_article(real):
    lines = FORMATS["github"](real).splitlines()
    assert len(lines) == 16  # 8 findings, each deviating in ko and zh-Hant
    assert (
        "::error file=articles/deepinfer-vs-lmdeploy/ko.md,line=29,title=missing-table::"
        "table (9 rows × 3 columns) is present in ko and zh-Hant but not in the source en "
        "(nor in ja); en changed or dropped it after it was translated, or ko and zh-Hant added it "
        "[deepinfer-vs-lmdeploy § Head-to-head: scope, not speed]"
    ) in lines
    assert all("/en.md" not in line.split("::")[1] for line in lines)


def test_github_escaping(hostile):
    assert escape_data("a%b\r\nc") == "a%25b%0D%0Ac"
    assert escape_property("a:b,c%\n") == "a%3Ab%2Cc%25%0A"
    text = FORMATS["github"](hostile)
    hostile_lines = [line for line in text.splitlines() if "x&y" in line]
    assert hostile_lines
    for line in hostile_lines:
        assert "file=articles/x&y%2Cz'q|w/" in line
    missing_version = [line for line in hostile_lines if "title=missing-version" in line]
    assert len(missing_version) == 1 and "/en.md,line=1," in missing_version[0]


# ---------------------------------------------------------------------------
# Markdown


def _table(text: str) -> list[list[str]]:
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("| Article |"))
    rows = []
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        cells = re.split(r"(?<!\\)\|", line.strip())[1:-1]
        rows.append([cell.strip() for cell in cells])
    return rows


@pytest.mark.parametrize("which", ["real", "hostile"])
def test_markdown_table_counts(real, hostile, which):
    report = real if which == "real" else hostile
    text = FORMATS["markdown"](report)
    assert text.startswith("## parallelcheck: ")
    rows = _table(text)
    header, separator, body, totals = rows[0], rows[1], rows[2:-1], rows[-1]
    rules = sorted({f.rule for f in report.findings})
    assert header == ["Article", *rules, "Total"]
    assert separator == ["---", *["---:"] * (len(rules) + 1)]
    counts = Counter((f.article, f.rule) for f in report.findings)
    flagged = [a for a in report.articles if any(f.article == a.id for f in report.findings)]
    assert len(body) == len(flagged)
    for article, row in zip(flagged, body, strict=True):
        assert row[0] == md_escape(article.id)
        want = [counts[(article.id, rule)] for rule in rules]
        assert row[1:] == [str(n) for n in [*want, sum(want)]]
    assert totals[0] == "**Total**"
    assert totals[-1] == f"**{len(report.findings)}**"


def test_markdown_details_on_the_user_article(real):
    text = FORMATS["markdown"](real)
    assert "| deepinfer-vs-lmdeploy | 2 | 4 | 2 | 8 |" in text
    assert "#### § Head-to-head: scope, not speed" in text
    assert "  - ✗ zh-Hant (deviating): articles/deepinfer-vs-lmdeploy/zh-Hant.md:29" in text
    assert "  - ✓ ja (reference): articles/deepinfer-vs-lmdeploy/ja.md:25" in text


def test_markdown_escapes_article_text(hostile):
    text = FORMATS["markdown"](hostile)
    assert md_escape("a|b<c>*d_`e`[f](g) $h$ & #") == (r"a\|b\<c\>\*d\_\`e\`\[f\](g) \$h\$ \& \#")
    assert md_escape("two\nlines\r\n") == "two lines  "
    # No raw angle bracket, pipe or emphasis from an article survives unescaped.
    for line in text.splitlines():
        if line.startswith("<details") or line.startswith("</details"):
            continue
        assert not re.search(r"(?<!\\)<", line), line
    assert r"x\&y,z'q\|w" in text
    assert r'#### § Title \<script\> \& "quotes" \| pipe star under link \$x\$' in text


# ---------------------------------------------------------------------------
# HTML, parsed statically (what a reader with JavaScript disabled gets)


def _aligned_header(table: Node) -> list[str]:
    (thead,) = table.kids("thead")
    (row,) = thead.kids("tr")
    return [th.attrs["data-col"] for th in row.kids("th")]


def _rows(table: Node) -> list[Node]:
    (tbody,) = table.kids("tbody")
    return tbody.kids("tr")


def _cells(row: Node) -> dict[str, Node]:
    return {td.attrs["data-col"]: td for td in row.kids("td")}


def section_rows(table: Node, heading: str) -> list[Node]:
    """The heading row whose source cell reads ``heading`` and the block rows after it."""
    rows = _rows(table)
    for index, row in enumerate(rows):
        if "pc-headrow" in row.classes and heading in row.text():
            found = [row]
            for after in rows[index + 1 :]:
                if "pc-headrow" in after.classes:
                    break
                found.append(after)
            return found
    raise AssertionError(f"no section {heading!r}")


def check_head_to_head(table: Node) -> None:
    """The user's article: ko and zh-Hant have a head-to-head table that the source en and
    ja lack; their cells are marked as deviating, en's and ja's empty cells as missing."""
    heading, *blocks = section_rows(table, "Head-to-head: scope, not speed")
    table_rows = [row for row in blocks if any(td.find_all("table") for td in row.kids("td"))]
    assert len(table_rows) == 1
    cells = _cells(table_rows[0])
    for lang in ("en", "ja"):
        assert {"pc-missing", "pc-empty"} <= cells[lang].classes, cells[lang].classes
        assert not cells[lang].find_all("table")
    for lang in ("ko", "zh-Hant"):
        assert "pc-deviating" in cells[lang].classes and "pc-missing" not in cells[lang].classes
        (inner,) = cells[lang].find_all("table", "pc-inner")
        assert len(inner.find_all("tr")) == 10  # header + 9 rows
    assert "pc-missing" not in _cells(heading)["en"].classes


def test_html_structure_on_the_user_article(real):
    page = parse_html(page_of(real, ARTICLE))
    assert page.doctype.lower() == "doctype html"
    (table,) = page.root.find_all("table", "pc-aligned")
    assert _aligned_header(table) == LANGS
    check_head_to_head(table)
    for row in _rows(table):
        assert [td.attrs["data-col"] for td in row.kids("td")] == LANGS
    findings = page.root.find_all("li", "pc-finding")
    assert len(findings) == len(real.findings) == 8
    # Every finding links to marked cells, and every note links back to its finding.
    ids = {n.attrs["id"] for n in page.root.iter() if "id" in n.attrs}
    for item in findings:
        links = [a.attrs["href"] for a in item.find_all("a")]
        assert len(links) == 4 and all(link[1:] in ids for link in links)
    notes = page.root.find_all("div", "pc-note")
    assert notes and all(
        note.find_all("a")[0].attrs["href"] == "#" + note.attrs["data-finding"] for note in notes
    )
    # The FAQ sections only ko and zh-Hant have are rows with dashed en/ja cells.
    heading, *_ = section_rows(table, "DeepInfer가 LMDeploy보다 빠른가요?")
    assert "pc-missing" in _cells(heading)["ja"].classes
    assert "pc-deviating" in _cells(heading)["zh-Hant"].classes
    # Without JavaScript the versions can still be chosen (CSS does it); the other filters
    # stay hidden; everything else is there.
    (form,) = page.root.find_all("form")
    assert "hidden" not in form.attrs
    assert [f.attrs.get("class") for f in form.kids("fieldset") if "hidden" in f.attrs] == [
        "pc-js"
    ] * 3
    text = page.root.text()
    assert "정면 비교: 속도가 아니라 범위" in text and "比較表：速度ではなく適用範囲" in text


def test_html_every_cell_carries_its_versions_language(real):
    page = parse_html(page_of(real, ARTICLE))
    (table,) = page.root.find_all("table", "pc-aligned")
    cells = table.find_all("td") + table.find_all("th")
    outer = [c for c in cells if "pc-cell" in c.classes or "pc-lang" in c.classes]
    assert len(outer) == len(LANGS) * (len(_rows(table)) + 1)
    assert all(c.attrs["lang"] == c.attrs["data-col"] for c in outer)
    # The tool's own notes are English, whatever the column.
    assert all(n.attrs["lang"] == "en" for n in table.find_all("div", "pc-note"))
    (title,) = page.root.find_all("h1")
    assert title.attrs["lang"] == "en"


def _ticked(page: Node) -> list[str]:
    return [
        box.attrs["value"]
        for box in page.find_all("input")
        if box.attrs.get("name") == "lang" and "checked" in box.attrs
    ]


def test_html_shows_the_source_and_the_most_different_version_by_default(real, hostile):
    # The user's article: en lacks what ko and zh-Hant have (with ja): the first of those.
    assert _ticked(parse_html(page_of(real, ARTICLE)).root) == ["en", "ko"]
    # The hostile one: ja deviates from en in most findings (ko has no file: one finding).
    assert _ticked(parse_html(page_of(hostile, HOSTILE_ID)).root) == ["en", "ja"]
    # Each column's checkbox governs its cells: checkbox pc-col-N, cells pc-cN.
    page = parse_html(page_of(real, ARTICLE)).root
    (style,) = page.find_all("style")
    for column, lang in enumerate(LANGS):
        assert f".pc-page:has(#pc-col-{column}:not(:checked)) .pc-c{column} " in style.text()
        (box,) = [b for b in page.find_all("input") if b.attrs.get("id") == f"pc-col-{column}"]
        assert box.attrs["value"] == lang
        assert all(lang == td.attrs["data-col"] for td in page.find_all(None, f"pc-c{column}"))


def _links(page: Node) -> list[str]:
    return [n.attrs["href"] for n in page.iter() if "href" in n.attrs]


def test_html_is_self_contained_with_a_strict_policy(real, hostile):
    for report in (real, hostile):
        site = render_site(report)
        assert next(iter(site)) == "index.html" and len(site) == 1 + len(report.aligned())
        for path, html_text in site.items():
            page = parse_html(html_text)
            (meta,) = [
                m
                for m in page.root.find_all("meta")
                if m.attrs.get("http-equiv") == "Content-Security-Policy"
            ]
            (script,) = page.root.find_all("script")
            (style,) = page.root.find_all("style")
            assert not script.attrs and script.text() in (INDEX_SCRIPT, ARTICLE_SCRIPT)
            policy_text = meta.attrs["content"]
            assert policy_text == policy(style.text(), script.text())
            assert "default-src 'none'" in policy_text and "unsafe" not in policy_text
            for node in page.root.iter():
                assert "src" not in node.attrs, node.tag
                assert not any(name.startswith("on") for name in node.attrs), node.tag
                assert "style" not in node.attrs, node.tag
            assert not page.root.find_all("link") and not page.root.find_all("img")
            own = style.text() + script.text()
            assert "url(" not in own and "@import" not in own
            assert "http://" not in own and "https://" not in own
            # Every link is to an element of the page or to another file of the site.
            ids = {n.attrs["id"] for n in page.root.iter() if "id" in n.attrs}
            folder = Path(path).parent
            for href in _links(page.root):
                if href.startswith("#"):
                    assert href[1:] in ids, (path, href)
                else:
                    target = (folder / href.split("?")[0]).as_posix()
                    assert os.path.normpath(target) in site, (path, href)


def test_html_index_lists_every_article_and_links_those_with_findings(hostile, tmp_path):
    clean = Path(write_hostile_set(tmp_path / "set")).parent
    (clean / "articles" / "tidy").mkdir()
    (clean / "articles" / "tidy" / "en.md").write_text("# Tidy\n\nSame 1.\n", encoding="utf-8")
    (clean / "articles" / "tidy" / "ja.md").write_text("# 整然\n\n同じ 1。\n", encoding="utf-8")
    (clean / "articles" / "tidy" / "ko.md").write_text("# 정돈\n\n같은 1.\n", encoding="utf-8")
    report = build_report(clean / "articles", clean, Config(languages=("en", "ja", "ko")))
    site = render_site(report)
    assert sorted(site) == sorted(
        ["index.html", *(f"pages/{page_name(a)}" for a in (HOSTILE_ID, "plain"))]
    )
    index = parse_html(site["index.html"]).root
    rows = {}
    for row in index.find_all("tr", "pc-entry"):
        head = row.kids("th")[0]
        rows[head.find_all("a")[0].text() if head.find_all("a") else head.text()] = row
    assert len(rows) == 3
    (tidy,) = [row for name, row in rows.items() if name.startswith("tidy")]
    assert not tidy.find_all("a")  # listed, without a link: it has no page
    assert "pc-clean-row" in tidy.classes and tidy.attrs["data-findings"] == "0"
    plain = rows["plain"]
    languages = [th.text() for th in index.find_all("thead")[0].find_all("th")][4:]
    assert languages == ["en", "ja", "ko"]
    cells = dict(zip(languages, plain.kids("td")[3:], strict=True))
    by_lang = Counter(
        (lang, f.severity) for f in report.findings if f.article == "plain" for lang in f.langs
    )
    assert sum(by_lang.values()) >= 2
    for lang, td in cells.items():
        for severity, key in (("error", "data-e"), ("warning", "data-w"), ("info", "data-i")):
            assert int(td.attrs.get(key, "0")) == by_lang[lang, severity], (lang, severity)
    assert cells["ko"].text().startswith("no file")  # expected, missing
    (link,) = cells["ja"].find_all("a")
    assert link.attrs["href"] == f"pages/{page_name('plain')}?lang=ja"
    assert plain.kids("th")[0].find_all("div")[0].attrs["lang"] == "en"
    # Search covers the id, the title and the paths.
    assert "articles/plain/ja.md" in plain.attrs["data-search"]


def test_html_index_marks_stale_versions(real):
    (first, *rest) = real.findings
    stale = dataclasses.replace(first, rule="stale-translation", severity="warning")
    report = dataclasses.replace(real, findings=[stale, *rest])
    index = parse_html(FORMATS["html"](report)).root
    marked = [td for td in index.find_all("td", "pc-v") if td.find_all("span", "pc-stale")]
    assert len(marked) == len(stale.langs)
    assert f"{len(stale.langs)} stale version(s)" in index.text()


def test_html_page_names_are_stable_distinct_and_safe():
    from parallelcheck.files.site_folder import PAGE_FILE

    ids = ["deployment/docker", "deployment__docker", "Deployment/Docker", "日本語", "", "x" * 300]
    names = [page_name(i) for i in ids]
    assert len(set(names)) == len(ids)
    assert names[0].startswith("deployment-docker-") and names[1].startswith("deployment__docker-")
    assert all(PAGE_FILE.fullmatch(name) and len(name) <= 70 for name in names)
    assert page_name("deployment/docker") == names[0]


def test_html_shows_hostile_markup_as_text(hostile):
    html_text = page_of(hostile, HOSTILE_ID)
    page = parse_html(html_text)
    assert len(page.root.find_all("script")) == 1
    assert not page.root.find_all("img")
    assert [t.text() for t in page.root.find_all("title")] == [
        f"{HOSTILE_ID} · parallelcheck report"
    ]
    text = page.root.text()
    assert SCRIPT_TAG in text  # from the entities paragraph, the code block and the table
    assert IMG_TAG in text  # from the code block
    assert "<img src=x onerror=alert(1)>" in text  # from the second heading
    assert "javascript:alert(1)" in text  # a link target, as text only
    assert HOSTILE_ID in text
    assert "&lt;script&gt;document.title=&#x27;pwned&#x27;&lt;/script&gt;" in html_text
    (table,) = page.root.find_all("table", "pc-aligned")
    header = _aligned_header(table)
    assert header == ["en", "ja", "ko"]  # ko expected, no file
    ko_cells = [td for row in _rows(table) for td in row.kids("td") if td.attrs["data-col"] == "ko"]
    assert ko_cells and all("pc-empty" in td.classes for td in ko_cells)
    (ko_head,) = [th for th in table.find_all("th") if th.attrs.get("data-col") == "ko"]
    assert "pc-missing" in ko_head.classes  # the missing-version finding
    code = [pre.text() for pre in table.find_all("pre")]
    assert code == [f"{SCRIPT_TAG}\n{IMG_TAG}"]
    index = parse_html(FORMATS["html"](hostile)).root
    assert HOSTILE_ID in index.text() and not index.find_all("img")


def test_html_places_findings_in_their_rows(hostile):
    page = parse_html(page_of(hostile, HOSTILE_ID))
    (table,) = page.root.find_all("table", "pc-aligned")
    marked = {}
    for row in _rows(table):
        for lang, td in _cells(row).items():
            for note in td.find_all("div", "pc-note"):
                marked.setdefault(note.attrs["data-rule"], []).append((lang, td))
    # The table of en has no counterpart in ja: ja's empty cell beside en's table.
    (ja_cell,) = [td for lang, td in marked["missing-table"] if lang == "ja"]
    (en_cell,) = [td for lang, td in marked["missing-table"] if lang == "en"]
    assert "pc-missing" in ja_cell.classes and "pc-ref" in en_cell.classes
    assert en_cell.find_all("table", "pc-inner")
    assert ja_cell.parent is en_cell.parent
    # A list of a different length: both versions have it, ja deviates.
    (ja_list,) = [td for lang, td in marked["list-shape"] if lang == "ja"]
    assert "pc-deviating" in ja_list.classes and ja_list.find_all("ul")


def test_html_places_findings_before_the_first_heading_and_about_the_whole_article(hostile):
    page = parse_html(page_of(hostile, "plain"))
    (table,) = page.root.find_all("table", "pc-aligned")
    first = _rows(table)[0]
    assert "pc-blockrow" in first.classes and "parse_v2()" in first.text()
    cells = _cells(first)
    assert "pc-deviating" in cells["ja"].classes and "pc-ref" in cells["en"].classes
    assert "token-mismatch" in cells["ja"].text()
    heads = {th.attrs["data-col"]: th for th in table.find_all("th")}
    assert "pc-missing" in heads["ko"].classes and "missing-version" in heads["ko"].text()
    notes = [n.attrs["data-rule"] for n in table.find_all("div", "pc-note")]
    assert notes.count("missing-version") == 1  # in ko's header cell only
    (item,) = [li for li in page.root.find_all("li", "pc-finding") if li.attrs["id"] == "f1"]
    assert item.attrs["data-rule"] == "missing-version"
    assert "about the whole article" in item.text()


def test_severities_map_to_levels_and_commands(real):
    first, second, *rest = real.findings
    report = Report(
        articles=real.articles,
        findings=[first.with_severity("info"), second.with_severity("warning"), *rest],
    )
    results = json.loads(FORMATS["sarif"](report))["runs"][0]["results"]
    assert [r["level"] for r in results[:3]] == ["note", "warning", "error"]
    commands = [line.split(" ", 1)[0] for line in FORMATS["github"](report).splitlines()]
    assert commands[:6] == ["::notice"] * 2 + ["::warning"] * 2 + ["::error"] * 2
    assert "0 errors" not in FORMATS["markdown"](report)
    assert "6 errors, 1 warning, 1 info" in FORMATS["markdown"](report)
    assert page_of(report, ARTICLE).count('class="pc-finding pc-sev-info"') == 1


def test_an_empty_report_renders_everywhere():
    empty = Report(articles=[], findings=[])
    for name in ("sarif", "github", "markdown", "html"):
        assert isinstance(FORMATS[name](empty), str)
    assert list(render_site(empty)) == ["index.html"]
    _validate_sarif(json.loads(FORMATS["sarif"](empty)))
    assert FORMATS["github"](empty) == ""
    assert "| **Total**" not in FORMATS["markdown"](empty)
    assert "All language versions agree: 0 articles checked." in FORMATS["markdown"](empty)


def test_markdown_lists_only_the_articles_with_findings(tmp_path):
    """An article in sync beside the hostile set gets no row of zeros, only a count; a report
    of it alone has no table at all."""
    root = write_hostile_set(tmp_path)
    (root / "synced").mkdir()
    (root / "synced" / "en.md").write_text("# Plain\n\nOne paragraph.\n", encoding="utf-8")
    (root / "synced" / "ja.md").write_text("# プレーン\n\n一つの段落。\n", encoding="utf-8")
    report = build_report(root, tmp_path)
    assert {f.article for f in report.findings} == {HOSTILE_ID, "plain"}
    text = FORMATS["markdown"](report)
    assert [row[0] for row in _table(text)[2:-1]] == ["plain", md_escape(HOSTILE_ID)]
    assert "\n1 other article without findings (not listed).\n" in text
    synced = Report(articles=[a for a in report.articles if a.id == "synced"], findings=[])
    summary = FORMATS["markdown"](synced)
    assert "|" not in summary and "<details" not in summary
    assert "All language versions agree: 1 article checked. ✅" in summary


def test_cli_writes_each_format(tmp_path):
    from click.testing import CliRunner

    from parallelcheck.cli import cli

    written = {}
    with contextlib.chdir(REPO):
        for name in ("sarif", "github", "markdown", "html"):
            out = tmp_path / f"report.{name}"
            result = CliRunner().invoke(cli, ["check", "--format", name, "--output", str(out)])
            assert result.exit_code == 1, result.output
            written[name] = out.read_text(encoding="utf-8")
    report = user_report()
    assert written["github"] == FORMATS["github"](report)
    assert written["markdown"] == FORMATS["markdown"](report)
    sarif = json.loads(written["sarif"])
    _validate_sarif(sarif)
    want = json.loads(FORMATS["sarif"](report))["runs"][0]["results"]
    got = sarif["runs"][0]["results"]
    assert [r["message"] for r in got] == [r["message"] for r in want]
    assert [r["locations"] for r in got] == [r["locations"] for r in want]
    # The html site: the index at --output, the pages beside it; as rendered in memory.
    site = dataclasses.replace(report, site=SiteLinks("report.html", "report_files"))
    assert written["html"] == FORMATS["html"](site)
    for path, text in render_site(site).items():
        assert (tmp_path / path).read_text(encoding="utf-8") == text
    page = (tmp_path / "report_files" / page_name(ARTICLE)).read_text(encoding="utf-8")
    check_head_to_head(parse_html(page).root.find_all("table", "pc-aligned")[0])


def test_formats_declare_what_they_read_of_each_article(real):
    assert FORMATS["html"].needs == "flagged" and FORMATS["html"].page is not None
    assert {FORMATS[name].needs for name in FORMATS if name != "html"} == {"outline"}
    outlines = Report(articles=real.outlines(), findings=real.findings, rules=real.rules)
    for name in FORMATS:  # the same text (a site's index) from outlines as from articles
        assert FORMATS[name](outlines) == FORMATS[name](real), name
    with pytest.raises(TypeError):  # a page needs the article's text
        render_site(outlines)


def test_findings_record_their_place_in_the_alignment(real):
    (article,) = real.aligned()
    placed = [f for f in real.findings if f.section]
    assert placed and all(f.section_row is not None for f in placed)
    for finding in placed:
        assert article.section_title(article.sections[finding.section_row]) == finding.section
    assert all("section_row" not in f.as_dict() for f in real.findings)  # never written


def test_html_places_a_finding_at_the_rows_it_records(real):
    from parallelcheck.report.html_site.place import Element, place_finding

    (article,) = real.aligned()
    finding = next(f for f in real.findings if f.section_row)
    element = place_finding(article, finding)
    assert element is not None and element.section == finding.section_row
    # Its coordinates decide, not its lines; without them, its lines do (as before).
    row = len(article.sections[1].rows) - 1
    moved = dataclasses.replace(finding, section_row=1, block_row=row)
    assert place_finding(article, moved) == Element(1, row)
    bare = dataclasses.replace(finding, section_row=None, block_row=None)
    assert place_finding(article, bare) == element
