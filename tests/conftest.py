"""Shared test helpers: where the shared corpus and seeds are, and a way to run the checker."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

# Every run the tests make, in process or as a subprocess, caches into a private folder.
os.environ.setdefault("PARALLELCHECK_CACHE_DIR", tempfile.mkdtemp(prefix="pc-test-cache-"))

REPO = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("PARALLELCHECK_SHARED", REPO.parent / "shared"))
SEEDS = SHARED / "seeds"
CORPUS = SHARED / "corpus"


def need(path: Path) -> Path:
    """Skip the calling test, saying why, when shared material is not on this machine."""
    if not path.exists():
        pytest.skip(f"{path} is not available on this machine")
    return path


@pytest.fixture(scope="session")
def run_check():
    """Check a folder through discovery, configuration and the engine, as the CLI does."""
    from parallelcheck.config import load_config
    from parallelcheck.discover import discover
    from parallelcheck.engine import CheckOptions, check_all
    from parallelcheck.rules import REGISTRY

    def run(path: Path, **options):
        config = load_config(None, cwd=str(path), known_rules=REGISTRY)
        sets = discover([str(path)], root=str(path), cwd=os.getcwd())
        results = list(check_all(sets, config, CheckOptions(**options)))
        return results, [f for r in results for f in r.findings]

    return run
