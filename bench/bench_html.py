"""The html report's budget: its cost against ``--format json``, its weight, and Chromium's time.

Usage: python bench/bench_html.py [--corpus PATH] [--repeat K] [--jobs N] [--python PYTHON]

Figures, each the median of K runs of the real command in a fresh process, in a scratch
folder with its own cache folder:

* **cold**: ``check CORPUS --no-cache`` with ``--format json --output findings.json`` and with
  ``--format html --output report.html``, taken in alternation (one json run, one html run,
  K times); the ratio html / json is the median of the K pairs' ratios, of wall time and of
  processor time (user and system, every process of the run) — a slow spell of the machine
  weighs on both sides of a pair alike.  Peak memory is the resident set of the run's
  largest process (the main one: it holds the language model the workers share);
* **warm**: the same two commands with the result cache, after one run of each filled it;
* **one process** (``--jobs 1``): the peak of json and html where one process does it all;
* **the site**: how many files and bytes, the index's bytes, the heaviest page's;
* **Chromium** (Debian's ``/usr/bin/chromium``, 1600 × 1000, over the DevTools protocol of
  ``tests/browser.py``): the time from navigation to the load event (the page parsed, laid out
  and its script run) and to the first contentful paint, for the index and for the heaviest
  page; and the height in pixels of each.  Median of K loads, each in a fresh tab.

``--python`` runs another installation's interpreter (e.g. the reference install of an older
commit, whose html report is one page: it is then both "index" and "heaviest page").  The
budget (docs/performance.md): html at most 3× the time of json on the FastAPI corpus.

Nothing here is a test: run it on demand.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_CORPUS = HERE.parents[1] / "shared" / "corpus" / "fastapi"
BROWSER = HERE.parent / "tests" / "browser.py"
WINDOW = (1600, 1000)
#: The first contentful paint's time, waited for (it may come after the load event).
FIRST_PAINT = """new Promise(function (done) {
  new PerformanceObserver(function (list) {
    list.getEntriesByName("first-contentful-paint").forEach(function (e) { done(e.startTime); });
  }).observe({type: "paint", buffered: true});
})"""


def load_browser():
    spec = importlib.util.spec_from_file_location("browser", BROWSER)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run(python: str, args: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, float, float]:
    """(wall seconds, processor seconds, peak RSS in MiB) of one run of ``parallelcheck
    args`` (its own usage and that of the worker processes it waited for)."""
    start = time.perf_counter()
    process = subprocess.Popen(
        [python, "-m", "parallelcheck", *args],
        cwd=cwd,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = code = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - start
    if code not in (0, 1):
        sys.exit(f"parallelcheck {' '.join(args)} failed with status {code}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def medians(runs: list[tuple[float, float, float]]) -> tuple[float, float, float]:
    return (
        statistics.median(r[0] for r in runs),
        statistics.median(r[1] for r in runs),
        max(r[2] for r in runs),
    )


def site_files(out: Path) -> tuple[Path, list[Path]]:
    """The index and the article pages the html run wrote (an older install writes one page,
    the index alone)."""
    index = out / "report.html"
    pages = out / "report_files"
    return index, sorted(pages.glob("*.html")) if pages.is_dir() else []


def browser_figures(browser_module, profile: Path, page: Path, repeat: int) -> str:
    loads, paints, height = [], [], 0
    for _ in range(repeat):
        with browser_module.Browser(profile, *WINDOW) as browser:
            browser.open(page.as_uri())
            loads.append(
                browser.evaluate('performance.getEntriesByType("navigation")[0].loadEventEnd')
            )
            paints.append(browser.evaluate(FIRST_PAINT))
            height = browser.evaluate("document.documentElement.scrollHeight")
    return (
        f"load event {statistics.median(loads):.0f} ms, first contentful paint "
        f"{statistics.median(paints):.0f} ms, {height:,} px tall"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default=str(DEFAULT_CORPUS))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--jobs", default="0")
    parser.add_argument("--python", default=sys.executable)
    parser.add_argument("--no-browser", action="store_true", help="skip the Chromium figures")
    args = parser.parse_args()
    corpus = Path(args.corpus).resolve()
    scratch = Path(tempfile.mkdtemp(prefix="pc-bench-html-"))
    env = {**os.environ, "PARALLELCHECK_CACHE_DIR": str(scratch / "cache")}
    (scratch / "out").mkdir()
    try:
        measure(args, corpus, scratch, env)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def measure(args: argparse.Namespace, corpus: Path, scratch: Path, env: dict[str, str]) -> None:
    """Every figure (see the module's docstring), printed as it is measured."""
    out = scratch / "out"
    print(f"corpus: {corpus}\ninterpreter: {args.python}\nmachine: {os.cpu_count()} cores")

    def command(fmt: str, *extra: str) -> list[str]:
        target = "findings.json" if fmt == "json" else "report.html"
        return ["check", str(corpus), "--format", fmt, "--output", str(out / target), *extra]

    def compare(label: str, *extra: str) -> None:
        pairs = [
            (
                run(args.python, command("json", *extra), scratch, env),
                run(args.python, command("html", *extra), scratch, env),
            )
            for _ in range(args.repeat)
        ]
        json_wall, json_cpu, json_peak = medians([p[0] for p in pairs])
        html_wall, html_cpu, html_peak = medians([p[1] for p in pairs])
        wall_ratio = statistics.median(h[0] / j[0] for j, h in pairs)
        cpu_ratio = statistics.median(h[1] / j[1] for j, h in pairs)
        print(
            f"{label}: json {json_wall:.2f} s ({json_cpu:.1f} s CPU), peak {json_peak:.0f} MiB"
            f" | html {html_wall:.2f} s ({html_cpu:.1f} s CPU), peak {html_peak:.0f} MiB"
            f" | html/json {wall_ratio:.2f}× wall, {cpu_ratio:.2f}× CPU (target ≤ 3×)",
            flush=True,
        )

    compare("cold, all cores", "--no-cache", "--jobs", args.jobs)
    run(args.python, command("json"), scratch, env)  # fill the cache
    run(args.python, command("html"), scratch, env)
    compare("warm (cache)", "--jobs", args.jobs)
    compare("cold, one process", "--no-cache", "--jobs", "1")

    index, pages = site_files(out)
    weight = index.stat().st_size + sum(p.stat().st_size for p in pages)
    heaviest = max(pages, key=lambda p: p.stat().st_size) if pages else index
    print(
        f"site: {1 + len(pages)} file(s), {weight / 1e6:.2f} MB; index {index.stat().st_size:,} "
        f"bytes; heaviest page {heaviest.name} {heaviest.stat().st_size:,} bytes"
    )
    if not args.no_browser:
        browser = load_browser()
        if browser.find_chromium() is None:
            print("chromium: not installed (apt-get install chromium): no browser figures")
        else:
            profile = scratch / "profile"
            print(f"chromium, index: {browser_figures(browser, profile, index, args.repeat)}")
            print(
                f"chromium, heaviest page: "
                f"{browser_figures(browser, profile, heaviest, args.repeat)}"
            )


if __name__ == "__main__":
    main()
