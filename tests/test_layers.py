"""The layering of ARCHITECTURE.md, kept by import-linter's contracts in pyproject.toml:
readers know nothing of rules, rules never read files or print, formatters see only findings
and the aligned article."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from conftest import REPO


def test_import_contracts_hold():
    command = shutil.which("lint-imports", path=str(Path(sys.executable).parent))
    assert command, "import-linter is part of the test extra"
    result = subprocess.run(
        [command, "--config", str(REPO / "pyproject.toml")],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "3 kept, 0 broken" in result.stdout


def test_rules_and_formats_are_found_by_their_modules_alone():
    from parallelcheck.report import FORMATS
    from parallelcheck.rules import REGISTRY

    assert {"text", "json"} <= set(FORMATS)
    for rule in REGISTRY.values():
        assert rule.doc and rule.doc != rule.summary, f"{rule.id} has no documentation"
        assert rule.severity in ("error", "warning", "info")
