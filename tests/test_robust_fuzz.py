"""A fuzz test with a fixed budget: the shipped article, randomly damaged, through the engine
and every output format.

With a fixed seed and a fixed number of iterations (so every run checks the same inputs), the
versions of ``articles/deepinfer-vs-lmdeploy`` are mutated — bytes flipped, lines deleted,
duplicated and swapped, random Unicode and Markdown tokens inserted, files truncated (in the
middle of a UTF-8 sequence too) — stored as Markdown, or now and then as plain text or HTML,
and checked in process.  Whatever the damage:

* a version that cannot be decoded is an ``unreadable-version`` finding at a line of that
  file, and the other versions are still checked; nothing is raised but
  :class:`~parallelcheck.errors.InputError`, and only when no version can be read; it names
  one of the article's files (and, with a line, a line of that file);
* every format renders; the JSON (and SARIF) output is valid JSON, and the same for a second
  run of the same input;
* every location of every finding is a line of its file.

The budget is 150 iterations under ``HYPOTHESIS_PROFILE=full`` and 75 by default; set
``PARALLELCHECK_FUZZ_ITERATIONS`` to run more (or fewer) iterations, and
``PARALLELCHECK_FUZZ_SEED`` for other inputs; a failure names the iteration and the mutations.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest
from conftest import REPO, examples

from parallelcheck.config import Config
from parallelcheck.discover.sets import discover
from parallelcheck.engine import CheckOptions
from parallelcheck.errors import InputError
from parallelcheck.readers.decode import decode_bytes
from parallelcheck.report import FORMATS, Report
from parallelcheck.run.pipeline import check_all

SHIPPED = REPO / "articles" / "deepinfer-vs-lmdeploy"
# 150 under HYPOTHESIS_PROFILE=full, 75 under the default "ci" profile (conftest.examples).
ITERATIONS = int(os.environ.get("PARALLELCHECK_FUZZ_ITERATIONS", str(examples(150))))
SEED = int(os.environ.get("PARALLELCHECK_FUZZ_SEED", "20261129"))
RULES_NEEDING_GIT = ("stale-translation",)

# Characters that stress readers and rules: CJK, combining marks, right-to-left, zero-width and
# format characters, full-width digits, emoji, surrogate-free astral characters, separators.
ODD_CHARACTERS = (
    "十三萬一千零七十二百万两个열가지１２３４５６%％×倍배"
    "\u0301\u0308\u200b\u200c\u200d\u2060\ufeff\u202e\u202d\u061c"
    "\u00a0\u202f\u2009\u2028\u2029\u0085\x0c\t"
    "ﬁǅ𝟘𝟙😀🇯🇵\U000e0041\U0010fffd\ufffd"
    "|`*_<>[]()!#~:-=\\&;\"'"
)
MARKDOWN_TOKENS = (
    "```",
    "~~~",
    "# ",
    "## ",
    "###### ",
    "> ",
    "- ",
    "1. ",
    "| a | b |\n|---|---|\n",
    "!!! note\n    ",
    "/// tip | T\n",
    "///\n",
    "<!--",
    "-->",
    "<!-- parallelcheck-disable -->",
    "<!-- parallelcheck-enable -->",
    "<div>",
    "</div>",
    "<table><tr><td>",
    "---\n",
    "[x](",
    "](/ja/a)",
    "{ #id }",
    "\\",
    "    ",
)


def _lines(data: bytes) -> list[bytes]:
    return data.splitlines(keepends=True)


def _boundary(data: bytes, position: int) -> int:
    """``position`` moved back to the start of a UTF-8 character."""
    while 0 < position < len(data) and 0x80 <= data[position] < 0xC0:
        position -= 1
    return position


def mutate(data: bytes, rng: random.Random) -> tuple[bytes, str]:
    """One random mutation of ``data`` and a word saying which.  One in six works on raw bytes
    (any bit of any byte, cuts inside a UTF-8 sequence); the others keep the text decodable,
    so that most damaged articles get past the decoder to the readers and rules."""
    kind = rng.choice(
        ["flip", "delete-line", "duplicate-line", "swap-lines", "unicode", "token", "truncate"]
    )
    if not data:
        kind = rng.choice(["unicode", "token"])
    raw = rng.random() < 1 / 6
    if kind == "flip":
        position = rng.randrange(len(data))
        if raw:
            flipped = data[position] ^ (1 << rng.randrange(8))
        else:  # an ASCII byte stays ASCII: a letter, digit or mark changed
            position = _boundary(data, position)
            flipped = data[position] ^ (1 << rng.randrange(7)) if data[position] < 0x80 else 0x20
            flipped = flipped if flipped >= 0x20 or flipped in (9, 10) else 0x20
        return data[:position] + bytes([flipped]) + data[position + 1 :], kind
    if kind in ("delete-line", "duplicate-line", "swap-lines"):
        lines = _lines(data)
        index = rng.randrange(len(lines))
        if kind == "delete-line":
            del lines[index]
        elif kind == "duplicate-line":
            lines.insert(index, lines[index])
        else:
            other = rng.randrange(len(lines))
            lines[index], lines[other] = lines[other], lines[index]
        return b"".join(lines), kind
    position = rng.randrange(len(data) + 1)
    if not raw:
        position = _boundary(data, position)
    if kind == "truncate":
        return data[:position], f"{kind}{'-raw' if raw else ''}"
    if kind == "unicode":
        inserted = "".join(rng.choice(ODD_CHARACTERS) for _ in range(rng.randint(1, 8)))
    else:
        inserted = rng.choice(MARKDOWN_TOKENS)
    return data[:position] + inserted.encode("utf-8") + data[position:], kind


def damaged_article(rng: random.Random, originals: dict[str, bytes]) -> tuple[dict, list]:
    files = dict(originals)
    done = []
    for name in rng.sample(sorted(files), rng.randint(1, len(files))):
        for _ in range(rng.randint(1, 6)):
            files[name], kind = mutate(files[name], rng)
            done.append(f"{name}:{kind}")
    return files, done


def check(folder: Path) -> tuple[Report, dict[str, str]]:
    sets = discover([str(folder)], root=str(folder), cwd=os.getcwd())
    options = CheckOptions(jobs=1, ignore=RULES_NEEDING_GIT)
    results = list(check_all(sets, Config(), options))
    report = Report(
        articles=[r.article for r in results], findings=[f for r in results for f in r.findings]
    )
    return report, {path: lang for s in sets for lang, path in s.versions.items()}


def line_count(data: bytes) -> int:
    text = decode_bytes(data, "x")
    return max(1, text.count("\n") + (0 if text.endswith("\n") else 1))


def raw_line_count(data: bytes) -> int:
    """Lines of bytes that do not decode, counted as the decoder counts them (LF, CRLF, CR)."""
    return data.replace(b"\r\n", b"\n").replace(b"\r", b"\n").count(b"\n") + 1


def test_fuzzed_article_never_breaks_the_engine(tmp_path):
    originals = {path.name: path.read_bytes() for path in sorted(SHIPPED.glob("*.md"))}
    assert len(originals) >= 2, "the shipped article is there"
    rng = random.Random(SEED)
    outcomes = {"checked": 0, "partly checked": 0, "input errors": 0, "findings": 0}
    for iteration in range(ITERATIONS):
        files, mutations = damaged_article(rng, originals)
        extension = rng.choice(["md"] * 5 + ["txt", "txt", "html"])  # and the other readers
        files = {name.replace(".md", f".{extension}"): data for name, data in files.items()}
        mutations.append(f"as .{extension}")
        folder = tmp_path / f"run{iteration}" / "article"
        folder.mkdir(parents=True)
        for name, data in files.items():
            (folder / name).write_bytes(data)
        where = f"iteration {iteration} (seed {SEED}): {', '.join(mutations)}"
        try:
            report, langs = check(folder)
        except InputError as error:
            outcomes["input errors"] += 1
            assert error.path is not None and Path(error.path).name in files, where
            if error.line is not None:
                assert 1 <= error.line <= files[Path(error.path).name].count(b"\n") + 1, where
            continue
        except Exception as error:  # anything else is a bug: say which input caused it
            pytest.fail(f"{where}: {type(error).__name__}: {error}")
        faulty = any(f.rule == "unreadable-version" for f in report.findings)
        outcomes["partly checked" if faulty else "checked"] += 1
        outcomes["findings"] += len(report.findings)
        rendered = {}
        for name, render in sorted(FORMATS.items()):
            try:
                rendered[name] = render(report)
            except Exception as error:
                pytest.fail(f"{where}: --format {name}: {type(error).__name__}: {error}")
            assert isinstance(rendered[name], str), (where, name)
        json.loads(rendered["json"])
        if "sarif" in rendered:
            json.loads(rendered["sarif"])
        assert FORMATS["json"](check(folder)[0]) == rendered["json"], f"{where}: not deterministic"
        for finding in report.findings:
            assert finding.locations, where
            for location in finding.locations:
                data = files[Path(location.path).name]
                assert langs[location.path] == location.lang, where
                if finding.rule == "unreadable-version":  # no text: a line of its bytes
                    assert 1 <= location.line <= raw_line_count(data), (where, finding.as_dict())
                    continue
                assert 1 <= location.line <= line_count(data), (where, finding.as_dict())
    # The damage must leave most articles wholly readable, or the fuzzing tests nothing.
    assert outcomes["checked"] >= ITERATIONS // 3, outcomes
    assert outcomes["partly checked"] > 0, outcomes  # and some with a version left out
    assert outcomes["findings"] > 0, outcomes
