"""Generated tests of ``check --fix`` over real pages: break a translation, fix, check again.

Each page is a source and one translation: the repository's own ``tests/fix_pages/first-app``
(always there) and a handful of real pages of the shared corpora (FastAPI in Markdown, Astro
in MDX; skipped when the corpora are not on this machine).  First the page is fixed as it
stands (``--fix --unsafe-fixes``, so drift it already has is out of the way: the *pristine*
page).  Then, one at a time, mechanical drift is injected into the translation — a number in
a code block, a name in a code block, a code block's language tag, a link's target, a
heading's explicit id, an include directive — and ``check --fix`` must:

* have found it: a finding of the expected rule at the broken line, with a fix of the
  expected applicability (a changed name is a word the source's code lacks: unsafe; the rest
  is safe), and the plain ``--fix`` must leave an unsafe one alone;
* give back the pristine translation byte for byte — the broken line changed back and no
  other line touched (so no prose either);
* leave the source byte for byte as it was;
* report, on its check after fixing, exactly the pristine page's findings.

A table removed from a translation is put back by ``--unsafe-fixes`` as the source's table
under a "translation needed" line, everything else untouched.

The checks run in this process (click's runner): the process boundary is not what is tested.
"""

from __future__ import annotations

import contextlib
import json
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import CORPUS, PROFILE, REPO

from parallelcheck.cli import cli
from parallelcheck.model.document import BlockKind
from parallelcheck.readers import parse_text
from parallelcheck.text.listings.form import code_tokens, syntax_for


@dataclass(frozen=True)
class Page:
    """A source file and one translation, copied into ``layout`` under a temporary root."""

    name: str
    source: Path
    version: Path
    layout: tuple[str, str]  # where each is copied, relative to the root


def _pages() -> list[Page]:
    own = REPO / "tests" / "fix_pages" / "first-app"
    pages = [
        Page("first-app/ja", own / "en.md", own / "ja.md", ("a/en.md", "a/ja.md")),
        Page("first-app/de", own / "en.md", own / "de.md", ("a/en.md", "a/de.md")),
    ]
    fastapi = CORPUS / "fastapi"
    for article, lang in [
        ("tutorial__first-steps", "ko"),
        ("tutorial__path-params", "de"),
        ("tutorial__bigger-applications", "ja"),
    ]:
        folder = fastapi / article
        pages.append(
            Page(
                f"fastapi/{article}/{lang}",
                folder / "en.md",
                folder / f"{lang}.md",
                ("a/en.md", f"a/{lang}.md"),
            )
        )
    astro = CORPUS / "astro-docs"
    page = "basics/astro-components.mdx"
    pages.append(
        Page(
            f"astro/{page}/fr",
            astro / "en" / page,
            astro / "fr" / page,
            (f"en/{page}", f"fr/{page}"),
        )
    )
    return pages


PAGES = _pages()
#: Pages whose translation has a table to leave out.
TABLE_PAGES = [
    PAGES[0],
    Page(
        "fastapi/tutorial__metadata/ja",
        CORPUS / "fastapi" / "tutorial__metadata" / "en.md",
        CORPUS / "fastapi" / "tutorial__metadata" / "ja.md",
        ("a/en.md", "a/ja.md"),
    ),
]


@dataclass(frozen=True)
class Breakage:
    """One line of a translation changed: ``old`` becomes ``new`` at ``line``; ``rule`` must
    report it there, with a fix that is ``unsafe`` or not."""

    kind: str
    rule: str
    line: int
    old: str
    new: str
    unsafe: bool = False


_DIGITS = re.compile(r"\d+")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{3,}")
_KEYWORDS = {"import", "from", "return", "async", "await", "const", "export", "class", "True"}


def breakages(source_text: str, version_text: str, path: str) -> list[Breakage]:
    """The breakages of a translation, in the order of its blocks (read by its reader): at
    most one of each kind on a line."""
    kind = "mdx" if path.endswith(".mdx") else "markdown"
    version = parse_text(version_text, path, "xx", kind)
    source = parse_text(source_text, "en" + path[-4:], "en", kind)
    lines = version_text.split("\n")
    found: dict[tuple[str, int], Breakage] = {}

    def add(breakage: Breakage | None) -> None:  # one of each kind on a line
        if breakage is not None and breakage.old != breakage.new:
            found.setdefault((breakage.kind, breakage.line), breakage)

    for block in _blocks(version):
        if block.kind is BlockKind.CODE:
            for made in _code_breakages(block, lines):
                add(made)
        for link in block.links:
            add(_link_breakage(link.target, link.line, lines))
    source_ids = {s.anchor for s in source.sections if s.anchor}
    for section in version.sections:
        if section.anchor and section.anchor in source_ids and section.level > 1:
            old = lines[section.line - 1]
            new = old.replace(f"#{section.anchor}", f"#{section.anchor}-old", 1)
            add(Breakage("heading-id", "heading-id", section.line, old, new))
    return list(found.values())


