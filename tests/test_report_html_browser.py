"""The html site in a real headless browser (Debian's Chromium), used as a reviewer uses it.

One browser for the module (:mod:`browser`: the DevTools protocol over a pipe) opens the
site of a small run — the user's article (errors and warnings), a token mismatch, an article
without findings, and one whose ja and zh-Hant versions hold the same Han characters — clicks,
types and scrolls with real input events, and checks what the page then shows.  Screenshots
of the index and of an article page are written to ``build/screenshots/`` (or to
``$PARALLELCHECK_SCREENSHOTS``) for a person to look at.

Skipped, saying why, when Chromium is not installed — except under CI (``CI`` set), where a
missing browser is a failure: ``.ci/run`` installs it (and the Noto CJK fonts the glyph test
needs; without them that test alone is skipped).
"""

from __future__ import annotations

import dataclasses
import os
import shutil
import struct
import subprocess
import zlib
from pathlib import Path

import pytest
from browser import Browser, find_chromium
from conftest import REPO
from test_report_formats import ARTICLE, PLAIN_EN, PLAIN_JA, build_report, hostile_report

from parallelcheck.config import Config
from parallelcheck.report.html_site import render_site
from parallelcheck.report.html_site.common import page_name

SCREENSHOTS = Path(os.environ.get("PARALLELCHECK_SCREENSHOTS", REPO / "build" / "screenshots"))
WIDTH, HEIGHT = 1280, 800
#: Han characters whose Japanese and Traditional Chinese glyphs differ.
GLYPHS = "直骨角化戸次海今令"
HEADER_BACKGROUND = (0xEE, 0xF1, 0xF5)  # .pc-aligned > thead th


