"""Processor seconds of a cold full check under two installs, in alternating runs.

Usage: python bench/cpu_ab.py A_PYTHON B_PYTHON [--corpus PATH] [--pairs N] [--jobs N]

A_PYTHON and B_PYTHON are the interpreters of the two installs.  Each run is ``PYTHON -m
parallelcheck check CORPUS --format json --no-cache`` (default corpus: ``../shared/corpus/
fastapi`` beside the repository) in a fresh process started in an empty scratch folder, so
that no configuration or glossary of the working directory is picked up, with its output
thrown away.  Cold means no result cache (``--no-cache``, and ``PARALLELCHECK_CACHE_DIR``
pointing into the scratch folder) and a new process each time.

The figure is the processor time of the run: user plus system seconds of the process and of
every process it started and waited for (its worker processes), as ``os.wait4`` reports them
for the child; the wall time and the peak resident memory of the largest single process are
recorded too.  The runs go A, B, A, B, ... for N pairs, so that a slow spell of the machine
weighs on both sides alike.  Printed: each run, then per side the median, lowest and highest,
and B's change against A in percent, both as the ratio of the medians and as the median of
the N per-pair ratios.  Running with A and B the same install shows the noise of the figure.

Bytecode: each side first makes one untimed run with ``PYTHONPYCACHEPREFIX`` set to a folder
of its own (and ``PYTHONDONTWRITEBYTECODE`` unset) and keeps that setting for its timed runs,
so both sides import compiled modules, whether the install is an editable one or a ``pip
install`` (an editable install run with ``PYTHONDONTWRITEBYTECODE`` set would otherwise
compile every module again in every process and be charged for it); the warm-up also brings
the corpus into the page cache.

The cache folder: one for the whole benchmark by default, so that the language model a
run keeps decompressed there (:mod:`parallelcheck.run.model_store`; the warm-up stores it)
is mapped by the timed runs — a check as every run after the first on a machine makes it.
``--fresh-cache`` gives every run an empty cache folder of its own instead: the first check
on a machine, which decompresses the model (and stores it).

``--jobs N`` is passed to every check (``--jobs 1``: the processor time of one process, no
workers; the default is the tool's own, one worker per usable core).  Run on demand; nothing
here is a test.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from compare_installs import interpreter  # the same lookup, from the bench folder

DEFAULT_CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "fastapi"


def identify(python: str, cwd: Path, env: dict[str, str]) -> str:
    code = "import parallelcheck, importlib.metadata as m; "
    code += "print(parallelcheck.__file__, m.version('parallelcheck'))"
    result = subprocess.run(
        [python, "-c", code], cwd=cwd, env=env, capture_output=True, text=True, check=False
    )
    if result.returncode != 0:
        sys.exit(f"{python} cannot import parallelcheck: {result.stderr.strip()}")
    return result.stdout.strip()


def run(command: list[str], cwd: Path, env: dict[str, str]) -> dict[str, float]:
    """Wall seconds, user and system seconds (with waited-for children), peak RSS in MiB."""
    start = time.perf_counter()
    process = subprocess.Popen(
        command, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    assert process.stderr is not None
    stderr = process.stderr.read()
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    process.stderr.close()
    process.returncode = code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        last = stderr.decode("utf-8", "replace").strip().splitlines()[-1:]
        sys.exit(f"{' '.join(command)} failed with status {code}: {''.join(last)}")
    return {
        "wall": wall,
        "user": usage.ru_utime,
        "sys": usage.ru_stime,
        "cpu": usage.ru_utime + usage.ru_stime,
        "rss": usage.ru_maxrss / 1024,
    }


def spread(values: list[float]) -> str:
    return f"median {statistics.median(values):7.2f}  (from {min(values):.2f} to {max(values):.2f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a_python", metavar="A_PYTHON", help="interpreter of install A")
    parser.add_argument("b_python", metavar="B_PYTHON", help="interpreter of install B")
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS, help="corpus folder")
    parser.add_argument("--pairs", type=int, default=5, help="alternating A/B pairs (default 5)")
    parser.add_argument("--jobs", type=int, help="pass --jobs N to every check")
    parser.add_argument(
        "--fresh-cache",
        action="store_true",
        help="an empty cache folder for every run (no language model kept decompressed)",
    )
    args = parser.parse_args()
    if args.pairs < 1:
        parser.error("--pairs must be at least 1")
    corpus = args.corpus.resolve()
    if not corpus.is_dir():
        sys.exit(f"no corpus folder {corpus}")
    check = ["-m", "parallelcheck", "check", str(corpus), "--format", "json", "--no-cache"]
    if args.jobs is not None:
        check += ["--jobs", str(args.jobs)]
    scratch = Path(tempfile.mkdtemp(prefix="cpu-ab-"))
    work = scratch / "work"
    work.mkdir()
    base_env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("PYTHONDONTWRITEBYTECODE", "PARALLELCHECK_DEBUG")
    }
    base_env["PARALLELCHECK_CACHE_DIR"] = str(scratch / "cache")
    sides = {}
    for side, name in (("A", args.a_python), ("B", args.b_python)):
        python = interpreter(name)
        env = {**base_env, "PYTHONPYCACHEPREFIX": str(scratch / f"pycache-{side}")}
        sides[side] = (python, env)
        print(f"{side}: {python} -> {identify(python, work, env)}")
    print(f"corpus: {corpus}   jobs: {args.jobs if args.jobs is not None else 'default'}")
    print("cache folder: " + ("a fresh one per run" if args.fresh_cache else "one for all runs"))
    print(f"cores: {os.cpu_count()}, usable: {len(os.sched_getaffinity(0))}")
    for side, (python, env) in sides.items():
        warm = run([python, *check], work, env)
        print(f"warm-up {side}: {warm['wall']:.2f} s wall, {warm['cpu']:.2f} s CPU (not counted)")

    results: dict[str, list[dict[str, float]]] = {"A": [], "B": []}
    print(f"{'pair':>4} {'side':>4}{'CPU s':>9}{'user':>9}{'sys':>7}{'wall s':>9}{'peak MiB':>10}")
    for pair in range(1, args.pairs + 1):
        for side, (python, env) in sides.items():
            if args.fresh_cache:
                cache = tempfile.mkdtemp(prefix="cache-", dir=scratch)
                env = {**env, "PARALLELCHECK_CACHE_DIR": cache}
            figures = run([python, *check], work, env)
            results[side].append(figures)
            print(
                f"{pair:>4} {side:>4}{figures['cpu']:>9.2f}{figures['user']:>9.2f}"
                f"{figures['sys']:>7.2f}{figures['wall']:>9.2f}{figures['rss']:>10.0f}",
                flush=True,
            )
    shutil.rmtree(scratch, ignore_errors=True)

    print()
    for key, label in (("cpu", "CPU s"), ("wall", "wall s")):
        for side in ("A", "B"):
            print(f"{label:<7}{side}: {spread([r[key] for r in results[side]])}")
        median_a = statistics.median(r[key] for r in results["A"])
        median_b = statistics.median(r[key] for r in results["B"])
        ratios = [b[key] / a[key] for a, b in zip(results["A"], results["B"], strict=True)]
        print(
            f"{label:<7}B vs A: {100 * (median_b / median_a - 1):+.1f} % (ratio of medians), "
            f"{100 * (statistics.median(ratios) - 1):+.1f} % (median of {args.pairs} pair ratios,"
            f" from {100 * (min(ratios) - 1):+.1f} to {100 * (max(ratios) - 1):+.1f} %)"
        )


if __name__ == "__main__":
    main()
