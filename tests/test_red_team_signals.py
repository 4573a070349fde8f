"""Red team: stopping a run (issue 17, cases 5 and 6).

Real runs of the command line (``python -m parallelcheck check --jobs 2``) over a copy of the
FastAPI corpus, which takes several seconds, are signalled at several moments:

* SIGTERM and SIGINT (Ctrl-C) end the run with one line, ``parallelcheck: interrupted``, and
  exit status 143 / 130 — no traceback, no click "Aborted!" (exit 1);
* SIGKILL ends it at once (status -9);
* whatever the signal, no report file and no temporary file beside it is left, and no
  process of the run — the main process's workers included — is alive two seconds later (a
  worker left behind used to sit for ever, its parent gone, blocked writing to a pipe).

A run that is not interrupted still writes its report and exits 0/1, and a run interrupted
while filling the cache leaves only entries that a later run can use.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import CORPUS, need, once_per_run, run_folder

pytestmark = pytest.mark.skipif(
    not Path("/proc/self/stat").exists() or not hasattr(os, "killpg"),
    reason="finds the processes of a run in /proc (Linux)",
)

INTERRUPTED = "parallelcheck: interrupted\n"

#: How long every process of a run may take to end after the signal (seconds).
GRACE = 2.0


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    """A writable copy of the FastAPI corpus (124 articles × 13 languages), made once for the
    test run (its workers share it, and so the paths in the reference report).

    All of it: with ``--jobs 2`` a run of the whole corpus takes some 9 s on a quiet two-core
    machine, so a signal sent at 3 s comes mid-run; a run of 20 articles is over in 2.5 s."""

    def make() -> Path:
        source = need(CORPUS / "fastapi")
        copy = run_folder(tmp_path_factory) / "signals" / "fastapi"
        shutil.copytree(source, copy, copy_function=shutil.copyfile)
        for folder, _, _ in os.walk(copy):
            os.chmod(folder, 0o755)
        return copy

    return once_per_run(tmp_path_factory, "signals-corpus", make)


def _reset_stop_signals() -> None:
    """In the child before exec: SIGINT and SIGTERM as a terminal gives them (a shell that
    started the tests in the background may have left SIGINT ignored, and the command
    line keeps an ignored signal ignored)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


class Run:
    """One ``check --jobs 2 --format json --output`` of the corpus, in its own session (so
    that its process group holds exactly its processes)."""

    def __init__(self, corpus: Path, folder: Path, *options: str, env: dict | None = None):
        self.folder = folder
        self.out_dir = folder / "out"
        self.out_dir.mkdir(parents=True)
        self.output = self.out_dir / "report.json"
        self.stderr_path = folder / "stderr.txt"
        with open(self.stderr_path, "wb") as stderr:
            # stderr to a file, not a pipe: a worker left alive would hold a pipe open
            self.process = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "parallelcheck",
                    "check",
                    str(corpus),
                    "--jobs",
                    "2",
                    "--format",
                    "json",
                    "--output",
                    str(self.output),
                    *options,
                ],
                cwd=folder,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=stderr,
                start_new_session=True,
                preexec_fn=_reset_stop_signals,
                env={**os.environ, **(env or {})},
            )
        self.pid = self.process.pid  # also the process group's id

    @property
    def stderr(self) -> str:
        return self.stderr_path.read_text(encoding="utf-8", errors="replace")

    def members(self) -> set[int]:
        """The living processes of the run: in its process group, or children of its main
        process (zombies, dead but not yet reaped, do not count)."""
        found = set()
        for name in os.listdir("/proc"):
            if not name.isdigit():
                continue
            try:
                stat = Path("/proc", name, "stat").read_text()
            except OSError:
                continue
            # pid (comm) state ppid pgrp ...: comm may hold spaces and parentheses
            state, ppid, pgrp = stat[stat.rindex(")") + 2 :].split()[:3]
            if state in ("Z", "X"):
                continue
            if int(pgrp) == self.pid or int(ppid) == self.pid:
                found.add(int(name))
        return found

    def wait_until_gone(self, since: float) -> set[int]:
        """The processes of the run still alive ``GRACE`` seconds after *since*."""
        while True:
            alive = self.members()
            if not alive or time.monotonic() > since + GRACE:
                return alive
            time.sleep(0.05)

    def kill_leftovers(self) -> None:
        """Whatever the test found, leave no process of the run behind."""
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=30)
        for pid in self.members():
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def _signal_at(run: Run, signum: int, delay: float, group: bool) -> float:
    """Send *signum* to the run's main process (or its whole process group, as a terminal's
    Ctrl-C does) *delay* seconds after it started; returns when it was sent.  From 2 s on,
    the signal is meant to come while the worker processes run: on a loaded machine, where
    they start later, it waits for them."""
    started = time.monotonic()
    time.sleep(delay)
    while delay >= 2 and not run.members() - {run.pid} and run.process.poll() is None:
        assert time.monotonic() < started + 120, "no worker process started"
        time.sleep(0.05)
    status = run.process.poll()
    assert status is None, (
        f"the run ended within {time.monotonic() - started:.1f} s (status {status}), before "
        f"the signal: {run.stderr or 'the corpus is too small here'}"
    )
    sent = time.monotonic()
    if group:
        os.killpg(run.pid, signum)
    else:
        os.kill(run.pid, signum)
    return sent


