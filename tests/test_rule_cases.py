"""Rule cases as data: every folder in tests/cases is a small article set with expected.yaml.

Each expected finding gives its rule, deviating and reference versions, and the line in every
version; ``message_contains`` optionally checks the wording.  The run must give exactly the
expected findings — nothing missing, nothing extra.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

CASES = Path(__file__).parent / "cases"


def _cases():
    return sorted(p.name for p in CASES.iterdir() if (p / "expected.yaml").exists())


@pytest.mark.parametrize("name", _cases())
def test_rule_case(name, run_check):
    expected = yaml.safe_load((CASES / name / "expected.yaml").read_text(encoding="utf-8"))
    _, findings = run_check(CASES / name)
    got = [
        (
            f.rule,
            list(f.langs),
            list(f.reference_langs),
            {loc.lang: loc.line for loc in f.locations},
        )
        for f in findings
    ]
    want = [(e["rule"], e["langs"], e["reference_langs"], e["lines"]) for e in expected["findings"]]
    assert sorted(got, key=repr) == sorted(want, key=repr), expected["about"]
    for entry in expected["findings"]:
        if "message_contains" in entry:
            messages = [f.message for f in findings if f.rule == entry["rule"]]
            assert any(entry["message_contains"] in m for m in messages), messages


def test_every_rule_of_issue_two_has_a_failing_case():
    rules = set()
    for name in _cases():
        expected = yaml.safe_load((CASES / name / "expected.yaml").read_text(encoding="utf-8"))
        rules |= {e["rule"] for e in expected["findings"]}
    structural = {
        "missing-section",
        "missing-paragraph",
        "missing-table",
        "table-shape",
        "list-shape",
        "heading-level",
        "code-mismatch",
        "link-mismatch",
    }
    assert structural <= rules