def _blocks(document):
    stack = [b for s in document.sections for b in s.blocks][::-1]
    while stack:
        block = stack.pop()
        yield block
        stack.extend(block.children[::-1])


def _code_breakages(block, lines: list[str]):
    info = block.info.split()[:1]
    if info == ["include"]:
        old = lines[block.line - 1]
        digit = _DIGITS.search(old)
        if digit:
            new = old[: digit.start()] + str(int(digit.group()) + 1) + old[digit.end() :]
            yield Breakage("include", "code-mismatch", block.line, old, new)
        return
    if info == ["directive"] or not block.text:
        return
    numbers = block.file_lines()
    if info and numbers[0] == block.line + 1:  # a fenced block with a language tag
        old = lines[block.line - 1]
        if old.count(info[0]) == 1:
            new = old.replace(info[0], info[0] + "x")
            yield Breakage("info-string", "code-mismatch", block.line, old, new)
    text = block.text
    starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]
    for token, start, _ in code_tokens(text, syntax_for(text, block.info)):
        if token is None:
            continue
        row = max(i for i, s in enumerate(starts) if s <= start)
        line = numbers[row]
        old = lines[line - 1]
        inner = text[starts[row] : starts[row + 1] - 1 if row + 1 < len(starts) else len(text)]
        if not old.endswith(inner):
            continue
        column = len(old) - len(inner) + start - starts[row]
        if token.isdigit():
            new = old[:column] + str(int(token) + 1) + old[column + len(token) :]
            yield Breakage("code-number", "code-mismatch", line, old, new)
        elif _NAME.fullmatch(token) and token not in _KEYWORDS:
            new = old[: column + len(token)] + "Zq" + old[column + len(token) :]
            yield Breakage("code-name", "code-mismatch", line, old, new, unsafe=True)


def _link_breakage(target: str, line: int, lines: list[str]) -> Breakage | None:
    """The link's target changed in the last letter of its page, when it stands once on its
    line — not another site's page in a localised copy (``…/fr/docs/…``, whose fix is
    unsafe: that site may localise otherwise)."""
    if "://" in target and re.search(r"/[a-z]{2}(?:-[A-Za-z]{2,4})?/", target.split("://")[1]):
        return None
    page = target.split("#")[0].split("?")[0]
    letters = [i for i, ch in enumerate(page) if ch.isascii() and ch.isalpha()]
    old = lines[line - 1]
    if "/" not in page or not letters or old.count(target) != 1:
        return None
    at = letters[-1]
    changed = page[:at] + ("q" if page[at] != "q" else "x") + page[at + 1 :]
    return Breakage(
        "link", "link-mismatch", line, old, old.replace(target, changed + target[len(page) :])
    )


# ---------------------------------------------------------------------------------------


def _check(root: Path, *options: str) -> tuple[int, dict, str]:
    """``check . --format json --no-cache --jobs 1 OPTIONS`` in ``root``, in this process
    (paths are relative to ``root``): exit status, the findings document, standard error."""
    with contextlib.chdir(root):
        result = CliRunner().invoke(
            cli, ["check", ".", "--format", "json", "--no-cache", "--jobs", "1", *options]
        )
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, json.loads(result.stdout), result.stderr


def _findings(document: dict) -> list[dict]:
    return [{k: v for k, v in f.items() if k != "fix"} for f in document["findings"]]


def _copy(page: Page, root: Path) -> tuple[Path, Path]:
    source, version = (root / part for part in page.layout)
    for origin, target in ((page.source, source), (page.version, version)):
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(origin, target)
    return source, version


@pytest.fixture(scope="module")
def pristine(tmp_path_factory):
    """Per page: the folder of its pristine copy (fixed as it stands), and its findings."""
    made: dict[str, tuple[Path, list[dict]]] = {}

    def get(page: Page) -> tuple[Path, list[dict]]:
        if page.name not in made:
            if not page.version.exists():
                pytest.skip(f"{page.version} is not available on this machine")
            root = tmp_path_factory.mktemp("pristine")
            _copy(page, root)
            _check(root, "--fix", "--unsafe-fixes")
            _, document, _ = _check(root)
            made[page.name] = (root, _findings(document))
        return made[page.name]

    return get


