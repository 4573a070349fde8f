"""Red team, issue 17 case 4: text from articles reaching a terminal or a report is inert.

One version of a two-version article carries every C0 control character the reader accepts,
DEL, every C1 control and the bidirectional embeddings, overrides and isolates — in a heading,
a paragraph (as text and as inline code), a link target and a code block — and its folder name
(so the article id and every path) carries ESC, a right-to-left override, CSI (U+009B), tab,
line feed, DEL and U+0001.  The command line is run on it (through its real entry point, in
this process: ``conftest.invoke``; the plain text report also as ``python -m parallelcheck``)
for every format, with and without ``--color``:

* ``text``, ``github`` and ``markdown`` hold no such character raw — only the line ends and
  the colour codes the text format writes itself — and show each one that reached a finding
  escaped (``\\x1b``, ``\\t``, ``\\u202e``);
* ``html`` holds none raw but the line feeds and tabs of the blocks it shows as written;
* ``json`` and ``sarif`` parse back to the exact characters, are written with JSON escapes
  only, and the SARIF log validates against the 2.1.0 schema.

The reader refuses a NUL byte (a binary file) and turns a carriage return into a line end, so
those two cannot reach a finding from a file; Python's whitespace among the controls (tab,
U+000B, U+000C, U+001C–U+001F, U+0085, U+2028, U+2029) is folded into spaces in headings and
messages.  A report built in process with every unsafe character — NUL, CR, LF and the
surrogate that stands for a C1 byte of a file name that is not UTF-8 included — in its
messages, sections and paths covers what no file can deliver.
"""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest
from conftest import invoke, run_cli, written_site
from test_report_formats import (
    COMMAND,
    _expected_github_lines,
    _validate_sarif,
    build_report,
    parse_html,
    render,
)

from parallelcheck.config import Config
from parallelcheck.model.finding import Location
from parallelcheck.report import Report
from parallelcheck.report.html_site.assets import (
    ARTICLE_SCRIPT,
    ARTICLE_STYLE,
    BASE_STYLE,
    INDEX_SCRIPT,
    INDEX_STYLE,
)
from parallelcheck.report.inert import escape_char, inert, json_inert

C0 = [chr(code) for code in range(0x20) if code != 0x0A]
DEL = "\x7f"
C1 = [chr(code) for code in range(0x80, 0xA0)]
BIDI = [chr(code) for code in (*range(0x202A, 0x202F), *range(0x2066, 0x206A))]
SEPARATORS = ["\u2028", "\u2029"]
#: Every character that must never reach a human-facing output raw (line feed apart).
FORBIDDEN = frozenset([*C0, "\n", DEL, *C1, *BIDI, *SEPARATORS])
#: Marks that Arabic and Hebrew text needs: kept as they are.
MARKS = "\u200e\u200f\u061c"

# NUL makes the file binary; CR becomes a line end.
INJECTED = "".join(c for c in [*C0, DEL, *C1, *BIDI, *SEPARATORS] if c not in "\x00\r")
#: What the readers fold into a space in headings and messages.
FOLDED = frozenset(c for c in INJECTED if c.isspace())

FOLDER = "art\x1b[31m\u202e\x9b\t\n\x7f\x01"
FORMAT_NAMES = ["text", "full", "json", "sarif", "github", "markdown", "html"]
HUMAN = ["text", "full", "github", "markdown"]
#: The formats for a terminal, and those of them that show each finding's section.
TERMINAL = ("text", "full")
WITH_SECTIONS = ["full", "github", "markdown"]
# The colour codes the terminal formats write themselves (report/terminal.py).
OWN_SGR = re.compile(r"\x1b\[(?:0|1|2|31|33|36)m")

FILLER_EN = "".join(
    f"Shared paragraph number {n} talks about apples and pears in plain words.\n\n"
    for n in range(20)
)
FILLER_JA = "".join(
    f"共有段落 {n} はりんごと梨について平易な言葉で語ります。\n\n" for n in range(20)
)


def english(chars: str) -> str:
    """The source version with ``chars`` in a heading, a paragraph, a link and a code block
    (the filler keeps the share of control bytes below the reader's "binary" threshold)."""
    return (
        f"# Title\n\n{FILLER_EN}"
        f"## Heading {chars}{MARKS} end\n\n"
        f"The value is 7 and `tok{chars}` here {chars} end.\n\n"
        f"See the [guide](<https://example.com/{chars}>) for details.\n\n"
        f"```python\nvalue = 1 {chars}\n```\n"
    )


