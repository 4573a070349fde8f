"""bench/compare_installs.py's summary of two differing outputs, on small hand-made findings."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "bench" / "compare_installs.py"


def _load():
    spec = importlib.util.spec_from_file_location("compare_installs", BENCH)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look the module up by name
    spec.loader.exec_module(module)
    return module


compare_installs = _load()


def _finding(rule: str, message: str, line: int = 1) -> dict:
    return {
        "rule": rule,
        "severity": "error",
        "article": "a",
        "locations": [{"lang": "en", "path": "/x/en.md", "line": line}],
        "message": message,
    }


def test_diff_findings_by_rule_as_multisets():
    same = _finding("missing-paragraph", "p")
    twice = _finding("number-mismatch", "42 vs 43")
    a = [same, twice, twice, _finding("link-mismatch", "old", line=3)]
    b = [
        dict(same),
        twice,
        _finding("link-mismatch", "old", line=4),
        _finding("code-mismatch", "c"),
    ]
    diff = compare_installs.diff_findings(a, b)
    assert list(diff) == ["code-mismatch", "link-mismatch", "number-mismatch"]
    assert diff["number-mismatch"] == ([twice], [])
    only_a, only_b = diff["link-mismatch"]
    assert [f["locations"][0]["line"] for f in only_a] == [3]
    assert [f["locations"][0]["line"] for f in only_b] == [4]
    assert diff["code-mismatch"] == ([], [_finding("code-mismatch", "c")])
    assert compare_installs.diff_findings(a, list(reversed(a))) == {}


def _run(stdout: bytes, status: int = 1):
    return compare_installs.Run(stdout=stdout, stderr=b"", status=status, seconds=0.0)


def test_summarise_json_and_text():
    a = {"findings": [_finding("missing-paragraph", "gone")], "summary": {"findings": 1}}
    b = {"findings": [], "summary": {"findings": 0}}
    lines = compare_installs.summarise(
        "json", _run(json.dumps(a).encode()), _run(json.dumps(b).encode(), status=0)
    )
    assert lines[0] == "exit status 1 (A) vs 0 (B)"
    row = next(line for line in lines if "missing-paragraph" in line)
    assert row.split()[:3] == ["missing-paragraph", "1", "0"]
    assert "other keys differ: summary" in lines

    lines = compare_installs.summarise("text", _run(b"same\nleft\n"), _run(b"same\nright\nmore\n"))
    assert lines == [
        "line 2, column 1:",
        "  A: left",
        "  B: right",
        "line 3, column 1:",
        "  A: <end of output>",
        "  B: more",
    ]
    long_a, long_b = "x" * 200 + "A" + "y" * 200, "x" * 200 + "B" + "y" * 200
    lines = compare_installs.first_differing_lines(long_a.encode(), long_b.encode(), width=30)
    assert lines == [
        "line 1, column 201:",
        "  A: …" + "x" * 10 + "A" + "y" * 19 + "…",
        "  B: …" + "x" * 10 + "B" + "y" * 19 + "…",
    ]
