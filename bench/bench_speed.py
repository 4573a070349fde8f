"""Speed and scale figures of issue "Speed and scale", measured end to end as a user runs them.

Usage: python bench/bench_speed.py [--corpus PATH] [--repeat K]

Every figure is the median wall time of K runs of the real command in a fresh process, in a
scratch folder with no glossary and its own cache folder; the two ratios (speed-up, four
copies against one) are medians of K pairs of runs taken in alternation, so that a slow
spell of the machine weighs on both sides of a pair alike:

* cold full check of the corpus (empty cache), all rules, default jobs (all cores);
* warm re-run with nothing changed (and its share of the cold time);
* one article set the way the pre-commit hook calls it (one file, process start included);
* ``parallelcheck --version``;
* ``--jobs 1`` against ``--jobs 2`` (speed-up);
* the full check again with the shipped glossary, so that the term rules run too (no target);
* four copies of the corpus against one (time ratio) and the peak resident memory of both.

Each cold run is also shown with the processor seconds it used (user and system, all its
processes): a wall time near half of them means both cores were busy throughout, and the
processor seconds of runs in a slow spell of the machine show it (the virtual machines here
run the same work up to 1.7 times slower from one second to the next).

The installed package is byte-compiled first, as ``pip install`` leaves it: an editable
install run with ``PYTHONDONTWRITEBYTECODE`` set (as on the machines here) would otherwise
compile every module again in each process and time that too.

Nothing here is a test: run it on demand and compare with the targets printed beside each
figure.
"""

from __future__ import annotations

import argparse
import compileall
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_CORPUS = HERE.parents[1] / "shared" / "corpus" / "fastapi"
ARTICLE = HERE.parent / "articles" / "deepinfer-vs-lmdeploy"
GLOSSARY = HERE.parent / "glossary"


def timed(args: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, float, float]:
    """(wall seconds, peak RSS in MiB, processor seconds) of one run of ``parallelcheck
    args``."""
    start = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-m", "parallelcheck", *args],
        cwd=cwd,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode not in (0, 1):
        sys.exit(f"parallelcheck {' '.join(args)} failed with status {process.returncode}")
    return wall, usage.ru_maxrss / 1024, usage.ru_utime + usage.ru_stime


def median(runs: list[tuple[float, float, float]]) -> tuple[float, float]:
    return statistics.median(r[0] for r in runs), max(r[1] for r in runs)


def processor() -> str:
    """The processor's model name, as Linux reports it (else what ``platform`` says)."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown processor"


def byte_compile() -> None:
    """Write the package's ``.pyc`` files, as ``pip install`` does."""
    import parallelcheck

    compileall.compile_dir(Path(parallelcheck.__file__).parent, quiet=1)


def main() -> None:
    byte_compile()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default=str(DEFAULT_CORPUS))
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    corpus = Path(args.corpus).resolve()
    scratch = Path(tempfile.mkdtemp(prefix="pc-bench-"))
    cache = scratch / "cache"
    env = {**os.environ, "PARALLELCHECK_CACHE_DIR": str(cache)}
    print(
        f"machine: {platform.machine()} ({processor()}), {os.cpu_count()} cores, "
        f"{len(os.sched_getaffinity(0)) if hasattr(os, 'sched_getaffinity') else '?'} usable, "
        f"Python {platform.python_version()} ({sys.executable})"
    )
    print(f"corpus: {corpus}")

    cold = []
    for _ in range(args.repeat):
        shutil.rmtree(cache, ignore_errors=True)
        cold.append(timed(["check", str(corpus), "--format", "json"], scratch, env))
    cold_s, cold_mem = median(cold)
    low, high = min(r[0] for r in cold), max(r[0] for r in cold)
    print(
        f"cold full check:          {cold_s:6.2f} s   (target ≤ 5 s)   peak {cold_mem:.0f} MiB"
        f"   (runs from {low:.2f} to {high:.2f} s)"
    )
    print(
        "  each cold run:           "
        + ", ".join(f"{wall:.2f} s ({cpu:.1f} s CPU)" for wall, _, cpu in cold)
    )

    warm_s, _ = median(
        [
            timed(["check", str(corpus), "--format", "json"], scratch, env)
            for _ in range(args.repeat)
        ]
    )
    print(
        f"warm re-run:              {warm_s:6.2f} s   = {100 * warm_s / cold_s:.1f}% of cold "
        "(target ≤ 10%)"
    )

    one = [
        timed(["check", "--skip-non-articles", "--no-cache", str(ARTICLE / "ja.md")], scratch, env)
        for _ in range(args.repeat)
    ]
    print(f"one article set (hook):   {median(one)[0]:6.2f} s   (target ≤ 1.0 s)")
    version = [timed(["--version"], scratch, env) for _ in range(args.repeat)]
    print(f"--version:                {median(version)[0]:6.2f} s   (target ≤ 0.3 s)")

    def command(path: Path, *options: str) -> list[str]:
        return ["check", str(path), "--format", "json", "--no-cache", *options]

    def corpus_run(path: Path, *options: str) -> tuple[float, float]:
        return median([timed(command(path, *options), scratch, env) for _ in range(args.repeat)])

    def paired(first: list[str], second: list[str]) -> tuple[float, float, float, float, float]:
        """Medians of the two commands' wall times and peaks, and the median ratio of
        ``first`` to ``second`` over runs taken in alternation, so that a slow spell of the
        machine weighs on both sides of a ratio alike."""
        pairs = [
            (timed(first, scratch, env), timed(second, scratch, env)) for _ in range(args.repeat)
        ]
        a, a_mem = median([pair[0] for pair in pairs])
        b, b_mem = median([pair[1] for pair in pairs])
        ratio = statistics.median(x[0] / y[0] for x, y in pairs)
        return a, b, ratio, a_mem, b_mem

    jobs1, jobs2, speedup, _, _ = paired(
        command(corpus, "--jobs", "1"), command(corpus, "--jobs", "2")
    )
    print(
        f"--jobs 1 / --jobs 2:      {jobs1:6.2f} s / {jobs2:.2f} s; speed-up {speedup:.2f}× "
        f"(target ≥ 1.7×; median of {args.repeat} alternating pairs)"
    )

    glossary = corpus_run(corpus, "--glossary", str(GLOSSARY))[0]
    print(
        f"with the shipped glossary: {glossary:5.2f} s   (no target: every rule, "
        f"{sum(1 for _ in GLOSSARY.glob('*.yaml'))} glossary file(s))"
    )

    copies = scratch / "four-copies"
    for index in range(4):
        shutil.copytree(corpus, copies / f"copy{index}")
    four, single, growth, four_mem, single_mem = paired(command(copies), command(corpus))
    print(
        f"four copies / one copy:   {four:6.2f} s / {single:.2f} s; {growth:.2f}× "
        f"(target ≤ 4.4×; median of {args.repeat} alternating pairs)"
    )
    print(f"peak memory four / one:   {four_mem:.0f} MiB / {single_mem:.0f} MiB")
    shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