JAPANESE = (
    f"# タイトル\n\n{FILLER_JA}## 見出し\n\n値は 8 で `tok` です。\n\n"
    "[ガイド](https://example.com/x) を参照してください。\n\n```python\nvalue = 2\n```\n"
)


def shown(char: str) -> str:
    """The documented escape of one character (independent of the implementation)."""
    named = {"\t": r"\t", "\n": r"\n", "\r": r"\r"}
    if char in named:
        return named[char]
    return f"\\x{ord(char):02x}" if ord(char) < 0x100 else f"\\u{ord(char):04x}"


def raw_forbidden(text: str, allowed: str = "\n") -> set[str]:
    return {c for c in text if c in FORBIDDEN and c not in allowed}


def write_set(base: Path, folder: str, chars: str) -> Path:
    article = base / "arts" / folder
    article.mkdir(parents=True)
    (article / "en.md").write_text(english(chars), encoding="utf-8")
    (article / "ja.md").write_text(JAPANESE, encoding="utf-8")
    return base


def report(base: Path, name: str, color: bool) -> str:
    """The report in format ``name`` of the article sets under ``base/arts``: standard
    output, or every file of the html site it writes to a folder."""
    site = base / f"site-{color}"
    args = ["check", "arts", "--format", name, "--no-cache", "--color" if color else "--no-color"]
    if name == "html":
        args += ["--output", str(site)]
    proc = invoke(*args, cwd=base, errors="strict")  # strict: the output is valid UTF-8
    assert proc.returncode == 1, proc.stderr
    if name == "html":
        return written_site(site)  # strict: every file is valid UTF-8
    return proc.stdout


@pytest.fixture(scope="module")
def injected(tmp_path_factory) -> Path:
    """The folder holding ``arts/`` with the injected article."""
    return write_set(tmp_path_factory.mktemp("red"), FOLDER, INJECTED)


@pytest.fixture(scope="module")
def outputs(injected) -> dict[tuple[str, bool], str]:
    return {
        (name, color): report(injected, name, color)
        for name in FORMAT_NAMES
        for color in (False, True)
    }


def test_the_command_itself_writes_the_same_bytes(injected, outputs):
    """What the process writes to its standard output (a pipe) is the report the tests below
    read, byte for byte."""
    proc = run_cli("check", "arts", "--no-cache", "--no-color", cwd=injected)  # strict UTF-8
    assert proc.returncode == 1, proc.stderr
    assert proc.stdout == outputs[("text", False)]


@pytest.fixture(scope="module")
def clean(tmp_path_factory) -> dict[str, str]:
    """The same article with a letter for each injected character, in a plain folder."""
    base = write_set(tmp_path_factory.mktemp("clean"), "art", "x" * len(INJECTED))
    return {name: report(base, name, False) for name in HUMAN}


@pytest.fixture(scope="module")
def document(outputs) -> dict:
    return json.loads(outputs[("json", False)])


def reached(document: dict, sections: bool = True) -> set[str]:
    """The injected characters present in some finding's text, id or path (and section,
    with *sections*)."""
    keys = ("article", "section", "message") if sections else ("article", "message")
    texts = [f[k] for f in document["findings"] for k in keys]
    texts += [loc["path"] for f in document["findings"] for loc in f["locations"]]
    return {c for c in "".join(texts) if c in FORBIDDEN}


# ---------------------------------------------------------------------------
# The injection reaches the findings (otherwise the tests below prove nothing)


def test_every_injected_character_reaches_a_finding(document):
    (article,) = document["articles"]
    assert article["id"] == FOLDER
    assert all(FOLDER in path for path in article["versions"].values())
    sections = {f["section"] for f in document["findings"]}
    heading = next(s for s in sections if s.startswith("Heading "))
    assert set(INJECTED) - FOLDED <= set(heading)
    assert heading.endswith(MARKS + " end")
    link = next(f["message"] for f in document["findings"] if f["rule"] == "link-mismatch")
    assert set(INJECTED) - FOLDED <= set(link)
    code = next(f["message"] for f in document["findings"] if f["rule"] == "code-mismatch")
    assert "\x1b" in code and "\x7f" in code
    # Tab and line feed reach the output through the folder name.
    assert reached(document) == (set(INJECTED) - FOLDED) | {"\t", "\n"}


