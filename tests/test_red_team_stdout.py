"""Standard output that cannot take the report (issue 17, case 13): a full device, a closed
descriptor, a reader that goes away.  Each is one line and a status, never an internal error."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import write_article

EN = "# Guide\n\nThe server answers within 250 ms.\n\n## Extra\n\nOnly here.\n"
JA = "# ガイド\n\nサーバーは 250 ms 以内に応答します。\n"


@pytest.fixture
def article(tmp_path: Path) -> Path:
    write_article(tmp_path / "articles" / "guide", {"en.md": EN, "ja.md": JA})
    return tmp_path


def run(cwd: Path, *args: str, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "parallelcheck", "check", "--no-cache", *args],
        cwd=cwd,
        capture_output="stdout" not in kwargs,
        stderr=subprocess.PIPE if "stdout" in kwargs else None,
        text=True,
        timeout=120,
        check=False,
        **kwargs,
    )


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full here")
def test_a_full_device_is_exit_two_with_one_line(article: Path) -> None:
    with open("/dev/full", "w") as full:
        proc = run(article, stdout=full)
    assert proc.returncode == 2
    assert proc.stderr.strip() == (
        "parallelcheck: error: cannot write the report to standard output: No space left on device"
    )


def test_a_closed_standard_output_is_exit_two_unless_the_report_goes_to_a_file(
    article: Path,
) -> None:
    closed = run(article, stdout=subprocess.DEVNULL, preexec_fn=lambda: os.close(1))
    assert closed.returncode == 2
    assert "standard output is closed" in closed.stderr
    assert "internal error" not in closed.stderr
    written = run(article, "--output", "report.txt", stdout=subprocess.DEVNULL,
                  preexec_fn=lambda: os.close(1))  # fmt: skip
    assert written.returncode == 1  # the finding, written to the file
    assert "missing-section" in (article / "report.txt").read_text(encoding="utf-8")


def test_a_reader_that_goes_away_ends_the_run_quietly_with_its_status(article: Path) -> None:
    # Enough output to fill a pipe: the reader closes after one byte.
    for index in range(40):
        write_article(article / "articles" / f"copy{index}", {"en.md": EN * 20, "ja.md": JA})
    process = subprocess.Popen(
        [sys.executable, "-m", "parallelcheck", "check", "--no-cache", "--format", "json"],
        cwd=article,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdout is not None and process.stderr is not None
    process.stdout.read(1)
    process.stdout.close()
    status = process.wait(timeout=120)
    assert status == 1
    assert process.stderr.read() == b""
