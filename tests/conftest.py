"""Shared test helpers: where the shared corpus and seeds are, and ways to run the checker (the
command line in this process or as a subprocess, the engine in process, each corpus once per
test run)."""

from __future__ import annotations

import atexit
import gc
import os
import pickle
import shutil
import signal
import subprocess
import sys
import tempfile
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import pytest

try:
    import fcntl
except ImportError:  # pragma: no cover - not on Windows: each worker makes its own
    fcntl = None

T = TypeVar("T")

# Every run the tests make, in process or as a subprocess, caches into a private folder: one
# per test process, so each pytest-xdist worker gets its own (a worker inherits the variable
# from the process that started it, so a folder this file made is replaced, never shared).  A
# folder given in the environment by whoever runs the tests is kept.
_OWN_CACHE = "PARALLELCHECK_TEST_OWN_CACHE_DIR"
if "PARALLELCHECK_CACHE_DIR" not in os.environ or os.environ.get(_OWN_CACHE) == os.environ.get(
    "PARALLELCHECK_CACHE_DIR"
):
    _cache_dir = tempfile.mkdtemp(prefix="pc-test-cache-")
    os.environ["PARALLELCHECK_CACHE_DIR"] = os.environ[_OWN_CACHE] = _cache_dir
    atexit.register(shutil.rmtree, _cache_dir, ignore_errors=True)

REPO = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("PARALLELCHECK_SHARED", REPO.parent / "shared"))
SEEDS = SHARED / "seeds"
CORPUS = SHARED / "corpus"


def run_cli(
    *args: str,
    cwd: Path,
    env: dict | None = None,
    timeout: float = 120,
    without: tuple[str, ...] = (),
    **kwargs,
) -> subprocess.CompletedProcess:
    """``python -m parallelcheck ARGS`` in ``cwd`` as a subprocess, its output as UTF-8 text;
    ``env`` on top of this process's environment less ``PARALLELCHECK_DEBUG`` (so that an
    internal error stays the one-line message) and less the variables starting with one of
    ``without`` (``("GIT_",)`` when this test may run inside a git hook); ``kwargs`` go to
    :func:`subprocess.run`."""
    environment = {
        k: v
        for k, v in os.environ.items()
        if k != "PARALLELCHECK_DEBUG" and not (without and k.startswith(without))
    }
    environment.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "parallelcheck", *args],
        cwd=cwd,
        env=environment,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=timeout,
        **kwargs,
    )


def invoke(
    *args: str,
    cwd: Path,
    env: dict | None = None,
    without: tuple[str, ...] = (),
    input: str | bytes | None = None,
    errors: str = "strict",
    timeout: float = 120,
) -> subprocess.CompletedProcess:
    """``parallelcheck ARGS`` in ``cwd`` as :func:`run_cli` runs it, but in this process: the
    real entry point (:func:`parallelcheck.cli.main`, with its handling of bad input and of
    internal errors) under click's :class:`~click.testing.CliRunner` isolation, its exit
    status, standard output and standard error (decoded as UTF-8 with ``errors``) in a
    :class:`subprocess.CompletedProcess`.  ``env`` and ``without`` as for :func:`run_cli`;
    ``input`` is standard input.  A warning the run raises that a fresh interpreter would
    print is on its standard error, as there.  A run still going after ``timeout`` seconds
    is stopped (``SIGALRM``) with :class:`subprocess.TimeoutExpired`, as :func:`run_cli`
    stops its process: a guard against a hang, not a speed bound.

    A small fraction of the processor time of a subprocess (no interpreter to start, nothing
    to import again): use it wherever the process itself is not under test.  Use
    :func:`run_cli` where it is — string hashing and set order (``PYTHONHASHSEED``), exit by
    a signal, a closed or full standard output, resource limits, arguments that are not
    UTF-8, a hang no signal handler would break (one inside a C function that does not
    return to Python) — and keep a :func:`run_cli` of each outcome a module asserts, so that
    ``python -m parallelcheck`` itself stays covered."""
    from click.testing import CliRunner

    from parallelcheck import cli
    from parallelcheck.history import git

    git.clear_cache()  # the work trees a fresh process would look for again
    cli._stopped_by, cli._reported = None, False
    environment: dict[str, str | None] = {"PARALLELCHECK_DEBUG": None}
    environment.update({k: None for k in os.environ if without and k.startswith(without)})
    environment.update(env or {})
    handlers = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    thresholds, argv, here = gc.get_threshold(), sys.argv, os.getcwd()
    status: int | str | None = 0
    command = ["parallelcheck", *map(str, args)]
    alarm = signal.signal(signal.SIGALRM, _hung)
    with CliRunner().isolation(input=input, env=environment) as (out, err, _):
        try:
            signal.setitimer(signal.ITIMER_REAL, timeout)
            os.chdir(cwd)
            sys.argv = command
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("default")  # a fresh interpreter's filters
                for category in _SILENT_WARNINGS:
                    warnings.simplefilter("ignore", category)
                try:
                    cli.main()
                except SystemExit as exit_:
                    status = exit_.code
        except _Hung:
            raise subprocess.TimeoutExpired(command, timeout) from None
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, alarm)
            os.chdir(here)
            sys.argv = argv
            for signum, handler in handlers.items():
                signal.signal(signum, handler)
            gc.unfreeze()  # what spare_final_collection froze for an exit that is not one
            gc.set_threshold(*thresholds)
            cli._stopped_by, cli._reported = None, False
        for warning in caught:
            message = warnings.formatwarning(
                warning.message, warning.category, warning.filename, warning.lineno
            )
            sys.stderr.write(message)
        if isinstance(status, str):  # sys.exit("message"): printed, status 1
            sys.stderr.write(status + "\n")
            status = 1
        sys.stdout.flush()
        sys.stderr.flush()
        stdout, stderr = out.getvalue(), err.getvalue()
    return subprocess.CompletedProcess(
        command,
        0 if status is None else status,
        stdout.decode("utf-8", errors),
        stderr.decode("utf-8", errors),
    )


