"""The GitHub Action (``action.yml``), its steps run as a runner runs them.

A composite action is its steps: this test reads ``action.yml`` and plays the steps in order
in a scratch workspace, each ``run:`` script with ``bash`` as the runner calls it, with the
runner's variables (``GITHUB_WORKSPACE``, ``GITHUB_ACTION_PATH``, ``RUNNER_TEMP``,
``GITHUB_OUTPUT``, ``GITHUB_STEP_SUMMARY``), the step's ``env:`` with its ``${{ … }}``
expressions evaluated (inputs with their defaults, earlier steps' outputs) and its ``if:``
evaluated the same way; a step that fails skips the rest, as a step's default ``success()``
does.  The action path is a copy of the project's files, so the install step really builds a
virtual environment and pip-installs parallelcheck from it (without extras, which the test
does not need: the default ``ja`` extra is an ordinary pip extra).  The ``uses:`` step
(github/codeql-action/upload-sarif) cannot run here: its inputs are checked instead — the
SARIF file it is given exists and validates against the SARIF 2.1.0 schema.

Three runs: the shipped articles (real drift: annotations, a summary with the findings, the
SARIF uploaded, the job failing), an article set in sync given by ``paths`` and ``config``
(the job passing), and a path that does not exist (the check step failing, nothing after it
running).
"""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from conftest import REPO
from test_report_formats import SCHEMA, _validate_sarif

ACTION = yaml.safe_load((REPO / "action.yml").read_text(encoding="utf-8"))
EXPRESSION = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")
# What `pip install` of the action's folder needs (the action path is the repository).
ACTION_FILES = ["pyproject.toml", "README.md", "action.yml"]
INSTALL_TIMEOUT = 600


def _value(name: str, context: dict) -> str:
    """``inputs.x``, ``steps.id.outputs.y``, … looked up in ``context`` ('' when unset)."""
    value: object = context
    for part in name.split("."):
        value = value.get(part, "") if isinstance(value, dict) else ""
    return str(value)


def _evaluate(expression: str, context: dict) -> object:
    """The part of the Actions expression language ``action.yml`` uses: context names,
    string literals, ``==``, ``!=``, ``&&``, ``||``."""
    python = expression.replace("&&", " and ").replace("||", " or ")
    names: dict[str, str] = {}

    def name(match: re.Match) -> str:
        names[f"_{len(names)}"] = _value(match.group(), context)
        return f"_{len(names) - 1}"

    python = re.sub(r"(?<!['\w])[a-z_][\w-]*(?:\.[\w-]+)+", name, python)

    def walk(node: ast.AST) -> object:
        if isinstance(node, ast.Expression):
            return walk(node.body)
        if isinstance(node, ast.BoolOp):
            values = [walk(v) for v in node.values]
            return all(values) if isinstance(node.op, ast.And) else any(values)
        if isinstance(node, ast.Compare) and len(node.ops) == 1:
            left, right = walk(node.left), walk(node.comparators[0])
            return left == right if isinstance(node.ops[0], ast.Eq) else left != right
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Name):
            return names[node.id]
        raise AssertionError(f"expression not understood by the test: {expression!r}")

    return walk(ast.parse(python, mode="eval"))


def _substitute(text: str, context: dict) -> str:
    return EXPRESSION.sub(lambda m: str(_evaluate(m.group(1), context)), text)


def _read_outputs(path: Path) -> dict[str, str]:
    outputs = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        key, _, value = line.partition("=")
        outputs[key] = value
    return outputs


