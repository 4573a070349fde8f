"""How much disk an installation of parallelcheck takes: a virtual environment with
``pip install .``, one with ``pip install ".[ja]"`` (the README's), and the environment
pre-commit builds for the hook (``.pre-commit-hooks.yaml``, from a git repository holding the
project's current files), each with its largest packages.

    python bench/bench_install_size.py [--python /usr/bin/python3] [--hook-budget 200]

Sizes are disk usage in MiB as ``du -s`` counts it (allocated blocks, hard links once).  The
run needs the package index pip is set up with (wheels are usually in pip's cache) and, for
the hook, ``git`` and ``pre-commit`` importable by this interpreter.  It exits 1 when the hook's
environment is over ``--hook-budget`` MiB (default 200).  Nothing is left behind.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
HOOK_FILES = ["pyproject.toml", "README.md", ".pre-commit-hooks.yaml"]


def disk_usage(path: Path) -> int:
    """Bytes allocated below ``path``, each inode once (what ``du -s`` adds up)."""
    seen: set[tuple[int, int]] = set()
    total = 0
    for folder, _, names in os.walk(path):
        for name in [".", *names]:
            info = os.lstat(os.path.join(folder, name))
            if (info.st_dev, info.st_ino) not in seen:
                seen.add((info.st_dev, info.st_ino))
                total += info.st_blocks * 512
    return total


def mib(size: int) -> str:
    return f"{size / 2**20:.0f} MiB"


def largest(site_packages: Path, count: int = 6) -> str:
    sizes = sorted(
        ((disk_usage(p), p.name) for p in site_packages.iterdir() if p.is_dir()), reverse=True
    )
    return ", ".join(f"{name} {mib(size)}" for size, name in sizes[:count])


def run(args: list[str], cwd: Path, env: dict[str, str] | None = None) -> None:
    subprocess.run(args, cwd=cwd, env=env, check=True, capture_output=True, timeout=1800)


def pip_environment(python: str, requirement: str, where: Path) -> Path:
    run([python, "-m", "venv", str(where)], PROJECT)
    run([str(where / "bin" / "pip"), "install", "--quiet", requirement], PROJECT)
    return where


def hook_environment(tmp: Path) -> Path:
    """The environment ``pre-commit install-hooks`` builds for the shipped hook."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "PRE_COMMIT"))}
    env.update(
        PRE_COMMIT_HOME=str(tmp / "pre-commit-home"),
        GIT_CONFIG_NOSYSTEM="1",
        GIT_AUTHOR_NAME="bench",
        GIT_AUTHOR_EMAIL="bench@example.invalid",
        GIT_COMMITTER_NAME="bench",
        GIT_COMMITTER_EMAIL="bench@example.invalid",
    )
    hook_repo = tmp / "hook-repo"
    hook_repo.mkdir()
    for name in HOOK_FILES:
        shutil.copy2(PROJECT / name, hook_repo / name)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info")
    shutil.copytree(PROJECT / "src", hook_repo / "src", ignore=ignore)
    run(["git", "init", "-q"], hook_repo, env)
    run(["git", "add", "-A"], hook_repo, env)
    run(["git", "commit", "-q", "--no-gpg-sign", "-m", "snapshot"], hook_repo, env)
    sha = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=hook_repo, capture_output=True, text=True, check=True
    ).stdout.strip()
    user = tmp / "user-repo"
    user.mkdir()
    run(["git", "init", "-q"], user, env)
    (user / ".pre-commit-config.yaml").write_text(
        f"repos:\n  - repo: {hook_repo.as_posix()}\n    rev: {sha}\n"
        "    hooks:\n      - id: parallelcheck\n",
        encoding="utf-8",
    )
    run([sys.executable, "-m", "pre_commit", "install-hooks"], user, env)
    (found,) = (tmp / "pre-commit-home").glob("repo*/py_env-*")
    return found


def site_packages(environment: Path) -> Path:
    (found,) = environment.glob("lib/python*/site-packages")
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--python", default="python3", help="interpreter for the venvs")
    parser.add_argument("--hook-budget", type=float, default=200, help="MiB (default 200)")
    args = parser.parse_args()
    over = False
    with tempfile.TemporaryDirectory(prefix="parallelcheck-size-") as scratch:
        tmp = Path(scratch)
        rows = [
            ("pip install .", pip_environment(args.python, ".", tmp / "core")),
            ('pip install ".[ja]"', pip_environment(args.python, ".[ja]", tmp / "ja")),
            ("pre-commit hook", hook_environment(tmp)),
        ]
        for label, environment in rows:
            size = disk_usage(environment)
            print(f"{label:<22} {mib(size):>8}   {largest(site_packages(environment))}")
            if label == "pre-commit hook" and size > args.hook_budget * 2**20:
                print(f"the hook's environment is over {args.hook_budget:g} MiB", file=sys.stderr)
                over = True
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