def png_pixels(data: bytes) -> tuple[int, int, list[bytes]]:
    """Width, height and RGB rows of an 8-bit non-interlaced PNG (what Chromium writes)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, header = 8, b"", None
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
    assert header is not None
    width, height, depth, color, _, _, interlace = header
    assert depth == 8 and color in (2, 6) and interlace == 0, header
    step = 3 if color == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * step
    rows: list[bytes] = []
    previous = bytearray(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
        for i in range(stride):
            left = line[i - step] if i >= step else 0
            up = previous[i]
            corner = previous[i - step] if i >= step else 0
            if kind == 1:
                line[i] = (line[i] + left) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + up) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xFF
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                guess = left if pa <= pb and pa <= pc else (up if pb <= pc else corner)
                line[i] = (line[i] + guess) & 0xFF
        rows.append(bytes(line))
        previous = line
    return width, height, [bytes(r[i] for i in range(0, stride) if i % step < 3) for r in rows]


def share_of(rows: list[bytes], color: tuple[int, int, int]) -> float:
    pixels = [tuple(row[i : i + 3]) for row in rows for i in range(0, len(row), 3)]
    return sum(
        1 for p in pixels if all(abs(a - b) <= 3 for a, b in zip(p, color, strict=True))
    ) / len(pixels)


# ---------------------------------------------------------------------------
# The site and the browser


def write_articles(root: Path) -> None:
    shutil.copytree(REPO / "articles" / ARTICLE, root / ARTICLE)
    texts = {
        "plain": {"en.md": PLAIN_EN, "ja.md": PLAIN_JA},
        "tidy": {"en.md": "# Tidy\n\nVersion 3.1 ships.\n", "ja.md": "# 整\n\n3.1 版。\n"},
        "glyphs": {
            "en.md": f"# Glyphs\n\n{GLYPHS}\n\nVersion 3 ships today.\n",
            "ja.md": f"# 字形\n\n{GLYPHS}\n\nバージョン 3 を本日出荷。\n",
            "zh-Hant.md": f"# 字形\n\n{GLYPHS}\n\n今天發布第 4 版。\n",
        },
    }
    for article, files in texts.items():
        (root / article).mkdir()
        for name, text in files.items():
            (root / article / name).write_text(text, encoding="utf-8")


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """The site, written as the command line writes it; the user's missing sections made
    warnings, so that the article has two severities."""
    base = tmp_path_factory.mktemp("site")
    write_articles(base / "articles")
    report = build_report(base / "articles", base, Config())
    findings = [
        f.with_severity("warning") if f.rule == "missing-section" else f for f in report.findings
    ]
    report = dataclasses.replace(report, findings=findings)
    folder = base / "out"
    for path, text in render_site(report).items():
        (folder / path).parent.mkdir(parents=True, exist_ok=True)
        (folder / path).write_text(text, encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    if find_chromium() is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is not installed; .ci/run should have installed Debian's package")
        pytest.skip("chromium is not installed (apt-get install chromium); CI installs it")
    with Browser(tmp_path_factory.mktemp("profile"), WIDTH, HEIGHT) as opened:
        yield opened


def shot(browser: Browser, name: str) -> bytes:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return browser.screenshot(SCREENSHOTS / name)


def page(site: Path, article: str, query: str = "") -> str:
    return (site / "pages" / page_name(article)).as_uri() + query


SHOWN_ROWS = (
    "Array.from(document.querySelectorAll('.pc-entry')).filter(r => !r.hidden)"
    ".map(r => r.querySelector('th').firstChild.textContent)"
)
SHOWN_COLUMNS = (
    "Array.from(document.querySelectorAll('#pc-aligned thead th'))"
    ".filter(th => getComputedStyle(th).display !== 'none').map(th => th.dataset.col)"
)
SHOWN_FINDINGS = (
    "Array.from(document.querySelectorAll('.pc-finding')).filter(li => !li.hidden)"
    ".map(li => li.dataset.severity)"
)


# ---------------------------------------------------------------------------
# The index


def test_index_search_and_severity_filter(browser, site):
    browser.open((site / "index.html").as_uri())
    assert png_pixels(shot(browser, "index.png"))[:2] == (WIDTH, HEIGHT)
    # The inline style applied (its CSP hash was accepted): the header row is drawn.
    header = browser.screenshot_of(".pc-index thead th", "article")
    assert share_of(png_pixels(header)[2], HEADER_BACKGROUND) > 0.5
    everything = [ARTICLE, "glyphs", "plain", "tidy"]
    assert browser.evaluate(SHOWN_ROWS) == everything  # the script ran: the form is shown
    assert browser.evaluate("document.getElementById('pc-filters').hidden") is False
    # Typing in the search box finds an article by its title.
    browser.type("input[name='q']", "glyphs")
    assert browser.evaluate(SHOWN_ROWS) == ["glyphs"]
    assert browser.evaluate("document.getElementById('pc-status').textContent") == (
        "1 of 4 articles shown"
    )
    # Unticking "error" keeps the articles with warnings, counting warnings only.
    browser.open((site / "index.html").as_uri())
    browser.click("input[name='severity'][value='error']")
    assert browser.evaluate(SHOWN_ROWS) == [ARTICLE, "plain", "tidy"]
    counts = browser.evaluate(
        "Array.from(document.querySelectorAll('.pc-entry')[0].querySelectorAll('td.pc-n'))"
        ".map(td => td.textContent)"
    )
    assert counts == ["0", "4", "0"]  # the four missing sections, made warnings
    browser.click("input[name='clean']")  # articles without findings: off
    assert browser.evaluate(SHOWN_ROWS) == [ARTICLE, "plain"]
    shot(browser, "index-filtered.png")
    # A version's count opens the article with that version beside the source.
    href = browser.evaluate(
        "document.querySelector('.pc-entry td.pc-v:nth-of-type(5) a').getAttribute('href')"
    )
    assert href == f"pages/{page_name(ARTICLE)}?lang=ja"


# ---------------------------------------------------------------------------
# An article page


def test_article_page_header_stays_on_screen_and_columns_follow_the_choice(browser, site):
    browser.open(page(site, ARTICLE))
    shot(browser, "article.png")
    # The source and the version most different from it, side by side; the rest hidden.
    assert browser.evaluate(SHOWN_COLUMNS) == ["en", "ko"]
    # Each column carries its version's language.
    langs = browser.evaluate(
        "Array.from(document.querySelectorAll('#pc-aligned tbody tr:first-child td'))"
        ".map(td => [td.dataset.col, td.lang, td.matches(':lang(' + td.dataset.col + ')')])"
    )
    assert langs == [[lang, lang, True] for lang in ("en", "ja", "ko", "zh-Hant")]
    # Scrolled down with the mouse wheel, the header row is still at the top of the window.
    browser.scroll(4000)
    assert browser.evaluate("window.scrollY") > 3000
    top = browser.evaluate(
        "document.querySelector('#pc-aligned thead th').getBoundingClientRect().top"
    )
    assert abs(top) < 1
    shot(browser, "article-scrolled.png")
    _, _, rows = png_pixels(browser.screenshot_area(0, 0, WIDTH, 12))
    assert share_of(rows, HEADER_BACKGROUND) > 0.5  # drawn there, not just placed
    # Every version ticked in a narrow window: each column stays at least 16rem (256 px) wide
    # and the page scrolls sideways, rather than breaking words to fit.
    browser.click("#pc-col-1")
    browser.click("#pc-col-3")
    assert browser.evaluate(SHOWN_COLUMNS) == ["en", "ja", "ko", "zh-Hant"]
    browser.resize(800, HEIGHT)
    try:
        widths = browser.evaluate(
            "Array.from(document.querySelectorAll('#pc-aligned thead th'))"
            ".map(th => th.getBoundingClientRect().width)"
        )
        assert min(widths) >= 256, widths
        assert browser.evaluate("document.documentElement.scrollWidth") >= 4 * 256
    finally:
        browser.resize(WIDTH, HEIGHT)


def test_article_page_severity_filter_and_page_address(browser, site):
    browser.open(page(site, ARTICLE))
    assert sorted(browser.evaluate(SHOWN_FINDINGS)) == ["error"] * 4 + ["warning"] * 4
    browser.click("input[name='severity'][value='warning']")
    assert browser.evaluate(SHOWN_FINDINGS) == ["error"] * 4
    notes = browser.evaluate(
        "Array.from(document.querySelectorAll('.pc-note'))"
        ".filter(n => !n.hidden).map(n => n.dataset.rule)"
    )
    assert notes and "missing-section" not in notes
    status = browser.evaluate("document.getElementById('pc-status').textContent")
    assert status.startswith("Showing 4 of 8 findings")
    # The index's links: the source and the named version.
    browser.open(page(site, ARTICLE, "?lang=zh-Hant&severity=warning"))
    assert browser.evaluate(SHOWN_COLUMNS) == ["en", "zh-Hant"]
    assert browser.evaluate(SHOWN_FINDINGS) == ["warning"] * 4


def test_article_markup_never_runs_or_becomes_elements(browser, tmp_path):
    report = hostile_report(tmp_path / "set")
    folder = tmp_path / "out"
    for path, text in render_site(report).items():
        (folder / path).parent.mkdir(parents=True, exist_ok=True)
        (folder / path).write_text(text, encoding="utf-8")
    for target in ("index.html", f"pages/{page_name(report.articles[1].id)}"):
        browser.open((folder / target).as_uri())
        assert "pwned" not in browser.evaluate("document.title")
        assert browser.evaluate("document.images.length") == 0
        assert browser.evaluate("document.scripts.length") == 1
        handlers = browser.evaluate(
            "Array.from(document.querySelectorAll('*')).filter(el => Array.from(el.attributes)"
            ".some(a => a.name.startsWith('on'))).length"
        )
        assert handlers == 0
        assert browser.evaluate("document.getElementById('pc-filters').hidden") is False
    text = browser.evaluate("document.body.innerText")
    assert "<script>document.title='pwned'</script>" in text


# ---------------------------------------------------------------------------
# Glyphs


def _fonts(family: str) -> bool:
    found = subprocess.run(
        ["fc-list", f":lang={family}", "family"], capture_output=True, text=True, check=False
    )
    return "CJK" in found.stdout


def test_glyphs_follow_each_versions_language(browser, site):
    if not (_fonts("ja") and _fonts("zh-tw")):
        if os.environ.get("CI"):
            pytest.fail("the Noto CJK fonts are not installed; .ci/run installs fonts-noto-cjk")
        pytest.skip("no CJK fonts for ja and zh-TW (apt-get install fonts-noto-cjk)")
    browser.open(page(site, "glyphs", "?lang=ja&lang=zh-Hant"))
    assert browser.evaluate(SHOWN_COLUMNS) == ["en", "ja", "zh-Hant"]
    cell = "#pc-aligned td[data-col='{}'] .pc-p"
    fonts = {lang: browser.fonts_of(cell.format(lang), GLYPHS) for lang in ("ja", "zh-Hant")}
    assert any("JP" in name for name in fonts["ja"]), fonts
    assert any("TC" in name for name in fonts["zh-Hant"]), fonts
    crops = {
        lang: png_pixels(browser.screenshot_of(cell.format(lang), GLYPHS))[2]
        for lang in ("ja", "zh-Hant")
    }
    assert crops["ja"] != crops["zh-Hant"]  # the same characters, drawn differently
    shot(browser, "glyphs.png")