class _Hung(BaseException):
    """Raised by ``SIGALRM`` in a run of :func:`invoke` that outlived its timeout: a
    :class:`BaseException`, so that the entry point does not take it for an internal error."""


def _hung(_signum: int, _frame: object) -> None:
    raise _Hung


#: Warnings a fresh interpreter does not print (outside ``__main__``).
_SILENT_WARNINGS = (DeprecationWarning, PendingDeprecationWarning, ImportWarning, ResourceWarning)


def written_site(folder: Path) -> str:
    """Every file of an html site the command line wrote to *folder* (``--output folder``):
    the index, then the pages in name order, one after the other."""
    pages = sorted((folder / "pages").iterdir())
    return "\n".join(p.read_text(encoding="utf-8") for p in [folder / "index.html", *pages])


def report_options(output_format: str, folder: Path) -> list[str]:
    """The options of ``check`` that write a report in *output_format* where
    :func:`written_report` reads it: standard output, or for html (a site of several files)
    the folder *folder*."""
    return [
        "--format",
        output_format,
        *(["--output", str(folder)] if output_format == "html" else []),
    ]


def written_report(proc: subprocess.CompletedProcess, output_format: str, folder: Path) -> str:
    """The report a run given :func:`report_options` wrote (nothing when it wrote no site)."""
    if output_format != "html":
        return proc.stdout
    return written_site(folder) if (folder / "index.html").exists() else ""


def write_article(folder: Path, files: dict[str, str | bytes]) -> Path:
    """``folder`` (made, with its parents, when missing) holding ``files``: text written as
    UTF-8 with LF newlines, bytes as they are."""
    folder.mkdir(parents=True, exist_ok=True)
    for file_name, content in files.items():
        path = folder / file_name
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8", newline="\n")
    return folder


#: Fixed names, and neither the user's nor the system's git configuration, for repositories
#: the tests make.
GIT_ISOLATED = {
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_AUTHOR_NAME": "Author",
    "GIT_AUTHOR_EMAIL": "author@example.com",
    "GIT_COMMITTER_NAME": "Committer",
    "GIT_COMMITTER_EMAIL": "committer@example.com",
}


def parse_versions(**texts: str) -> dict:
    """Markdown documents by language tag from ``lang=text`` keywords (``zh_Hant`` is
    ``zh-Hant``), each read as ``<lang>.md``: the input of ``align_article``."""
    from parallelcheck.readers import parse_text

    return {
        lang.replace("_", "-"): parse_text(text, f"{lang}.md", lang.replace("_", "-"), "markdown")
        for lang, text in texts.items()
    }


def rule_findings(article, rule_id: str) -> list:
    """The findings one registered rule makes on an aligned article."""
    from parallelcheck.rules import REGISTRY

    return list(REGISTRY[rule_id].run(article))