CASES = [
    pytest.param(signal.SIGTERM, 1.0, False, id="SIGTERM-1s"),
    pytest.param(signal.SIGTERM, 3.0, False, id="SIGTERM-3s"),
    pytest.param(signal.SIGINT, 1.0, False, id="SIGINT-1s"),
    pytest.param(signal.SIGINT, 3.0, False, id="SIGINT-3s"),
    pytest.param(signal.SIGKILL, 1.0, False, id="SIGKILL-1s"),
    pytest.param(signal.SIGKILL, 3.0, False, id="SIGKILL-3s"),
    # a terminal's Ctrl-C goes to the whole foreground process group, workers included
    pytest.param(signal.SIGINT, 2.0, True, id="Ctrl-C-group-2s"),
    # as `kill -- -PGID`, a service manager or `timeout --foreground` may send it
    pytest.param(signal.SIGTERM, 2.0, True, id="SIGTERM-group-2s"),
]


@pytest.mark.parametrize(("signum", "delay", "group"), CASES)
def test_a_signalled_run_stops_cleanly(corpus, tmp_path, signum, delay, group):
    run = Run(corpus, tmp_path, "--no-cache")
    try:
        sent = _signal_at(run, signum, delay, group)
        status = run.process.wait(timeout=30)
        alive = run.wait_until_gone(sent)
        assert not alive, f"processes of the run still alive {GRACE} s after the signal: {alive}"
        if signum == signal.SIGKILL:
            assert status == -signal.SIGKILL
            assert "Traceback" not in run.stderr
        else:
            assert status == 128 + signum, run.stderr
            assert run.stderr == INTERRUPTED  # one line: no traceback, no "Aborted!"
        assert os.listdir(run.out_dir) == [], "a report or a temporary file was left"
    finally:
        run.kill_leftovers()


@pytest.fixture(scope="module")
def reference(corpus, tmp_path_factory) -> dict:
    """The report of a run of the corpus that is not interrupted (without the cache), made
    once for the test run."""

    def make() -> dict:
        run = Run(corpus, tmp_path_factory.mktemp("whole"), "--no-cache")
        try:
            status = run.process.wait(timeout=300)
            assert not run.wait_until_gone(time.monotonic()), "workers outlived the run"
            assert "Traceback" not in run.stderr and "interrupted" not in run.stderr
            assert os.listdir(run.out_dir) == ["report.json"], "a temporary file was left"
            report = json.loads(run.output.read_text(encoding="utf-8"))
        finally:
            run.kill_leftovers()
        return {"status": status, "report": report}

    return once_per_run(tmp_path_factory, "signals-reference", make)


def test_a_run_not_interrupted_writes_its_report_and_exits_as_before(reference):
    report = reference["report"]
    assert report["summary"]["articles"] == 124
    assert reference["status"] == (1 if report["summary"]["error"] else 0)


def test_a_run_interrupted_while_filling_the_cache_leaves_only_usable_entries(
    corpus, tmp_path, reference
):
    """Entries are written as results come in; one being written when the signal comes is
    never half there.  A later run takes what was written and gives the same report as a
    run without the cache."""
    cache = {"PARALLELCHECK_CACHE_DIR": str(tmp_path / "cache")}
    first = Run(corpus, tmp_path / "first", env=cache)
    try:
        sent = _signal_at(first, signal.SIGINT, 3.0, group=True)
        assert first.process.wait(timeout=30) == 128 + signal.SIGINT, first.stderr
        assert not first.wait_until_gone(sent)
        assert first.stderr == INTERRUPTED
    finally:
        first.kill_leftovers()
    second = Run(corpus, tmp_path / "second", env=cache)
    try:
        assert second.process.wait(timeout=300) == reference["status"], second.stderr
        assert json.loads(second.output.read_text(encoding="utf-8")) == reference["report"]
    finally:
        second.kill_leftovers()
