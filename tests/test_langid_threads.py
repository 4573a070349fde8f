"""The language identifier's NumPy starts no BLAS threads unless the user asks for them."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

_BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")

_PROBE = """
import os
from parallelcheck.text import langid
langid.import_library()
print(len(os.listdir("/proc/self/task")), os.environ.get("OPENBLAS_NUM_THREADS"),
      os.environ.get("OMP_NUM_THREADS"))
"""


def _probe(**settings: str) -> list[str]:
    env = {k: v for k, v in os.environ.items() if k not in _BLAS_THREADS}
    env.update(settings)
    result = subprocess.run(
        [sys.executable, "-c", _PROBE], env=env, capture_output=True, text=True, check=True
    )
    return result.stdout.split()


@pytest.mark.skipif(
    not os.path.isdir("/proc/self/task") or (os.cpu_count() or 1) < 2,
    reason="counts the threads of a process on a machine with two cores or more",
)
def test_importing_the_identifier_starts_no_thread_besides_the_main_one():
    threads, openblas, _ = _probe()
    assert (threads, openblas) == ("1", "1")


def test_a_thread_count_the_user_set_is_left_as_it_is():
    _, openblas, omp = _probe(OMP_NUM_THREADS="2")
    assert (openblas, omp) == ("None", "2")
