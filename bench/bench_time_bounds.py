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
  take 30 s (tests/test_workers.py::test_a_generator_closed_early_kills_its_workers_at_once), 5 s;
* ``config-alias-bomb``: ``check`` refusing a configuration that is a YAML alias bomb, found or
  given with ``--config``, the slower of the two, Python's start-up included
  (tests/test_robust_inputs.py::test_config_alias_bomb_is_refused_fast), 3 s;
* ``hostile-glossary-cli``: every command that reads a glossary refusing each hostile one (an
  alias bomb, a 64 MB file, a Python tag, …), the slowest command and file
  (tests/test_robust_inputs.py::test_hostile_glossary_is_refused), 3 s;
* ``hostile-glossary-loader``: ``load_glossaries`` refusing each of those files in process, the
  slowest (tests/test_robust_inputs.py::test_hostile_glossary_loader_in_process), 2 s;
* ``deep-nesting``: ``check`` of an article whose versions nest 10,000 quotes or lists deep,
  the slowest of the four shapes, start-up included (tests/test_robust_inputs.py::
  test_10000_deep_nesting), 30 s;
* ``long-list``: ``check`` of a 20,000-item list that ja has one item short of, every rule
  (tests/test_robust_inputs.py::test_20000_item_list), 45 s;
* ``symlink-loops``: ``check`` of a root whose folders link to their parent, to themselves and
  to each other (tests/test_robust_inputs.py::test_symlink_loops_do_not_hang), 20 s;
* ``sparse-5gb``: ``check`` of an article with a 5 GB sparse version, refused as too large
  without reading it (tests/test_red_team_files.py::
  test_a_5_gb_sparse_version_is_a_finding_at_once), 20 s;
* ``baseline-dev-zero``: ``check --baseline /dev/zero`` refused without reading it
  (tests/test_red_team_files.py::test_baseline_dev_zero_is_refused_at_once), 20 s;
* ``link-to-root``: ``check`` of a folder holding a symbolic link to ``/``, never walked
  (tests/test_red_team_files.py::test_a_link_to_the_root_folder_is_not_walked), 20 s;
* ``version-50mb``: ``check --quiet`` of an article whose ja version is the user's article
  repeated to 50 MB (tests/test_robust_inputs.py::test_50_mb_version_completes, which runs
  with ``PARALLELCHECK_SLOW=1``), 300 s; also prints the peak memory of the check.
