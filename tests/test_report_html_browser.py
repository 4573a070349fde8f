"""The HTML report in a real headless browser (Debian's Chromium).

Skipped, saying why, when Chromium is not installed — except under CI (``CI`` set), where a
missing browser is a failure: ``.ci/run`` installs it.
"""

from __future__ import annotations

import os
import shutil
import struct
import subprocess
import zlib
from pathlib import Path

import pytest
from test_report_formats import (
    LANGS,
    _aligned_header,
    check_head_to_head,
    hostile_report,
    parse_html,
    user_report,
)

from parallelcheck.report import FORMATS

CHROMIUM = "/usr/bin/chromium"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def chromium() -> str:
    found = CHROMIUM if os.path.exists(CHROMIUM) else shutil.which("chromium")
    if found:
        return found
    if os.environ.get("CI"):
        pytest.fail("chromium is not installed; .ci/run should have installed Debian's package")
    pytest.skip("chromium is not installed (apt-get install chromium); CI installs it")


def run_chromium(tmp: Path, *args: str) -> subprocess.CompletedProcess:
    profile = tmp / "profile"
    profile.mkdir(exist_ok=True)
    return subprocess.run(
        [chromium(), *FLAGS, f"--user-data-dir={profile}", *args],
        capture_output=True,
        text=True,
        encoding="utf-8",
        errors="replace",
        timeout=60,
        cwd=tmp,
        stdin=subprocess.DEVNULL,
    )


def dump_dom(tmp: Path, page: Path, query: str = "") -> str:
    result = run_chromium(tmp, "--dump-dom", page.as_uri() + query)
    assert result.returncode == 0, result.stderr[-2000:]
    assert "<html" in result.stdout, result.stderr[-2000:]
    return result.stdout


def write_page(tmp: Path, text: str) -> Path:
    page = tmp / "report.html"
    page.write_text(text, encoding="utf-8")
    return page


def png_pixels(data: bytes) -> tuple[int, int, list[bytes]]:
    """Width, height and raw RGB(A) rows of an 8-bit non-interlaced PNG (what Chromium
    writes)."""
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


def test_screenshot_of_the_user_article(tmp_path):
    page = write_page(tmp_path, FORMATS["html"](user_report()))
    shot = tmp_path / "shot.png"
    result = run_chromium(
        tmp_path, f"--screenshot={shot}", "--window-size=1600,1200", page.as_uri()
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert shot.exists() and shot.stat().st_size > 10_000
    width, height, rows = png_pixels(shot.read_bytes())
    assert (width, height) == (1600, 1200)
    # The inline style applied (its CSP hash was accepted): the red severity badges are there.
    red = sum(
        1
        for row in rows
        for i in range(0, len(row), 3)
        if abs(row[i] - 0xC6) < 12 and abs(row[i + 1] - 0x28) < 12 and abs(row[i + 2] - 0x28) < 12
    )
    assert red > 200, red


def test_dumped_dom_shows_versions_side_by_side_and_the_missing_tables(tmp_path):
    page = write_page(tmp_path, FORMATS["html"](user_report()))
    dom = parse_html(dump_dom(tmp_path, page))
    (table,) = dom.root.find_all("table", "pc-aligned")
    assert _aligned_header(table) == LANGS
    check_head_to_head(table)
    # The script ran (its CSP hash was accepted): it showed the filters.
    (form,) = dom.root.find_all("form")
    assert "hidden" not in form.attrs
    assert len(form.find_all("input")) == 3 + 4 + 1  # rules, versions, rows


def test_article_markup_never_runs_or_becomes_elements(tmp_path):
    report = hostile_report(tmp_path / "set")
    html_text = FORMATS["html"](report)
    assert "<script>document.title" not in html_text
    page = write_page(tmp_path, html_text)
    dumped = dump_dom(tmp_path, page)
    dom = parse_html(dumped)
    assert [t.text() for t in dom.root.find_all("title")] == ["parallelcheck report"]
    scripts = dom.root.find_all("script")
    assert len(scripts) == 1 and "pc-filters" in scripts[0].text()
    assert not dom.root.find_all("img")
    for node in dom.root.iter():
        assert not any(name.startswith("on") for name in node.attrs), (node.tag, node.attrs)
    text = dom.root.text()
    assert "<script>document.title='pwned'</script>" in text
    assert "<img src=x onerror=\"document.title='pwned'\">" in text
    assert "pwned" not in "".join(t.text() for t in dom.root.find_all("title"))
    (form,) = dom.root.find_all("form")
    assert "hidden" not in form.attrs  # our own script did run


def test_filters_from_the_page_address(tmp_path):
    page = write_page(tmp_path, FORMATS["html"](user_report()))
    query = "?rule=missing-table&lang=en&lang=ko&marked=1"
    dom = parse_html(dump_dom(tmp_path, page, query))
    findings = dom.root.find_all("li", "pc-finding")
    shown = [f.attrs["data-rule"] for f in findings if "hidden" not in f.attrs]
    assert shown == ["missing-table", "missing-table"]
    (table,) = dom.root.find_all("table", "pc-aligned")
    (head,) = table.kids("thead")
    shown_cols = [th.attrs["data-col"] for th in head.find_all("th") if "hidden" not in th.attrs]
    assert shown_cols == ["en", "ko"]
    rows = [row for row in table.find_all("tr", "pc-row") if "hidden" not in row.attrs]
    assert len(rows) == 2
    for row in rows:
        cells = {td.attrs["data-col"]: td for td in row.kids("td")}
        assert "pc-missing" in cells["en"].classes and "pc-ref" in cells["ko"].classes
        assert "hidden" in cells["ja"].attrs and "hidden" in cells["zh-Hant"].attrs
    notes = [n for n in table.find_all("div", "pc-note") if "hidden" not in n.attrs]
    assert {n.attrs["data-rule"] for n in notes} == {"missing-table"}
    quiet = table.find_all("td", "pc-quiet")
    assert quiet and all("pc-marked" in td.classes for td in quiet)