class Runner:
    """What a GitHub runner gives a composite action's steps, in a scratch folder."""

    def __init__(self, tmp: Path, action_path: Path):
        self.tmp = tmp
        self.action_path = action_path
        self.temp = tmp / "runner-temp"
        self.temp.mkdir(exist_ok=True)
        self.steps: dict[str, dict] = {}

    def play(self, workspace: Path, inputs: dict[str, str], skip: tuple[str, ...] = ()) -> list:
        """Every step in order; returns ``(step, result)`` pairs, ``result`` being the
        finished process of a ``run:`` step, the evaluated ``with:`` of a ``uses:`` one, or
        ``None`` for a step skipped by its ``if:``; a failed step ends the list.  Steps
        whose id is in ``skip`` are taken as already run (their earlier outputs stay)."""
        defaults = {name: spec.get("default", "") for name, spec in ACTION["inputs"].items()}
        context = {"inputs": {**defaults, **inputs}, "steps": self.steps}
        self.summary = self.temp / "step-summary.md"
        self.summary.write_text("", encoding="utf-8")
        played = []
        for number, step in enumerate(ACTION["runs"]["steps"]):
            if step.get("id") in skip:
                continue
            condition = step.get("if")
            if condition is not None and not _evaluate(EXPRESSION.sub(r"\1", condition), context):
                played.append((step, None))
                continue
            if "uses" in step:
                played.append(
                    (step, {k: _substitute(str(v), context) for k, v in step["with"].items()})
                )
                continue
            output = self.temp / f"output-{number}"
            output.write_text("", encoding="utf-8")
            env = {
                **os.environ,
                **{k: _substitute(str(v), context) for k, v in step.get("env", {}).items()},
                "GITHUB_ACTIONS": "true",
                "GITHUB_WORKSPACE": str(workspace),
                "GITHUB_ACTION_PATH": str(self.action_path),
                "RUNNER_TEMP": str(self.temp),
                "GITHUB_OUTPUT": str(output),
                "GITHUB_STEP_SUMMARY": str(self.summary),
                "PARALLELCHECK_CACHE_DIR": str(self.tmp / "cache"),
                "PIP_DISABLE_PIP_VERSION_CHECK": "1",
                "NO_COLOR": "1",
            }
            assert step["shell"] == "bash"
            result = subprocess.run(
                ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]],
                cwd=workspace,
                env=env,
                capture_output=True,
                text=True,
                encoding="utf-8",
                timeout=INSTALL_TIMEOUT,
                check=False,
            )
            if "id" in step:
                self.steps[step["id"]] = {"outputs": _read_outputs(output)}
            played.append((step, result))
            if result.returncode != 0:
                break
        return played


@pytest.fixture(scope="module")
def runner(tmp_path_factory) -> Runner:
    """A runner whose action path holds the project's files, after the install step."""
    tmp = tmp_path_factory.mktemp("action")
    action_path = tmp / "action"
    action_path.mkdir()
    for name in ACTION_FILES:
        shutil.copy2(REPO / name, action_path / name)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info")
    shutil.copytree(REPO / "src", action_path / "src", ignore=ignore)
    runner = Runner(tmp, action_path)
    (install, *_) = ACTION["runs"]["steps"]
    assert install["id"] == "install"
    runner.install = runner.play(tmp, {"python": sys.executable, "extras": ""})[0][1]
    if runner.install.returncode != 0:
        pytest.fail(f"the install step failed:\n{runner.install.stdout}\n{runner.install.stderr}")
    return runner


def _workspace(tmp: Path, name: str) -> Path:
    workspace = tmp / name
    workspace.mkdir()
    return workspace


def test_the_action_declares_its_inputs_and_outputs():
    assert ACTION["runs"]["using"] == "composite"
    assert set(ACTION["inputs"]) >= {"paths", "config", "args", "upload-sarif", "summary"}
    assert all("description" in spec for spec in ACTION["inputs"].values())
    assert set(ACTION["outputs"]) == {"exit-code", "sarif-file"}
    ids = [step.get("id") for step in ACTION["runs"]["steps"]]
    assert ids[:2] == ["install", "check"]
    # no expression inside a script: inputs reach the scripts as environment variables
    assert all("${{" not in step.get("run", "") for step in ACTION["runs"]["steps"])


