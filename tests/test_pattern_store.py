"""The regular expressions' compiled forms: built patterns equal ``re``'s, what is kept, and
the store in the cache folder (:mod:`parallelcheck.text.regexes`,
:mod:`parallelcheck.run.pattern_store`)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO

from parallelcheck.run.cache import PATTERNS
from parallelcheck.run.pattern_store import MAX_BYTES, PatternStore
from parallelcheck.text import regexes
from parallelcheck.text.regexes import CompiledForms, compiled_with_form, same_pattern

SAMPLES = [
    (r"(?P<year>\d{4})-(\d\d)(?:-(?P<day>\d\d))?", 0),
    (r"\bcolou?r\b|gr[ae]y", re.IGNORECASE),
    (r"^[ \t]*(`{3,}|~{3,})(.*)$", re.MULTILINE),
    ("[\u3040-\u30ff\u4e00-\u9fff]+|(?<![가-힣])하나", 0),
    (r"(a)(?(1)b|c)", re.DOTALL | re.VERBOSE),
]
TEXTS = [
    "2024-05-06 and 1999-12",
    "Colour GREY color",
    "```py\n  ~~~\nx",
    "ひらがな漢字 하나",
    "ab c",
]


def _same(built: re.Pattern[str], compiled: re.Pattern[str]) -> None:
    assert built == compiled  # CPython compares the source, the flags and the opcodes
    assert (built.flags, built.groups, built.groupindex) == (
        compiled.flags,
        compiled.groups,
        compiled.groupindex,
    )
    for text in TEXTS:
        assert [m.span() + m.groups() for m in built.finditer(text)] == [
            m.span() + m.groups() for m in compiled.finditer(text)
        ]


def form_of(pattern: re.Pattern[str]) -> list | None:
    """The form of a pattern ``re`` compiled, when the compiler's steps give that pattern."""
    made = compiled_with_form(pattern.pattern, pattern.flags)
    return made[1] if made is not None and same_pattern(made[0], pattern) else None


def _kept_forms(source: str, flags: int) -> CompiledForms:
    """A table holding the form of one pattern, as a store gives it back."""
    form = form_of(re.compile(source, flags))
    assert form is not None
    return CompiledForms({(source, int(flags)): json.loads(json.dumps(form))})


@pytest.mark.parametrize(("source", "flags"), SAMPLES)
def test_a_pattern_built_from_its_kept_form_equals_the_one_re_compiles(source, flags):
    forms = _kept_forms(source, flags)
    built = forms.compile(source, flags)
    _same(built, re.compile(source, flags))
    assert forms.added == 0  # built from the form: nothing compiled afresh
    assert forms.compile(source, flags) is built  # once per process


def test_a_pattern_without_a_form_is_compiled_and_its_form_checked_and_kept():
    forms = CompiledForms()
    source, flags = SAMPLES[0]
    pattern = forms.compile(source, flags)
    _same(pattern, re.compile(source, flags))
    assert forms.added == 1 and set(forms.forms) == {(source, flags)}


@pytest.mark.parametrize(
    "damage",
    [
        lambda form: [form[0], "not base64!", *form[2:]],
        lambda form: [form[0], "AAAAAA==", *form[2:]],  # opcodes the engine rejects
        lambda form: [form[0], form[1], "two", *form[3:]],
        lambda form: [form[0], form[1], form[2], {"year": "1"}, form[4]],
        lambda form: form[:3],
    ],
)
def test_a_damaged_form_is_compiled_afresh_and_replaced(damage):
    source, flags = SAMPLES[0]
    good = _kept_forms(source, flags).forms[source, flags]
    forms = CompiledForms({(source, flags): damage(good)})
    _same(forms.compile(source, flags), re.compile(source, flags))
    assert forms.added == 1 and forms.forms[source, flags] == good


def _check(path: Path, cache: Path, *extra: str, seed: str = "0") -> subprocess.CompletedProcess:
    env = {**os.environ, "PARALLELCHECK_CACHE_DIR": str(cache), "PYTHONHASHSEED": seed}
    return subprocess.run(
        [sys.executable, "-m", "parallelcheck", "check", str(path), "--format", "json", *extra],
        cwd=path.parent,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )


