"""Benchmark: the time bounds the test suite used to assert, measured and printed.

Usage: python bench/bench_time_bounds.py [--check] [--only NAME] [--corpus FOLDER]

Each measurement is a scenario a test still checks for its behaviour (tests/ asserts no
wall-clock time any more, so that a loaded machine cannot fail the suite).  Every line prints
the scenario, its time and its budget; with ``--check`` the script exits 1 when any scenario
is over its budget (the budgets are the ones the tests had, generous for a slow machine).
Scenarios needing the shared corpus are skipped, saying so, when it is not on this machine.

Scenarios (the test that keeps the behaviour):

* ``discover-fastapi``: discovery of the FastAPI corpus, 124 sets × 13 languages
  (tests/test_discover.py::test_fastapi_corpus), budget 0.5 s;
* ``script-profile-fastapi``: script_profile over every prose block of the FastAPI corpus,
  best of two passes (tests/test_script.py::test_script_pass_over_the_fastapi_corpus), 2.5 s;
* ``untranslated-long-list``: the untranslated rule over a 2,500-item list
  (tests/test_robust_inputs.py::test_untranslated_rule_on_a_long_list), 2 s;
* ``ja-term-matching``: the Japanese glossary matching of the user's whole article
  (tests/test_terms_matching.py::test_japanese_matching_of_the_whole_article), 2 s;
* ``generator-close-kills-workers``: closing a worker-pool generator whose other items would
  take 30 s (tests/test_workers.py::test_a_generator_closed_early_kills_its_workers_at_once), 5 s.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_CORPUS = Path(os.environ.get("PARALLELCHECK_SHARED", ROOT.parent / "shared")) / "corpus"


class Skip(Exception):
    """A scenario that cannot run on this machine."""


def discover_fastapi(corpus: Path) -> float:
    from parallelcheck.discover.sets import discover

    root = corpus / "fastapi"
    if not root.is_dir():
        raise Skip(f"{root} is not on this machine")
    start = time.perf_counter()
    sets = discover([str(root)], cwd=str(root.parent))
    elapsed = time.perf_counter() - start
    assert len(sets) == 124
    return elapsed


def script_profile_fastapi(corpus: Path) -> float:
    from parallelcheck.model.document import BlockKind
    from parallelcheck.readers import read_document
    from parallelcheck.text.langtag import canonical_tag
    from parallelcheck.text.script import is_latin_language, script_profile

    root = corpus / "fastapi"
    if not root.is_dir():
        raise Skip(f"{root} is not on this machine")
    texts = []
    for path in sorted(root.glob("*/*.md")):
        lang = canonical_tag(path.stem) or "en"
        names = not is_latin_language(lang)
        for block in read_document(str(path), lang).iter_blocks():
            if block.kind not in (BlockKind.CODE, BlockKind.HTML):
                texts.append((block.text, block.all_code_spans(), names))
    best = float("inf")
    for _ in range(2):
        start = time.perf_counter()
        for text, spans, names in texts:
            script_profile(text, spans, capitalised_are_names=names)
        best = min(best, time.perf_counter() - start)
    return best


def untranslated_long_list(_corpus: Path) -> float:
    from parallelcheck.config import Config
    from parallelcheck.discover.sets import discover
    from parallelcheck.engine import CheckOptions
    from parallelcheck.run.pipeline import check_all

    items = "".join(f"- entry {'x' * (i % 7)}\n" for i in range(2_500))
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "art"
        folder.mkdir()
        (folder / "en.md").write_text("# List\n\n" + items, encoding="utf-8")
        (folder / "ja.md").write_text(
            "# リスト\n\n" + items[: items.rindex("- entry")], encoding="utf-8"
        )
        sets = discover([str(folder)], root=str(folder), cwd=os.getcwd())
        start = time.perf_counter()
        list(check_all(sets, Config(), CheckOptions(jobs=1, select=("untranslated",))))
        return time.perf_counter() - start


def ja_term_matching(_corpus: Path) -> float:
    from parallelcheck.glossary import load_glossaries
    from parallelcheck.glossary.match import find_terms, ja_pipeline

    glossary = load_glossaries([str(ROOT / "glossary")])
    text = (ROOT / "articles/deepinfer-vs-lmdeploy/ja.md").read_text(encoding="utf-8")
    ja_pipeline()
    start = time.perf_counter()
    hits = find_terms(text + " ", "ja", glossary)
    elapsed = time.perf_counter() - start
    assert [h.term_id for h in hits].count("kv-cache") >= 3
    return elapsed


def _slowly(item: int) -> int:
    time.sleep(0.05 if item == 0 else 30)
    return item


def generator_close_kills_workers(_corpus: Path) -> float:
    import multiprocessing

    from parallelcheck.run import workers

    results = workers.map_largest_first(_slowly, [0, 1, 2, 3], [9, 1, 1, 1], jobs=2)
    assert next(results) == 0
    children = multiprocessing.active_children()
    start = time.perf_counter()
    results.close()
    elapsed = time.perf_counter() - start
    assert not any(child.is_alive() for child in children)
    return elapsed


#: name → (measure, budget in seconds)
SCENARIOS: dict[str, tuple[Callable[[Path], float], float]] = {
    "discover-fastapi": (discover_fastapi, 0.5),
    "script-profile-fastapi": (script_profile_fastapi, 2.5),
    "untranslated-long-list": (untranslated_long_list, 2.0),
    "ja-term-matching": (ja_term_matching, 2.0),
    "generator-close-kills-workers": (generator_close_kills_workers, 5.0),
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when over a budget")
    parser.add_argument("--only", action="append", choices=sorted(SCENARIOS), help="repeatable")
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    args = parser.parse_args(argv)

    over = []
    for name in args.only or SCENARIOS:
        measure, budget = SCENARIOS[name]
        try:
            elapsed = measure(args.corpus)
        except Skip as why:
            print(f"{name:32} skipped: {why}")
            continue
        verdict = "ok" if elapsed < budget else "OVER BUDGET"
        print(f"{name:32} {elapsed:8.3f} s  (budget {budget:g} s)  {verdict}")
        if elapsed >= budget:
            over.append(name)
    if args.check and over:
        print(f"over budget: {', '.join(over)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