def test_the_install_step_installs_the_action_paths_parallelcheck(runner):
    assert re.match(r"parallelcheck, version \d+\.\d+\.\d+", runner.install.stdout)
    installed = Path(runner.steps["install"]["outputs"]["parallelcheck"])
    assert installed.is_file() and installed.is_relative_to(runner.temp)


def test_on_drifted_articles_the_job_fails_with_annotations_summary_and_sarif(runner):
    workspace = _workspace(runner.tmp, "drifted")
    shutil.copytree(REPO / "articles", workspace / "articles")
    shutil.copytree(REPO / "glossary", workspace / "glossary")
    played = runner.play(workspace, {}, skip=("install",))
    names = [step["name"] for step, _ in played]
    assert names == [
        "Check the language versions",
        "Upload SARIF to code scanning",
        "Fail on error findings",
    ]
    (_, check), (upload, given), (_, failing) = played
    assert check.returncode == 0, check.stderr
    assert runner.steps["check"]["outputs"]["exit-code"] == "1"
    # annotations: one workflow command per finding and deviating version
    annotations = [line for line in check.stdout.splitlines() if line.startswith("::")]
    assert len(annotations) == 16
    assert annotations[0].startswith("::error file=articles/deepinfer-vs-lmdeploy/")
    # the summary: the Markdown format, its findings
    summary = runner.summary.read_text(encoding="utf-8")
    assert summary.startswith("## parallelcheck: 8 findings in 1 article\n")
    assert "| deepinfer-vs-lmdeploy |" in summary
    # the SARIF the upload step is given
    assert upload["uses"].startswith("github/codeql-action/upload-sarif@")
    sarif = Path(given["sarif_file"])
    assert sarif == Path(runner.steps["check"]["outputs"]["sarif-file"])
    log = json.loads(sarif.read_text(encoding="utf-8"))
    if SCHEMA.is_file():  # ../shared/spec; the rest of the test holds without it
        _validate_sarif(log)
    assert len(log["runs"][0]["results"]) == 8
    assert given["category"] == "parallelcheck"
    # the job fails
    assert failing.returncode == 1


def test_paths_config_and_args_reach_the_check_and_a_clean_run_passes(runner):
    workspace = _workspace(runner.tmp, "in-sync")
    site = workspace / "site" / "guide"
    site.mkdir(parents=True)
    (site / "en.md").write_text("# Guide\n\nVersion 1.2.3 ships 42 commands.\n", encoding="utf-8")
    (site / "ja.md").write_text(
        "# ガイド\n\nバージョン 1.2.3 は 42 個のコマンド。\n", encoding="utf-8"
    )
    (workspace / "ci.yaml").write_text("languages: [en, ja]\n", encoding="utf-8")
    inputs = {"paths": "site", "config": "ci.yaml", "upload-sarif": "false", "args": "--jobs 1"}
    played = runner.play(workspace, inputs, skip=("install",))
    (_, check), (_, skipped), (_, passing) = played
    assert check.returncode == 0, check.stderr
    assert runner.steps["check"]["outputs"]["exit-code"] == "0"
    assert skipped is None  # upload-sarif: false
    assert "All language versions agree: 1 article checked." in runner.summary.read_text()
    assert passing.returncode == 0
    # the configuration given was read: a language it names but no file has is reported
    (workspace / "ci.yaml").write_text("languages: [en, ja, ko]\n", encoding="utf-8")
    (_, check), *_ = runner.play(workspace, inputs, skip=("install",))
    assert runner.steps["check"]["outputs"]["exit-code"] == "1"
    assert "missing-version" in check.stdout


def test_a_check_that_cannot_run_fails_its_step_and_nothing_runs_after_it(runner):
    workspace = _workspace(runner.tmp, "wrong-path")
    played = runner.play(workspace, {"paths": "no-such-folder"}, skip=("install",))
    assert [step["name"] for step, _ in played] == ["Check the language versions"]
    ((_, check),) = played
    assert check.returncode == 2
    assert "parallelcheck: error:" in check.stderr and "no-such-folder" in check.stderr
    assert runner.summary.read_text(encoding="utf-8") == ""