KINDS = ("code-number", "code-name", "info-string", "include", "link", "heading-id")


#: How many places of each kind a page's breakages are made at: the first under the default
#: ("ci") profile, up to 12 with HYPOTHESIS_PROFILE=full.
PLACES = 12 if PROFILE == "full" else 1


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("page", PAGES, ids=[page.name for page in PAGES])
def test_a_broken_line_is_fixed_back_and_nothing_else_changes(tmp_path, pristine, page, kind):
    root, findings = pristine(page)
    source, version = (root / part for part in page.layout)
    made = breakages(
        source.read_text(encoding="utf-8"), version.read_text(encoding="utf-8"), page.layout[1]
    )
    places = [b for b in made if b.kind == kind][:PLACES]
    if not places:
        pytest.skip(f"{page.name} has no place for a {kind} breakage")
    for number, breakage in enumerate(places):
        _break_and_fix(root, tmp_path / str(number), page, breakage, findings)


def _break_and_fix(root: Path, work: Path, page: Page, breakage: Breakage, findings) -> None:
    """Break the pristine page in ``work`` as ``breakage`` says, and check that the breakage
    is found with a fix of its applicability, that ``--fix`` gives back the pristine page
    byte for byte and leaves the source alone, and that what is reported then is what the
    pristine page gives."""
    shutil.copytree(root, work)
    source, version = (work / part for part in page.layout)
    before_source, fixed = source.read_bytes(), version.read_bytes()
    text = fixed.decode("utf-8").split("\n")
    text[breakage.line - 1] = breakage.new
    version.write_bytes("\n".join(text).encode("utf-8"))

    _, broken, _ = _check(work)
    found = [
        f
        for f in broken["findings"]
        if f["rule"] == breakage.rule
        and any(
            loc["path"] == page.layout[1] and loc["line"] == breakage.line for loc in f["locations"]
        )
    ]
    assert found, f"{breakage} not reported: {[f['message'] for f in broken['findings']]}"
    fix = found[0].get("fix")
    assert fix is not None, found[0]["message"]
    assert fix["applicability"] == ("unsafe" if breakage.unsafe else "safe"), (breakage, fix)

    if breakage.unsafe:  # the plain --fix leaves it
        _, _, said = _check(work, "--fix")
        assert version.read_bytes() != fixed, said
    _, after, said = _check(work, "--fix", *(["--unsafe-fixes"] if breakage.unsafe else []))
    assert "fixed 1 finding in 1 file" in said, (breakage, said)
    assert version.read_bytes() == fixed, f"{breakage}: the translation is not the pristine one"
    assert source.read_bytes() == before_source
    assert _findings(after) == findings, breakage


def test_the_repository_s_own_page_has_a_place_for_every_kind_of_breakage():
    page = PAGES[0]
    made = breakages(
        page.source.read_text(encoding="utf-8"),
        page.version.read_text(encoding="utf-8"),
        page.layout[1],
    )
    assert {b.kind for b in made} == set(KINDS)


@pytest.mark.parametrize("page", TABLE_PAGES, ids=[p.name for p in TABLE_PAGES])
def test_a_table_left_out_is_copied_back_under_a_translation_needed_line(tmp_path, page):
    if not page.version.exists():
        pytest.skip(f"{page.version} is not available on this machine")
    source, version = _copy(page, tmp_path)
    kept = [
        line for line in version.read_text(encoding="utf-8").split("\n") if not line.startswith("|")
    ]
    version.write_text("\n".join(kept), encoding="utf-8")
    _, _, said = _check(tmp_path, "--fix")
    assert "1 more with --unsafe-fixes" in said
    _, after, said = _check(tmp_path, "--fix", "--unsafe-fixes")
    assert not [f for f in after["findings"] if f["rule"] == "missing-table"]
    lines = version.read_text(encoding="utf-8").split("\n")
    table = [
        line for line in source.read_text(encoding="utf-8").split("\n") if line.startswith("|")
    ]
    start = lines.index(table[0])
    assert lines[start - 2 : start] == ["<!-- parallelcheck: translation needed (en) -->", ""]
    assert lines[start : start + len(table)] == table
    assert lines[: start - 3] + lines[start + len(table) :] == kept
