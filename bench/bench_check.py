"""Benchmark: a full check of a corpus folder, timed in-process and as a fresh process.

Usage: python bench/bench_check.py [PATH] [--jobs N] [--repeat K]

Prints the wall time of each repetition, the median, the number of articles, versions and
findings, and the peak resident memory.  Run on demand; the test suite never times anything.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

DEFAULT = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "fastapi"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", nargs="?", default=str(DEFAULT))
    parser.add_argument("--jobs", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    command = [
        sys.executable,
        "-m",
        "parallelcheck",
        "check",
        args.path,
        "--format",
        "json",
        "--jobs",
        str(args.jobs),
    ]
    times = []
    for _ in range(args.repeat):
        start = time.perf_counter()
        result = subprocess.run(command, capture_output=True, text=True, check=False)
        times.append(time.perf_counter() - start)
        if result.returncode not in (0, 1):
            sys.exit(f"check failed ({result.returncode}): {result.stderr}")
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    import json

    document = json.loads(result.stdout)
    versions = sum(len(a["versions"]) for a in document["articles"])
    print(f"path: {args.path}  jobs: {args.jobs or 'all cores'}")
    print(
        f"articles: {len(document['articles'])}  versions: {versions}  "
        f"findings: {document['summary']['findings']}"
    )
    print(
        "wall seconds: "
        + ", ".join(f"{t:.2f}" for t in times)
        + f"  median {statistics.median(times):.2f}"
    )
    print(f"peak RSS of a run: {peak:.0f} MiB")


if __name__ == "__main__":
    main()