def test_a_second_run_builds_its_patterns_from_the_store_with_the_same_output(tmp_path):
    """Also: the package writes each pattern the same way in every process (string hashing,
    which orders sets, differs between them), or each run would compile and store anew."""
    cache = tmp_path / "cache"
    first = _check(REPO / "articles", cache, "--no-cache", seed="1")
    (stored,) = (cache / PATTERNS).iterdir()
    kept = stored.read_bytes()
    second = _check(REPO / "articles", cache, "--no-cache", seed="2")
    assert first.returncode == second.returncode == 1
    assert second.stdout == first.stdout
    assert stored.read_bytes() == kept  # nothing new compiled: the store is not written
    assert stored.stat().st_mode & 0o077 == 0  # private, like result entries
    forms = PatternStore(cache).load()
    assert len(forms.forms) > 200  # the package's own patterns and the profiles' patterns
    for source, flags in list(forms.forms):  # every kept form builds what re compiles
        assert same_pattern(forms.compile(source, flags), re.compile(source, flags))
    assert forms.added == 0


def test_patterns_made_of_a_users_input_are_never_kept(tmp_path):
    """A glossary's terms and a configuration's globs are compiled with ``re``."""
    project = tmp_path / "project"
    shutil.copytree(REPO / "articles", project / "articles")
    (project / "glossary.yaml").write_text(
        "terms:\n  - id: zorblax\n    en: Zorblaxian frobnicator\n    ja: ゾルブラクシアン\n",
        encoding="utf-8",
    )
    (project / "parallelcheck.yaml").write_text(
        "glossary: [glossary.yaml]\n"
        "exclude: ['**/_quuxdraft*.md']\n"
        "links: {localized_prefixes: ['/quuxprefix/{lang}/']}\n"
        "rules: {link-mismatch: {ignore_targets: ['https://quuxtarget.example/*']}}\n",
        encoding="utf-8",
    )
    cache = tmp_path / "cache"
    result = _check(project / "articles", cache)
    assert result.returncode in (0, 1), result.stderr
    (stored,) = (cache / PATTERNS).iterdir()
    text = stored.read_text(encoding="ascii")
    assert "Zorblax" not in text and "quux" not in text, "input kept as a pattern"
    assert "\\u30be" not in text.lower()  # ゾ


def _store_with(tmp_path: Path, document: object) -> PatternStore:
    store = PatternStore(tmp_path)
    store.folder.mkdir(mode=0o700, parents=True)
    store.path.write_text(json.dumps(document), encoding="ascii")
    store.path.chmod(0o600)
    return store


def _document(store: PatternStore, forms: CompiledForms) -> dict:
    store.save(forms)
    return json.loads(store.path.read_text(encoding="ascii"))


def test_the_store_gives_back_what_it_kept(tmp_path):
    forms = CompiledForms()
    for source, flags in SAMPLES:
        forms.compile(source, flags)
    store = PatternStore(tmp_path)
    store.save(forms)
    assert store.folder.stat().st_mode & 0o777 == 0o700
    again = store.load()
    assert again.forms == forms.forms
    for source, flags in SAMPLES:
        _same(again.compile(source, flags), re.compile(source, flags))
    assert again.added == 0


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d.update(interpreter="cpython-99|another Python"),
        lambda d: d.update(version=99),
        lambda d: d.update(format="something else"),
        lambda d: d.update(forms={"a": 1}),
        lambda d: d["forms"].append(["source", "not flags", 0, "", 0, {}, []]),
        lambda d: d["forms"].append(["too short"]),
    ],
)
def test_a_store_of_another_interpreter_or_not_well_formed_is_ignored(tmp_path, change):
    forms = CompiledForms()
    forms.compile(*SAMPLES[0])
    document = _document(PatternStore(tmp_path / "a"), forms)
    change(document)
    assert _store_with(tmp_path / "b", document).load().forms == {}


def test_a_store_file_not_to_be_trusted_is_not_read(tmp_path):
    forms = CompiledForms()
    forms.compile(*SAMPLES[0])
    document = _document(PatternStore(tmp_path / "a"), forms)
    writable = _store_with(tmp_path / "writable", document)
    assert len(writable.load().forms) == 1
    writable.path.chmod(0o666)
    assert writable.load().forms == {}
    linked = _store_with(tmp_path / "linked", {})
    linked.path.unlink()
    linked.path.symlink_to(writable.path)
    writable.path.chmod(0o600)
    assert linked.load().forms == {}
    big = _store_with(tmp_path / "big", document)
    with big.path.open("ab") as handle:
        handle.truncate(MAX_BYTES + 1)
    assert big.load().forms == {}
    (tmp_path / "not-json" / PATTERNS).mkdir(parents=True, mode=0o700)
    garbage = PatternStore(tmp_path / "not-json")
    garbage.path.write_bytes(b"\xff\xfe not json")
    garbage.path.chmod(0o600)
    assert garbage.load().forms == {}


