"""The layering of the package, kept by import-linter's contracts in pyproject.toml (one per
layer: the model and text primitives know no stage, readers know nothing of rules, alignment
nothing of glossary or history, rules never read files or print and reach language
identification only through facts, formatters see only findings and the aligned article)."""

from __future__ import annotations

import pkgutil
import shutil
import subprocess
import sys
import tomllib
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
    contracts = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"][
        "importlinter"
    ]["contracts"]
    assert len(contracts) >= 10
    assert f"{len(contracts)} kept, 0 broken" in result.stdout


def test_no_module_is_named_like_a_standard_library_module():
    import parallelcheck

    names = {
        info.name.rsplit(".", 1)[-1]
        for info in pkgutil.walk_packages(parallelcheck.__path__, "parallelcheck.")
    }
    assert len(names) > 40
    assert not names & set(sys.stdlib_module_names)


def test_rules_and_formats_are_found_by_their_modules_alone():
    from parallelcheck.report import FORMATS
    from parallelcheck.rules import REGISTRY

    assert {"text", "json"} <= set(FORMATS)
    for rule in REGISTRY.values():
        assert rule.doc and rule.doc != rule.summary, f"{rule.id} has no documentation"
        assert rule.severity in ("error", "warning", "info")
