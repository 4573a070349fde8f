"""Red team: stopping a run (issue 17, cases 5 and 6).

Real runs of the command line (``python -m parallelcheck check --jobs 2``) over a copy of 40
articles of the FastAPI corpus are signalled at several moments: one second after the start
(while the main process reads, or as its workers start), or once the workers are at work
(they have used some processor time between them; so the moment does not depend on how fast
the machine or the tool is):

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

from parallelcheck.run.cache import LAYOUT

pytestmark = pytest.mark.skipif(
    not Path("/proc/self/stat").exists() or not hasattr(os, "killpg"),
    reason="finds the processes of a run in /proc (Linux)",
)

INTERRUPTED = "parallelcheck: interrupted\n"

#: How long every process of a run may take to end after the signal (seconds).
GRACE = 2.0


#: How many articles of the FastAPI corpus (13 languages each) a run checks: with --jobs 2, its
#: workers use some 4 s of processor time between them (2 s on a quiet two-core machine),
#: far more than :data:`AT_WORK` and the few cache entries the signals wait for.
ARTICLES = 40

#: Processor seconds the workers of a run have used between them when a signal meant to come
#: "while they are at work" is sent.
AT_WORK = 0.25


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    """A writable copy of :data:`ARTICLES` articles of the FastAPI corpus, made once for the
    test run (its workers share it, and so the paths in the reference report)."""

    def make() -> Path:
        source = need(CORPUS / "fastapi")
        copy = run_folder(tmp_path_factory) / "signals" / "fastapi"
        for article in sorted(p for p in source.iterdir() if p.is_dir())[:ARTICLES]:
            shutil.copytree(article, copy / article.name, copy_function=shutil.copyfile)
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


def _stat(pid: int) -> tuple[str, int, int, int]:
    """A process's state, parent, process group and processor time used (user and system,
    in clock ticks); ``("", 0, 0, 0)`` when it is gone."""
    try:
        stat = Path("/proc", str(pid), "stat").read_text()
    except OSError:
        return "", 0, 0, 0
    # pid (comm) state ppid pgrp ... utime stime: comm may hold spaces and parentheses
    fields = stat[stat.rindex(")") + 2 :].split()
    return fields[0], int(fields[1]), int(fields[2]), int(fields[11]) + int(fields[12])


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
        return set(self._processor_ticks())

    def workers_at_work(self) -> bool:
        """Whether the run's workers (the main process's children) have used
        :data:`AT_WORK` processor seconds between them."""
        lists = list(Path("/proc", str(self.pid), "task").glob("*/children"))
        if lists:  # the kernel lists each thread's children: no need to read every process
            children = []
            for listed in lists:
                with contextlib.suppress(OSError):
                    children += [int(pid) for pid in listed.read_text().split()]
            ticks = sum(_stat(pid)[3] for pid in children)
        else:
            ticks = sum(self._processor_ticks().values()) - _stat(self.pid)[3]
        return ticks >= AT_WORK * os.sysconf("SC_CLK_TCK")

    def _processor_ticks(self) -> dict[int, int]:
        """Each living process of the run (see :meth:`members`) → the processor time it has
        used (user and system, in clock ticks)."""
        found = {}
        for name in os.listdir("/proc"):
            if not name.isdigit():
                continue
            state, ppid, pgrp, ticks = _stat(int(name))
            if state in ("Z", "X", ""):
                continue
            if pgrp == self.pid or ppid == self.pid:
                found[int(name)] = ticks
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


#: When :func:`_signal_at` sends a signal "while the workers are at work".
AT_WORK_MOMENT = "at-work"


def _signal_at(run: Run, signum: int, moment: float | str, group: bool) -> float:
    """Send *signum* to the run's main process (or its whole process group, as a terminal's
    Ctrl-C does) *moment* seconds after it started, or, with :data:`AT_WORK_MOMENT`, once its
    workers are at work (:meth:`Run.workers_at_work`), or, with a callable, once it says so;
    returns when it was sent."""
    started = time.monotonic()
    if isinstance(moment, float):
        time.sleep(moment)
    else:
        ready = run.workers_at_work if moment == AT_WORK_MOMENT else moment
        while not ready() and run.process.poll() is None:
            assert time.monotonic() < started + 300, f"never {moment}"
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
    pytest.param(signal.SIGTERM, AT_WORK_MOMENT, False, id="SIGTERM-at-work"),
    pytest.param(signal.SIGINT, 1.0, False, id="SIGINT-1s"),
    pytest.param(signal.SIGINT, AT_WORK_MOMENT, False, id="SIGINT-at-work"),
    pytest.param(signal.SIGKILL, 1.0, False, id="SIGKILL-1s"),
    pytest.param(signal.SIGKILL, AT_WORK_MOMENT, False, id="SIGKILL-at-work"),
    # a terminal's Ctrl-C goes to the whole foreground process group, workers included
    pytest.param(signal.SIGINT, AT_WORK_MOMENT, True, id="Ctrl-C-group-at-work"),
    # as `kill -- -PGID`, a service manager or `timeout --foreground` may send it
    pytest.param(signal.SIGTERM, AT_WORK_MOMENT, True, id="SIGTERM-group-at-work"),
]


@pytest.mark.parametrize(("signum", "moment", "group"), CASES)
def test_a_signalled_run_stops_cleanly(corpus, tmp_path, signum, moment, group):
    run = Run(corpus, tmp_path, "--no-cache")
    try:
        sent = _signal_at(run, signum, moment, group)
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
def interrupted_then_resumed(corpus, tmp_path_factory) -> dict:
    """Two runs of the corpus sharing a cache folder, made once for the test run: the first
    stopped by Ctrl-C once it has written three cache entries, the second not interrupted.
    What each did: its exit status, its stderr, its processes still alive after it, what it
    left beside its report, the cache entries (after the first) and the report (the
    second's)."""

    def make() -> dict:
        base = tmp_path_factory.mktemp("resumed")
        folder = base / "cache"
        env = {"PARALLELCHECK_CACHE_DIR": str(folder)}

        def entries() -> int:
            return len(list((folder / LAYOUT).rglob("*.json")))  # result entries

        outcome = {}
        first = Run(corpus, base / "first", env=env)
        try:
            sent = _signal_at(first, signal.SIGINT, lambda: entries() >= 3, group=True)
            status = first.process.wait(timeout=30)
            alive = first.wait_until_gone(sent)
            outcome["first"] = {
                "status": status,
                "alive": sorted(alive),
                "stderr": first.stderr,
                "left": os.listdir(first.out_dir),
                "entries": entries(),
            }
        finally:
            first.kill_leftovers()
        second = Run(corpus, base / "second", env=env)
        try:
            status = second.process.wait(timeout=300)
            alive = second.wait_until_gone(time.monotonic())
            written = second.output.exists()
            outcome["second"] = {
                "status": status,
                "alive": sorted(alive),
                "stderr": second.stderr,
                "left": os.listdir(second.out_dir),
                "report": json.loads(second.output.read_text("utf-8")) if written else None,
            }
        finally:
            second.kill_leftovers()
        return outcome

    return once_per_run(tmp_path_factory, "signals-resumed", make)


def test_a_run_not_interrupted_writes_its_report_and_exits_as_before(interrupted_then_resumed):
    """The second run: nothing stops it, and it ends as a run ends."""
    run = interrupted_then_resumed["second"]
    assert not run["alive"], "workers outlived the run"
    assert "Traceback" not in run["stderr"] and "interrupted" not in run["stderr"]
    assert run["left"] == ["report.json"], "a temporary file was left"
    report = run["report"]
    assert report["summary"]["articles"] == ARTICLES
    assert run["status"] == (1 if report["summary"]["error"] else 0)


def _placeless(finding: dict) -> str:
    """A finding of a JSON report with each location's path cut to ``article/version``
    (the runs compared check copies of the same files)."""
    locations = [
        {**loc, "path": "/".join(Path(loc["path"]).parts[-2:])} for loc in finding["locations"]
    ]
    return json.dumps({**finding, "locations": locations}, sort_keys=True, ensure_ascii=False)


def test_a_run_interrupted_while_filling_the_cache_leaves_only_usable_entries(
    interrupted_then_resumed, fastapi_run
):
    """Entries are written as results come in; one being written when the signal comes is
    never half there.  A later run takes what was written and gives the findings of a run
    without the cache (the session's in-process run of the whole corpus, these articles'
    findings)."""
    first, second = interrupted_then_resumed["first"], interrupted_then_resumed["second"]
    assert first["status"] == 128 + signal.SIGINT, first["stderr"]
    assert not first["alive"] and first["stderr"] == INTERRUPTED
    assert first["left"] == [], "a report or a temporary file was left"
    assert 3 <= first["entries"] < ARTICLES, "the run was not interrupted while filling the cache"
    report = second["report"]
    ids = {article["id"] for article in report["articles"]}
    assert len(ids) == ARTICLES
    uncached = [f.as_dict() for f in fastapi_run[2] if f.article in ids]
    assert uncached, "these articles have findings to get wrong"
    got = sorted(_placeless(f) for f in report["findings"])
    assert got == sorted(_placeless(json.loads(json.dumps(f))) for f in uncached)
