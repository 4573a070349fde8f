"""How many cores a run may use: the default of ``--jobs``.

``os.cpu_count()`` counts the machine's cores, which is not what a process may use in CI:

* **CPU affinity** (``taskset``, a container's cpuset) limits the cores the process may run
  on; on Linux ``os.sched_getaffinity`` tells which.
* **A CPU quota** (``docker run --cpus 2``, a Kubernetes CPU limit, a CI runner's container)
  leaves every core visible but caps the CPU time of the process's control group.  A run
  that started one worker per visible core of a 64-core host would then time-slice 64
  workers on two cores' worth of time, each holding its own documents.  The quota is read
  from the control group of the process and of each group above it (the smallest wins):
  ``cpu.max`` under cgroup v2 (``"200000 100000"``: two cores; ``"max 100000"``: none), and
  ``cpu.cfs_quota_us`` / ``cpu.cfs_period_us`` under cgroup v1 (a quota of ``-1``: none).
  A fractional quota counts as the next whole core (1.5 cores → 2 workers).

Anything that cannot be read counts as no limit.
"""

from __future__ import annotations

import math
import os
from pathlib import Path

CGROUP_FILE = "/proc/self/cgroup"
CGROUP_ROOT = "/sys/fs/cgroup"


def usable_cores() -> int:
    """The cores this process may use (at least 1): its CPU affinity, capped by the CPU
    quota of its control group."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not on Linux
        cores = os.cpu_count() or 1
    quota = cpu_quota()
    if quota is not None:
        cores = min(cores, quota)
    return max(cores, 1)


def cpu_quota(cgroup_file: str = CGROUP_FILE, root: str = CGROUP_ROOT) -> int | None:
    """Whole cores' worth of CPU time the process's control groups allow (rounded up), or
    ``None`` when no group sets a quota (or none can be read)."""
    try:
        lines = Path(cgroup_file).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return None
    quotas = []
    for line in lines:
        parts = line.split(":", 2)
        if len(parts) != 3:
            continue
        _, controllers, group = parts
        if controllers == "":  # cgroup v2: one hierarchy
            folder_names = [""]
            read = _v2_quota
        elif "cpu" in controllers.split(","):  # cgroup v1: the cpu controller's hierarchy
            folder_names = [controllers, "cpu"]
            read = _v1_quota
        else:
            continue
        for name in dict.fromkeys(folder_names):
            base = Path(root, name) if name else Path(root)
            for folder in _up_to(base, group):
                found = read(folder)
                if found is not None:
                    quotas.append(found)
    return min(quotas) if quotas else None


def _up_to(base: Path, group: str) -> list[Path]:
    """The group's folder under *base* and every folder above it, up to *base*."""
    parts = [part for part in group.split("/") if part and part not in (".", "..")]
    return [base.joinpath(*parts[:depth]) for depth in range(len(parts), -1, -1)]


def _v2_quota(folder: Path) -> int | None:
    fields = _read(folder / "cpu.max").split()
    if len(fields) != 2 or fields[0] == "max":
        return None
    return _cores(fields[0], fields[1])


def _v1_quota(folder: Path) -> int | None:
    quota = _read(folder / "cpu.cfs_quota_us").strip()
    if not quota or quota.startswith("-"):
        return None
    return _cores(quota, _read(folder / "cpu.cfs_period_us").strip())


def _cores(quota: str, period: str) -> int | None:
    try:
        share = int(quota) / int(period)
    except (ValueError, ZeroDivisionError):
        return None
    return max(math.ceil(share), 1) if share > 0 else None


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return ""
