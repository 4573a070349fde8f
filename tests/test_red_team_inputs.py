"""Issue 17 (red team), cases 7, 9 and 13, through the real command line.

Each test runs ``parallelcheck …`` (through its real entry point, in this process:
``conftest.invoke``; one as ``python -m parallelcheck``) in a fresh project and expects what
docs/cli.md promises for input the run cannot use: exit status 2 and one line
``parallelcheck: error: FILE:LINE: …`` naming the user's file — never a traceback, never an
"internal error", never an internal temporary file.  Where the input is readable (a large
glossary) the command does its work instead.
"""

from __future__ import annotations

import random
import subprocess
from pathlib import Path

import pytest
from conftest import invoke, run_cli, write_article

EN = "# Serving\n\nDeepInfer serves 8 GPUs.\n"
DE = "# Bereitstellung\n\nDeepInfer bedient 8 GPUs.\n"


def run(*args: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return invoke(*args, cwd=cwd, env=env)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project with one clean article set in two languages."""
    write_article(tmp_path / "articles" / "serving", {"en.md": EN, "de.md": DE})
    return tmp_path


def assert_refused(proc: subprocess.CompletedProcess, where: str, *words: str) -> str:
    """Exit 2 and exactly one line on stderr, ``parallelcheck: error: WHERE…`` holding
    ``words``; nothing that looks like a crash.  Returns the line."""
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    output = proc.stdout + proc.stderr
    assert "Traceback" not in output and "internal error" not in output, output
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith(f"parallelcheck: error: {where}"), lines[0]
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


# ---------------------------------------------------------------------------
# Case 7: control characters in the configuration and in glossary YAML

CONTROL_CHARACTERS = pytest.mark.parametrize(
    ("char", "name"),
    [("\x07", "U+0007 (BEL)"), ("\x1b", "U+001B (ESC)"), ("\ufffe", "U+FFFE")],
    ids=["bel", "esc", "u+fffe"],
)


@CONTROL_CHARACTERS
def test_control_character_in_the_configuration_names_file_and_line(project, char, name):
    (project / "parallelcheck.yaml").write_text(
        f"root: articles\nsource: en{char}\n", encoding="utf-8"
    )
    proc = run("check", cwd=project)
    assert_refused(proc, "parallelcheck.yaml:2:", name, "column 11")


@CONTROL_CHARACTERS
def test_control_character_in_a_glossary_names_file_and_line(project, char, name):
    (project / "terms.yaml").write_text(
        f"terms:\n  - id: deepinfer\n    keep: Deep{char}Infer\n", encoding="utf-8"
    )
    proc = run("check", "--glossary", "terms.yaml", cwd=project)
    assert_refused(proc, "terms.yaml:3:", name)
    lint = run("glossary", "lint", "terms.yaml", cwd=project)
    assert lint.returncode == 2 and "Traceback" not in lint.stderr
    assert lint.stdout.startswith("terms.yaml:3: ") and name in lint.stdout


def test_control_character_in_a_toml_configuration_names_file_and_line(project):
    (project / "pyproject.toml").write_text(
        '[tool.parallelcheck]\nroot = "articles\x07"\n', encoding="utf-8"
    )
    assert_refused(run("check", cwd=project), "pyproject.toml:2:", "invalid TOML")


# ---------------------------------------------------------------------------
# Case 9: large glossaries: import and lint


def _csv_glossary(path: Path, count: int, seed: int = 9) -> None:
    rng = random.Random(seed)
    letters = "abcdefghijklmnopqrstuvwxyz"
    lines = ["id,en,de"]
    for number in range(count):
        word = "".join(rng.choice(letters) for _ in range(7))
        lines.append(f"t{number},{word} {number},{word}-{number}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_import_of_a_20000_term_csv_that_check_accepts(project):
    source = project / "big.csv"
    _csv_glossary(source, 20_000)
    proc = run("glossary", "import", "big.csv", "-o", "big.yaml", cwd=project)
    assert proc.returncode == 0, proc.stderr
    assert "wrote 20000 term(s) to big.yaml" in proc.stderr
    assert (project / "big.yaml").stat().st_size > 1_000_000  # past the old 1 MB YAML bound
    lint = run("glossary", "lint", "big.yaml", cwd=project)
    assert lint.returncode == 0, lint.stdout + lint.stderr
    assert lint.stdout.strip().endswith("20000 terms OK")


def test_import_errors_name_the_users_file_never_a_temporary_one(project):
    (project / "bad.csv").write_text('id,en\nok,fine\nx,"never closed\ny,z\n', encoding="utf-8")
    proc = run_cli("glossary", "import", "bad.csv", cwd=project)  # the process itself
    line = assert_refused(proc, "bad.csv:3:", "never closed")
    assert "/tmp" not in line and ".yaml" not in line


def test_lint_of_a_few_thousand_terms_is_quick(project):
    rng = random.Random(4)
    words = [
        "".join(rng.choice("bdfgklmnprst") + rng.choice("aeiou") for _ in range(3))
        for _ in range(3000)
    ]
    lines = ["terms:"]
    for number, word in enumerate(dict.fromkeys(words)):
        lines += [f"  - id: t{number}", f"    en: {word}", f"    de: {word}-x"]
    (project / "terms.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    proc = run("glossary", "lint", "terms.yaml", cwd=project)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr
    assert "terms OK" in proc.stdout


def test_a_50000_term_yaml_glossary_is_not_refused_outright(project):
    lines = ["terms:"] + [f"  - {{id: p{n}, keep: Product{n}x}}" for n in range(50_000)]
    (project / "terms.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert (project / "terms.yaml").stat().st_size > 1_000_000
    proc = run("glossary", "lint", "terms.yaml", cwd=project)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr
    assert proc.stdout.strip().endswith("50000 terms OK")


# ---------------------------------------------------------------------------
# Case 13: absurd baselines, deep TOML, --older-than nan, CSV quotes, invisible characters

BASELINE_HEAD = '{"schema": "parallelcheck/baseline/v2",\n "findings": '


@pytest.mark.parametrize(
    ("body", "line", "words"),
    [
        ("5}\n", 2, "'findings' must be a list of entries, not a number"),
        ('[], "x": ' + "9" * 5000 + "}\n", 2, "5,000 digits"),
        ("[" * 100_000 + "]" * 100_000 + "}\n", 2, "nested more than 100 levels deep"),
        (
            '[\n  {"rule": "x", "article": "a", "langs": "en", "reference_langs": [], '
            '"fingerprint": "f"}\n]}\n',
            3,
            "'langs' must be a list of language tags",
        ),
    ],
    ids=["findings-a-number", "5000-digit-integer", "100000-deep", "langs-a-string"],
)
def test_unusable_baseline_names_file_and_line(project, body, line, words):
    (project / "base.json").write_text(BASELINE_HEAD + body, encoding="utf-8")
    proc = run("check", "--baseline", "base.json", cwd=project)
    assert_refused(proc, f"base.json:{line}:", words)


def test_5000_deep_toml_configuration_names_file_and_line(project):
    text = "[tool.parallelcheck]\nroot = 'articles'\nrules = " + "[" * 5000 + "]" * 5000 + "\n"
    (project / "pyproject.toml").write_text(text, encoding="utf-8")
    proc = run("check", cwd=project)
    assert_refused(proc, "pyproject.toml:3:", "nested more than 100 levels deep")


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("root: " + "[" * 5000 + "]" * 5000 + "\n", 1, "nested more than 100 levels deep"),
        ("root: articles\nrules:\n  list-shape: " + "9" * 5000 + "\n", 3, "5,000 digits"),
        ("root: 2001-13-45\n", 1, "month must be in 1..12"),
    ],
    ids=["5000-deep", "5000-digit-integer", "impossible-date"],
)
def test_absurd_yaml_configuration_names_file_and_line(project, text, line, words):
    (project / "parallelcheck.yaml").write_text(text, encoding="utf-8")
    assert_refused(run("check", cwd=project), f"parallelcheck.yaml:{line}:", words)


@pytest.mark.parametrize("days", ["nan", "NaN", "inf", "-1"])
def test_cache_clear_older_than_nan_inf_or_negative_is_refused(project, tmp_path, days):
    cache = {"PARALLELCHECK_CACHE_DIR": str(tmp_path / "cache")}
    assert run("check", cwd=project, env=cache).returncode == 0
    before = run("cache", "info", cwd=project, env=cache).stdout
    proc = run("cache", "clear", "--older-than", days, cwd=project, env=cache)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr and "--older-than" in proc.stderr
    assert "removed" not in proc.stdout + proc.stderr
    assert run("cache", "info", cwd=project, env=cache).stdout == before  # nothing removed
    assert " 0 file(s)" not in before


def test_unterminated_csv_quote_is_an_error_at_its_row(project):
    (project / "terms.csv").write_text(
        'id,en,de\nok,fine,gut\nbad,"open quote,offen\nnext,after,danach\n', encoding="utf-8"
    )
    proc = run("check", "--glossary", "terms.csv", cwd=project)
    assert_refused(proc, "terms.csv:3:", "never closed")
    lint = run("glossary", "lint", "terms.csv", cwd=project)
    assert lint.returncode == 2 and lint.stdout.startswith("terms.csv:3: invalid CSV")


@pytest.mark.parametrize(
    ("escape", "name"),
    [
        ("\\u200d", "ZERO WIDTH JOINER"),
        ("\\u200c", "ZERO WIDTH NON-JOINER"),
        ("\\u200b", "ZERO WIDTH SPACE"),
        ("\\ufeff", "ZERO WIDTH NO-BREAK SPACE"),
        ("\\u00ad", "SOFT HYPHEN"),
        ("\\u202e", "RIGHT-TO-LEFT OVERRIDE"),
    ],
    ids=["zwj", "zwnj", "zwsp", "bom", "soft-hyphen", "bidi"],
)
def test_invisible_character_in_a_term_is_reported_with_file_line_and_id(project, escape, name):
    (project / "terms.yaml").write_text(
        "terms:\n  - id: fine\n    keep: LMDeploy\n"
        f'  - id: deepinfer\n    keep: "Deep{escape}Infer"\n',
        encoding="utf-8",
    )
    lint = run("glossary", "lint", "terms.yaml", cwd=project)
    assert lint.returncode == 2, lint.stdout + lint.stderr
    assert lint.stdout.startswith("terms.yaml:5: term 'deepinfer': "), lint.stdout
    assert name in lint.stdout and "Deep<U+" in lint.stdout
    proc = run("check", "--glossary", "terms.yaml", cwd=project)
    assert_refused(proc, "terms.yaml:5:", "term 'deepinfer'", name)


def test_joiners_stay_allowed_where_writing_needs_them(project):
    (project / "terms.yaml").write_text(
        'terms:\n  - id: want\n    fa: "\\u0645\\u06cc\\u200c\\u062e\\u0648\\u0627\\u0647\\u0645"\n'
        "  - id: family\n    en: family\n"
        '    ja: "\\U0001f468\\u200d\\U0001f469\\u200d\\U0001f467"\n',
        encoding="utf-8",
    )
    lint = run("glossary", "lint", "terms.yaml", cwd=project)
    assert lint.returncode == 0, lint.stdout + lint.stderr
    assert lint.stdout.strip().endswith("2 terms OK")