# ---------------------------------------------------------------------------
# text, github, markdown


@pytest.mark.parametrize("color", [False, True], ids=["plain", "color"])
@pytest.mark.parametrize("name", HUMAN)
def test_human_formats_hold_no_raw_control(outputs, document, clean, name, color):
    text = outputs[(name, color)]
    if name in TERMINAL and color:
        text = OWN_SGR.sub("", text)
    assert raw_forbidden(text) == set()
    # An article's line feed never starts a line: the same line count as the clean article.
    assert text.count("\n") == clean[name].count("\n")
    # Every character that reached a finding is shown escaped (Markdown doubles backslashes
    # and makes a line break a space; a workflow command percent-encodes it).
    for char in reached(document, sections=name in WITH_SECTIONS) - {"\n"}:
        escape = shown(char).replace("\\", "\\\\") if name == "markdown" else shown(char)
        assert escape in text, (name, hex(ord(char)))
    line_feed = {"text": r"\n", "full": r"\n", "github": "%0A", "markdown": r"\\t \\x7f"}
    assert line_feed[name] in text
    for mark in MARKS if name in WITH_SECTIONS else ():
        assert mark in text  # right-to-left marks stay as written


def test_full_shows_the_heading_escaped_and_keeps_its_own_colours(outputs):
    plain, coloured = outputs[("full", False)], outputs[("full", True)]
    assert "\x1b" not in plain
    assert r"## Heading \x01\x02" in plain and r"\u202e\u2066" in plain
    assert r"art\x1b[31m\u202e\x9b\t\n\x7f\x01/en.md:" in plain
    assert "\x1b[1m" + r"art\x1b[31m\u202e\x9b\t\n\x7f\x01" + "\x1b[0m" in coloured
    assert "\x1b[31merror  \x1b[0m code-mismatch" in coloured
    assert "\x1b[33mwarning\x1b[0m link-mismatch" in coloured
    assert "\x1b[2mchecked 1 article set(s)" in coloured
    assert OWN_SGR.sub("", coloured) == plain


def test_text_escapes_the_path_on_each_finding_line_and_keeps_its_own_colours(outputs):
    plain, coloured = outputs[("text", False)], outputs[("text", True)]
    assert "\x1b" not in plain
    folder = r"arts/art\x1b[31m\u202e\x9b\t\n\x7f\x01/"
    finding_lines = [line for line in plain.splitlines() if line.startswith(folder)]
    assert len(finding_lines) == plain.count(" (compared with ") == 4
    assert "\x1b[1m" + folder in coloured and "\x1b[31merror\x1b[0m code-mismatch" in coloured
    assert OWN_SGR.sub("", coloured) == plain


def test_github_lines_stay_single_workflow_commands(outputs, document):
    lines = outputs[("github", False)].splitlines()
    assert len(lines) == sum(
        len([loc for loc in f["locations"] if loc["lang"] in f["langs"]]) or 1
        for f in document["findings"]
    )
    for line in lines:
        assert COMMAND.match(line), line
        assert r"file=arts/art\x1b[31m\u202e\x9b\t%0A\x7f\x01/" in line


@pytest.mark.parametrize("name", ["json", "sarif", "github", "markdown", "html"])
def test_color_changes_only_the_terminal_formats(outputs, name):
    assert outputs[(name, True)] == outputs[(name, False)]


# ---------------------------------------------------------------------------
# html


def test_html_shows_controls_as_visible_escapes(outputs):
    page = outputs[("html", False)]
    assert (
        "\t" not in BASE_STYLE + ARTICLE_STYLE + INDEX_STYLE + ARTICLE_SCRIPT + INDEX_SCRIPT
    )  # the templates write line feeds only
    assert raw_forbidden(page, allowed="\n\t") == set()
    for char in set(INJECTED) - {"\t"}:
        assert shown(char) in page, hex(ord(char))
    tree = parse_html(page).root
    codes = [n.text() for n in tree.find_all("pre", "pc-code")]
    assert any(code.startswith("value = 1 \\x01") and "\t" in code for code in codes)
    assert all(mark in page for mark in MARKS)


# ---------------------------------------------------------------------------
# json, sarif