"""

from __future__ import annotations

import argparse
import os
import subprocess
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

    results = workers.complete_largest_first(_slowly, [0, 1, 2, 3], [9, 1, 1, 1], jobs=2)
    assert next(results) == (0, 0)
    children = multiprocessing.active_children()
    start = time.perf_counter()
    results.close()
    elapsed = time.perf_counter() - start
    assert not any(child.is_alive() for child in children)
    return elapsed


def _alias_bomb(last_key: str) -> str:
    """Nine levels of nine aliases each under ``last_key`` (as tests/test_robust_inputs.py)."""
    lines = ['a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    previous = "a"
    for name in "bcdefghi":
        lines.append(f"{name}: &{name} [" + ", ".join([f"*{previous}"] * 9) + "]")
        previous = name
    lines.append(f"{last_key}: *i")
    return "\n".join(lines) + "\n"


#: The hostile glossaries of tests/test_robust_inputs.py (every one is refused).
HOSTILE_GLOSSARIES = {
    "python-tag": "terms:\n  - id: x\n    en: !!python/object/apply:os.system ['true']\n",
    "alias-bomb": _alias_bomb("terms"),
    "recursive-alias": "terms: &t [*t]\n",
    "oversized": "terms:\n# " + "x" * 64_000_000 + "\n",
    "unknown-key": "terms: []\nextra: 1\n",
    "unknown-term-key": "terms:\n  - id: x\n    en: {term: a, bogus: b}\n    ja: {term: b}\n",
}


def _project(folder: Path) -> Path:
    """``folder`` holding articles/art with two clean versions."""
    article = folder / "articles" / "art"
    article.mkdir(parents=True)
    for name in ("en.md", "ja.md"):
        (article / name).write_text("# Title\n\nSome text.\n", encoding="utf-8")
    return folder


def _refused_in(cwd: Path, *args: str) -> float:
    """The wall time of ``python -m parallelcheck ARGS`` in ``cwd``, which must exit 2."""
    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "parallelcheck", *args], cwd=cwd, capture_output=True, timeout=120
    )
    elapsed = time.perf_counter() - start
    assert proc.returncode == 2, (args, proc.stdout[-500:], proc.stderr[-500:])
    return elapsed


def config_alias_bomb(_corpus: Path) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        project = _project(Path(tmp))
        (project / "bomb.yaml").write_text(_alias_bomb("languages"), encoding="utf-8")
        given = _refused_in(project, "check", "--config", "bomb.yaml")
        (project / "bomb.yaml").rename(project / "parallelcheck.yaml")
        return max(given, _refused_in(project, "check"))


def hostile_glossary_cli(_corpus: Path) -> float:
    commands = (
        ["glossary", "lint", "glossary/terms.yaml"],
        ["check", "--glossary", "glossary/terms.yaml"],
        ["check"],
    )
    slowest = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        project = _project(Path(tmp))
        (project / "glossary").mkdir()
        for text in HOSTILE_GLOSSARIES.values():
            (project / "glossary" / "terms.yaml").write_text(text, encoding="utf-8")
            for command in commands:
                slowest = max(slowest, _refused_in(project, *command))
    return slowest


def hostile_glossary_loader(_corpus: Path) -> float:
    from parallelcheck.errors import InputError
    from parallelcheck.glossary import load_glossaries

    slowest = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        for case, text in HOSTILE_GLOSSARIES.items():
            path = Path(tmp) / f"{case}.yaml"
            path.write_text(text, encoding="utf-8")
            start = time.perf_counter()
            try:
                load_glossaries([str(path)])
            except InputError:
                slowest = max(slowest, time.perf_counter() - start)
            else:
                raise AssertionError(f"{case}: not refused")
    return slowest


def _checked_in(cwd: Path, *args: str, refused: bool = False) -> float:
    """The wall time of ``python -m parallelcheck ARGS`` in ``cwd``, which must exit 0 or 1
    (2 when *refused*)."""
    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "parallelcheck", *args], cwd=cwd, capture_output=True, timeout=900
    )
    elapsed = time.perf_counter() - start
    expected = (2,) if refused else (0, 1)
    assert proc.returncode in expected, (args, proc.stdout[-500:], proc.stderr[-500:])
    return elapsed


def _two_versions(folder: Path, en: str | bytes, ja: str | bytes) -> Path:
    """``folder/art`` holding ``en.md`` and ``ja.md``; returns ``folder``."""
    article = folder / "art"
    article.mkdir(parents=True)
    for name, text in (("en.md", en), ("ja.md", ja)):
        data = text if isinstance(text, bytes) else text.encode("utf-8")
        (article / name).write_bytes(data)
    return folder


def deep_nesting(_corpus: Path) -> float:
    head = "# Title\n\nIntro.\n\n"
    slowest = 0.0
    for prefix in (">" * 10_000 + " ", "- " * 10_000, "> - " * 5_000, "1. " * 10_000):
        with tempfile.TemporaryDirectory() as tmp:
            en, ja = head + prefix + "deep 1234 units\n", head + prefix + "深さ 1235 units\n"
            folder = _two_versions(Path(tmp), en, ja)
            slowest = max(slowest, _checked_in(folder, "check", "art", "--format", "json"))
    return slowest


def long_list(_corpus: Path) -> float:
    items = "".join(f"- entry {'x' * (i % 7)}\n" for i in range(20_000))
    with tempfile.TemporaryDirectory() as tmp:
        folder = _two_versions(
            Path(tmp), "# List\n\n" + items, "# リスト\n\n" + items[: items.rindex("- entry")]
        )
        return _checked_in(folder, "check", "art", "--format", "json", "--no-cache")


def symlink_loops(_corpus: Path) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "articles"
        for name in ("a", "b"):
            _two_versions(root / name, "# T\n\nText 1.\n", "# T\n\nテキスト 1。\n")
        (root / "a" / "art" / "up").symlink_to("..")  # a loop through the root
        (root / "b" / "art" / "self").symlink_to(".")  # a folder containing itself
        (root / "a" / "art" / "to-b").symlink_to("../../b/art")  # b reached twice
        (root / "x").symlink_to("y")  # links pointing at each other (ELOOP)
        (root / "y").symlink_to("x")
        return _checked_in(Path(tmp), "check", "articles", "--format", "json")


def sparse_5gb(_corpus: Path) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        folder = _two_versions(Path(tmp), "# T\n\nText 1.\n", "# T\n\nテキスト 1。\n")
        try:
            with open(folder / "art" / "ko.md", "wb") as handle:
                handle.truncate(5 * 1024**3)
        except OSError as error:
            raise Skip(f"the file system refuses a 5 GB sparse file: {error}") from None
        return _checked_in(folder, "check", "art", "--format", "json")


def baseline_dev_zero(_corpus: Path) -> float:
    if not os.path.exists("/dev/zero"):
        raise Skip("no /dev/zero")
    with tempfile.TemporaryDirectory() as tmp:
        folder = _two_versions(Path(tmp), "# T\n\nText 1.\n", "# T\n\nテキスト 1。\n")
        return _checked_in(folder, "check", "art", "--baseline", "/dev/zero", refused=True)


def link_to_root(_corpus: Path) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        folder = _two_versions(Path(tmp), "# T\n\nText 1.\n", "# T\n\nテキスト 1。\n")
        (folder / "art" / "everything").symlink_to("/", target_is_directory=True)
        return _checked_in(folder, "check", "art", "--format", "json")


def version_50mb(_corpus: Path) -> float:
    import resource

    shipped = ROOT / "articles" / "deepinfer-vs-lmdeploy"
    source = (shipped / "ja.md").read_bytes()
    with tempfile.TemporaryDirectory() as tmp:
        folder = _two_versions(Path(tmp), (shipped / "en.md").read_bytes(), b"")
        with open(folder / "art" / "ja.md", "wb") as handle:
            for _ in range(50 * 1024 * 1024 // len(source) + 1):
                handle.write(source)
        elapsed = _checked_in(folder, "check", "art", "--format", "json", "--quiet")
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024
    print(f"{'':32} peak memory of a check so far: {peak} MB")
    return elapsed


#: name → (measure, budget in seconds)
SCENARIOS: dict[str, tuple[Callable[[Path], float], float]] = {
    "discover-fastapi": (discover_fastapi, 0.5),
    "script-profile-fastapi": (script_profile_fastapi, 2.5),
    "untranslated-long-list": (untranslated_long_list, 2.0),
    "ja-term-matching": (ja_term_matching, 2.0),
    "generator-close-kills-workers": (generator_close_kills_workers, 5.0),
    "config-alias-bomb": (config_alias_bomb, 3.0),
    "hostile-glossary-cli": (hostile_glossary_cli, 3.0),
    "hostile-glossary-loader": (hostile_glossary_loader, 2.0),
    "deep-nesting": (deep_nesting, 30.0),
    "long-list": (long_list, 45.0),
    "symlink-loops": (symlink_loops, 20.0),
    "sparse-5gb": (sparse_5gb, 20.0),
    "baseline-dev-zero": (baseline_dev_zero, 20.0),
    "link-to-root": (link_to_root, 20.0),
    "version-50mb": (version_50mb, 300.0),
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