def isolate_git(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make git in this test ignore inherited ``GIT_*`` variables (a test run inside a git
    hook has ``GIT_DIR``) and any configuration, with fixed author and committer."""
    for variable in [v for v in os.environ if v.startswith("GIT_")]:
        monkeypatch.delenv(variable)
    for variable, value in GIT_ISOLATED.items():
        monkeypatch.setenv(variable, value)


def need(path: Path) -> Path:
    """Skip the calling test, saying why, when shared material is not on this machine."""
    if not path.exists():
        pytest.skip(f"{path} is not available on this machine")
    return path


@pytest.fixture(scope="session")
def run_check():
    """Check a folder through discovery, configuration and the engine, as the CLI does."""
    from parallelcheck.config import load_config
    from parallelcheck.discover.sets import discover
    from parallelcheck.engine import CheckOptions
    from parallelcheck.rules import REGISTRY
    from parallelcheck.run.pipeline import check_all

    def run(path: Path, **options):
        config = load_config(None, cwd=str(path), known_rules=REGISTRY)
        sets = discover([str(path)], root=str(path), cwd=os.getcwd())
        results = list(check_all(sets, config, CheckOptions(**options)))
        return results, [f for r in results for f in r.findings]

    return run


# ---------------------------------------------------------------------------
# Hypothesis: the "ci" profile (the default) runs the slow properties with fewer examples;
# HYPOTHESIS_PROFILE=full runs every property with its full budget.

PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "ci")


def examples(full: int) -> int:
    """The ``max_examples`` of a slow property: ``full`` under the "full" profile, half of it
    (at least 20) under "ci".  Only properties that take seconds use this."""
    return full if PROFILE == "full" else max(20, full // 2)


try:
    from hypothesis import settings as _settings
except ImportError:  # pragma: no cover - hypothesis is a test dependency
    pass
else:
    _settings.register_profile("ci", deadline=None)
    _settings.register_profile("full", deadline=None)
    _settings.load_profile(PROFILE)


# ---------------------------------------------------------------------------
# One run of each shared corpus per session, shared by every test that reads it.

_CORPUS_RUNS: dict[tuple, tuple] = {}


def corpus_run(name: str, **options) -> tuple[list, list, list]:
    """``(sets, results, findings)`` of one in-process run over ``CORPUS / name`` (discovered
    with itself as the root, the default configuration, ``CheckOptions(jobs=2, **options)``);
    made once per session for each corpus and options, and skipped when the corpus is not on
    this machine.  Callers must not change what they get."""
    key = (name, tuple(sorted(options.items())))
    if key not in _CORPUS_RUNS:
        from parallelcheck.config import Config
        from parallelcheck.discover.sets import discover
        from parallelcheck.engine import CheckOptions
        from parallelcheck.run.pipeline import check_all

        root = need(CORPUS / name)
        sets = discover([str(root)], root=str(root))
        results = list(check_all(sets, Config(), CheckOptions(**{"jobs": 2, **options})))
        _CORPUS_RUNS[key] = (sets, results, [f for r in results for f in r.findings])
    return _CORPUS_RUNS[key]


@pytest.fixture(scope="session")
def fastapi_run(tmp_path_factory):
    """:func:`corpus_run` of the FastAPI corpus (124 articles × 13 languages), every rule; made
    once per test run (:func:`once_per_run`)."""
    return once_per_run(tmp_path_factory, "run-fastapi", lambda: corpus_run("fastapi"))


@pytest.fixture(scope="session")
def fastapi_drift_run(tmp_path_factory):
    """:func:`corpus_run` of ``fastapi-2025-08-31`` (the same site a year earlier), every rule;
    made once per test run (:func:`once_per_run`)."""
    return once_per_run(
        tmp_path_factory, "run-fastapi-drift", lambda: corpus_run("fastapi-2025-08-31")
    )


# ---------------------------------------------------------------------------
# Under pytest-xdist (``-n``, pyproject.toml) each worker is a process with its own session
# fixtures: what takes seconds to make is made by one worker and read by the others.


def run_folder(tmp_path_factory) -> Path:
    """The temporary folder of this test run: under pytest-xdist, the one shared by every
    worker (their own are inside it); otherwise the session's own."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def once_per_run(tmp_path_factory, name: str, make: Callable[[], T]) -> T:
    """``make()``, made once for the whole test run: under pytest-xdist, the first worker to
    ask makes it and pickles it into the run's shared temporary folder (holding a lock there
    meanwhile); the others wait for it and read it.  In a run without workers it is plain
    ``make()``.  When ``make`` fails or skips, nothing is kept and the next worker tries."""
    if not os.environ.get("PYTEST_XDIST_WORKER") or fcntl is None:
        return make()
    folder = run_folder(tmp_path_factory)
    made = folder / f"{name}.pickle"
    with open(folder / f"{name}.lock", "wb") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file is closed
        if made.exists():
            return pickle.loads(made.read_bytes())
        value = make()
        partial = folder / f"{name}.pickle.partial"
        partial.write_bytes(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))
        partial.replace(made)
        return value
