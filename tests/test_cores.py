"""The default number of workers: the cores a process may use, CPU quotas included."""

from __future__ import annotations

import os

import pytest

from parallelcheck.config import Config
from parallelcheck.engine import CheckOptions
from parallelcheck.model.article import ArticleSet
from parallelcheck.run import cores, workers
from parallelcheck.run.pipeline import check_all


def _groups(tmp_path, membership: str, files: dict[str, str]) -> tuple[str, str]:
    """A fake /proc/self/cgroup and /sys/fs/cgroup holding *files* (path → content)."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    listing = tmp_path / "cgroup"
    listing.write_text(membership, encoding="utf-8")
    root = tmp_path / "sys"
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content, encoding="utf-8")
    root.mkdir(exist_ok=True)
    return str(listing), str(root)


@pytest.mark.parametrize(
    ("group", "files", "quota"),
    [
        # 2.5 cores' worth of time: rounded up to whole cores
        ("ci/job", {"ci/job/cpu.max": "250000 100000\n", "cpu.max": "max 100000\n"}, 3),
        # a group above the process allows less than its own: the smallest wins
        (
            "runner/job",
            {"runner/cpu.max": "100000 100000\n", "runner/job/cpu.max": "400000 100000\n"},
            1,
        ),
    ],
    ids=["rounded-up", "smallest-above-wins"],
)
def test_a_cgroup_v2_quota_is_whole_cores_and_the_smallest_above_wins(
    tmp_path, group, files, quota
):
    listing, root = _groups(tmp_path, f"0::/{group}\n", files)
    assert cores.cpu_quota(listing, root) == quota


@pytest.mark.parametrize(
    "files",
    [
        {"cpu.max": "max 100000\n"},
        {},
        {"cpu.max": "garbage\n"},
        {"cpu.max": "200000 0\n"},
    ],
)
def test_no_quota_or_an_unreadable_one_is_no_limit(tmp_path, files):
    listing, root = _groups(tmp_path, "0::/\n", files)
    assert cores.cpu_quota(listing, root) is None


def test_a_cgroup_v1_quota_is_read_from_the_cpu_controller(tmp_path):
    quota = {
        "cpu,cpuacct/docker/abc/cpu.cfs_quota_us": "150000\n",
        "cpu,cpuacct/docker/abc/cpu.cfs_period_us": "100000\n",
        "memory/docker/abc/cpu.cfs_quota_us": "100000\n",  # not the cpu controller
        "memory/docker/abc/cpu.cfs_period_us": "100000\n",
    }
    membership = "4:memory:/docker/abc\n3:cpu,cpuacct:/docker/abc\n"
    assert cores.cpu_quota(*_groups(tmp_path, membership, quota)) == 2
    unlimited = {"cpu/cpu.cfs_quota_us": "-1\n", "cpu/cpu.cfs_period_us": "100000\n"}
    assert cores.cpu_quota(*_groups(tmp_path / "v1", "2:cpu:/\n", unlimited)) is None


def test_without_a_cgroup_listing_there_is_no_limit(tmp_path):
    assert cores.cpu_quota(str(tmp_path / "missing"), str(tmp_path)) is None


def test_usable_cores_are_the_affinity_capped_by_the_quota(monkeypatch):
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1, 2, 3, 4, 5}, raising=False)
    monkeypatch.setattr(cores, "cpu_quota", lambda: 2)
    assert cores.usable_cores() == 2
    monkeypatch.setattr(cores, "cpu_quota", lambda: None)
    assert cores.usable_cores() == 6
    monkeypatch.setattr(cores, "cpu_quota", lambda: 16)
    assert cores.usable_cores() == 6


def _sets(folder, count: int) -> list[ArticleSet]:
    found = []
    for index in range(count):
        path = folder / f"a{index}-en.md"
        path.write_text(f"# Title {index}\n\nText.\n", encoding="utf-8")
        found.append(ArticleSet(id=f"a{index}", versions={"en": str(path)}))
    return found


@pytest.mark.parametrize(("asked", "usable", "started"), [(0, 3, 3), (0, 64, 5), (64, 2, 5)])
def test_workers_started_are_the_usable_cores_and_never_more_than_the_articles(
    tmp_path, monkeypatch, asked, usable, started
):
    used = []

    def in_this_process(function, items, sizes, jobs, shared=None):
        used.append(jobs)
        return ((index, function(shared, item)) for index, item in enumerate(items))

    monkeypatch.setattr(cores, "usable_cores", lambda: usable)
    monkeypatch.setattr(workers, "complete_largest_first", in_this_process)
    results = list(check_all(_sets(tmp_path, 5), Config(), CheckOptions(jobs=asked)))
    assert used == [started]
    assert [result.article.id for result in results] == [f"a{index}" for index in range(5)]