def test_json_keeps_the_characters_as_data_with_json_escapes(outputs, document):
    text = outputs[("json", False)]
    assert raw_forbidden(text) == set()
    assert "\\u202e" in text and "\\u009b" in text and "\\u001b" in text
    # the plain json.dumps document but for those escapes
    assert text == json_inert(json.dumps(document, ensure_ascii=False, indent=2)) + "\n"


def test_sarif_validates_and_keeps_the_characters_as_data(outputs, document):
    text = outputs[("sarif", False)]
    assert raw_forbidden(text) == set()
    log = json.loads(text)
    _validate_sarif(log)  # skipped when the shared schema is not on this machine
    results = log["runs"][0]["results"]
    assert [r["message"]["text"] for r in results] == [f["message"] for f in document["findings"]]
    assert [r["properties"]["section"] for r in results] == [
        f["section"] for f in document["findings"]
    ]
    for result in results:
        assert result["properties"]["article"] == FOLDER
        for location in result["locations"]:
            uri = location["physicalLocation"]["artifactLocation"]["uri"]
            assert uri.startswith("arts/art%1B%5B31m%E2%80%AE%C2%9B%09%0A%7F%01/")


# ---------------------------------------------------------------------------
# What no file can deliver: NUL, CR, LF; a C1 byte of a non-UTF-8 name, in process

EVERYTHING = "".join(sorted(FORBIDDEN)) + "\udc80"


@pytest.fixture(scope="module")
def poisoned(tmp_path_factory) -> tuple[Report, Report]:
    """A report of the clean article and the same report with :data:`EVERYTHING` in every
    finding's section, message and paths."""
    base = write_set(tmp_path_factory.mktemp("poison"), "art", "")
    report = build_report(base / "arts", base, Config())
    findings = [
        dataclasses.replace(
            f,
            section=f"{f.section} {EVERYTHING}",
            message=f"{f.message} {EVERYTHING}",
            locations=tuple(
                Location(loc.lang, f"{loc.path}{EVERYTHING}", loc.line) for loc in f.locations
            ),
        )
        for f in report.findings
    ]
    return report, dataclasses.replace(report, findings=findings)


@pytest.mark.parametrize("name", FORMAT_NAMES)
def test_every_unsafe_character_is_inert_in_every_format(poisoned, name):
    report, bad = poisoned
    assert report.findings
    text = render(name, bad)
    text.encode("utf-8")  # the C1 byte of a file name is escaped too
    allowed = "\n\t" if name == "html" else "\n"
    assert raw_forbidden(text, allowed) == set()
    if name in HUMAN:
        assert text.count("\n") == render(name, report).count("\n")
    if name in ("json", "sarif"):
        parsed = json.loads(text)
        messages = (
            [f["message"] for f in parsed["findings"]]
            if name == "json"
            else [r["message"]["text"] for r in parsed["runs"][0]["results"]]
        )
        assert messages == [f.message for f in bad.findings]
    if name == "sarif":
        _validate_sarif(json.loads(text))
    if name == "github":
        assert len(text.splitlines()) == _expected_github_lines(bad)
        assert all(COMMAND.match(line) for line in text.splitlines())


def test_the_escape_convention():
    assert inert("a\x1b[6A\x1b[Jb") == r"a\x1b[6A\x1b[Jb"
    assert inert("\x1b]0;title\x07") == r"\x1b]0;title\x07"
    assert inert("x\ty\nz\rw\x00") == r"x\ty\nz\rw\x00"
    assert inert("\x7f\x85\x9b") == r"\x7f\x85\x9b"
    assert inert("abc\u202edef\u2066g\u2069") == r"abc\u202edef\u2066g\u2069"
    assert inert("\u2028\u2029\udc80") == r"\u2028\u2029\udc80"
    assert inert("caf\udce9") == "caf\udce9"  # written back as the byte 0xE9 by the CLI
    assert inert("a\tb\nc", keep="\n") == "a\\tb\nc"
    assert inert("عربي\u200f (1) \u200e\u061c שלום, 日本語 — ok") == (
        "عربي\u200f (1) \u200e\u061c שלום, 日本語 — ok"
    )
    assert all(escape_char(c) == shown(c) for c in EVERYTHING)
    assert json.loads(json_inert(json.dumps(EVERYTHING, ensure_ascii=False))) == EVERYTHING
    assert json_inert(json.dumps({"a": ["\u202e"]}, indent=2)) == json.dumps(
        {"a": ["\u202e"]}, indent=2
    )  # ensure_ascii output is left as it is