def test_a_full_store_keeps_only_the_patterns_of_the_run_that_writes_it():
    forms = CompiledForms({("old pattern", 0): form_of(re.compile("old pattern"))})
    forms.compile(*SAMPLES[0])
    assert set(forms.kept(limit=2)) == {("old pattern", 0), SAMPLES[0]}
    assert set(forms.kept(limit=1)) == {SAMPLES[0]}


def test_with_no_table_in_use_patterns_compile_as_re_does(monkeypatch):
    monkeypatch.setattr(regexes, "_in_use", None)
    assert regexes.compile_pattern(*SAMPLES[1]) is re.compile(*SAMPLES[1])  # re's own cache
    table = CompiledForms()
    assert regexes.use(table) is table and regexes.in_use() is table
    assert regexes.use(CompiledForms()) is table  # the first table stays
    _same(regexes.compile_pattern(*SAMPLES[1]), re.compile(*SAMPLES[1]))
    assert table.added == 1


#: Where the package compiles with ``re`` itself: layers that import no text primitive (the
#: model, the formatters, files, fixes) and the store's own plumbing.
_PLAIN_RE = ("model/", "report/", "files/", "fix/", "run/cache.py", "run/model_store.py")
_MARK = "made of the input: compiled by re, never kept"


def test_the_package_compiles_its_own_patterns_through_compile_pattern():
    """Every ``re.compile`` elsewhere is a pattern made of the input, and says so just
    above it: a new constant pattern compiled with ``re`` would not be kept."""
    package = REPO / "src" / "parallelcheck"
    unmarked = []
    for path in sorted(package.rglob("*.py")):
        relative = path.relative_to(package).as_posix()
        if relative.startswith(_PLAIN_RE) or relative == "text/regexes.py":
            continue
        lines = path.read_text(encoding="utf-8").splitlines()
        for number, line in enumerate(lines):
            if "re.compile(" in line and not any(
                _MARK in above for above in lines[number - 2 : number]
            ):
                unmarked.append(f"{relative}:{number + 1}: {line.strip()}")
    assert unmarked == []


_SOURCES_OF_A_PROCESS = """
import json, sys
from parallelcheck.text import regexes
table = regexes.use(regexes.CompiledForms())
import parallelcheck.cli, parallelcheck.rules, parallelcheck.run.pipeline  # every module
from parallelcheck.rules import REGISTRY
from parallelcheck.text import numeric
langs = sys.argv[1].split()
for lang in langs:
    numeric.extract_numbers("3 de mayo de 2024, 1,5 millones, 十二月, 이십", lang)
for spec in REGISTRY.values():
    if spec.prepare is not None:
        spec.prepare(langs, spec.option_values(None))
print(json.dumps(sorted(map(list, table.patterns))))
"""


def test_every_pattern_source_is_the_same_in_every_process():
    """Each process writes the package's patterns the same way, whatever its string hashing
    (which orders sets): else each run would compile and keep its own."""
    langs = "en de fr es pt-BR it nl pl ru uk tr fa ar he hi ja ko zh zh-Hant vi id th sv"

    def sources(seed: str) -> list:
        env = {**os.environ, "PYTHONHASHSEED": seed}
        result = subprocess.run(
            [sys.executable, "-c", _SOURCES_OF_A_PROCESS, langs],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        return json.loads(result.stdout)

    first = sources("1")
    assert len(first) > 400
    assert sources("2") == first


def test_a_process_whose_compiler_steps_differ_from_re_keeps_no_form(monkeypatch):
    """The first pattern compiled by the compiler's steps is checked against ``re``: should
    they give another pattern (another interpreter's ``re``), nothing is kept."""
    source, flags = SAMPLES[1]
    other = re.compile("something else")
    made = regexes.compiled_with_form(source, flags)
    assert made is not None and _equal_forms(made[1], form_of(re.compile(source, flags)))
    monkeypatch.setattr(regexes, "compiled_with_form", lambda *key: (other, made[1]))
    forms = CompiledForms()
    _same(forms.compile(source, flags), re.compile(source, flags))
    _same(forms.compile(*SAMPLES[0]), re.compile(*SAMPLES[0]))
    assert forms.reproduces_re is False and forms.added == 0 and forms.forms == {}


def _equal_forms(one: list | None, other: list | None) -> bool:
    return one is not None and json.dumps(one) == json.dumps(other)


def test_a_pattern_of_bytes_is_compiled_by_re_and_never_kept(monkeypatch):
    table = CompiledForms()
    monkeypatch.setattr(regexes, "_in_use", table)
    assert regexes.compile_pattern(rb"<!DOCTYPE\s+\w+", re.I) is re.compile(
        rb"<!DOCTYPE\s+\w+", re.I
    )
    assert table.forms == {} and table.added == 0
