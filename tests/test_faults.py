"""Faults are per file: a version that cannot be read is an error finding of its article.

A version file that is not decodable, binary, not openable or gone by the time it is read
becomes an ``unreadable-version`` finding naming the file (and the line of the first bad
byte); the article's other versions and every other article are still checked.  Only a run in
which no version at all could be read stops with exit status 2.  The results are the same
with one or two jobs and with or without the cache.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from conftest import invoke, report_options, run_cli, write_article, written_report

from parallelcheck.config import Config
from parallelcheck.engine import CheckOptions
from parallelcheck.errors import InputError
from parallelcheck.model.article import ArticleSet
from parallelcheck.rules import REGISTRY
from parallelcheck.run import workers
from parallelcheck.run.pipeline import check_all, check_set

RULE = "unreadable-version"

PNG = (  # a whole 1×1 image
    b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00"
    b"\x1f\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\xf8\x0f\x00\x00\x01\x01\x00\x05\x18\xd8N\x00\x00"
    b"\x00\x00IEND\xaeB`\x82"
)
# Line 3 starts with 0xff, never valid in UTF-8 (and no byte-order mark, no NUL): undecodable.
GARBAGE = b"# Title\n\n\xff\xfegarbage\x80\x81\n"
LATIN1 = "# Titre\n\nLe caf\u00e9 ouvre \u00e0 8 heures.\n".encode("latin-1")  # 0xe9 on line 3

EN = "# Serving\n\nDeepInfer serves 131,072 tokens on 8 GPUs.\n\n## Setup\n\nInstall it.\n"
JA = (
    "# サービング\n\nDeepInfer は 8 基の GPU で 131,072 トークンを扱います。\n\n"
    "## 設定\n\n入れます。\n"
)
JA_CHANGED = JA.replace("131,072", "65,536")  # a real number change: number-mismatch


def run(*args: str, cwd: Path, cache: Path | None = None) -> subprocess.CompletedProcess:
    """``parallelcheck ARGS`` in ``cwd`` (caching into ``cache`` when given), in this process
    (:func:`conftest.invoke`)."""
    env = None if cache is None else {"PARALLELCHECK_CACHE_DIR": str(cache)}
    return invoke(*args, cwd=cwd, env=env)


def article(root: Path, name: str, files: dict[str, str | bytes]) -> Path:
    return write_article(root / name, files)


def tree(tmp_path: Path, bad: bytes = GARBAGE) -> Path:
    """Two good articles (one with a number change) and one whose ``ja.md`` is ``bad``; a
    fourth good one so that ``--jobs 2`` really starts workers (they start from four)."""
    root = tmp_path / "articles"
    article(root, "alpha", {"en.md": EN, "ja.md": JA_CHANGED, "ko.md": JA_CHANGED})
    article(root, "beta", {"en.md": EN, "ja.md": JA, "ko.md": JA})
    article(root, "broken", {"en.md": EN, "ja.md": bad, "ko.md": JA_CHANGED})
    article(root, "delta", {"en.md": EN, "ja.md": JA})
    return tmp_path


def faults(document: dict) -> list[dict]:
    return [f for f in document["findings"] if f["rule"] == RULE]


# ---------------------------------------------------------------------------
# Through the command line


@pytest.mark.parametrize("bad", [GARBAGE, PNG, LATIN1], ids=["garbage", "png", "latin-1"])
def test_one_unreadable_version_is_a_finding_and_the_rest_is_checked(tmp_path, bad):
    project = tree(tmp_path, bad)
    proc = run("check", "articles", "--format", "json", "--no-cache", cwd=project)
    assert proc.returncode == 1, proc.stderr
    assert "Traceback" not in proc.stderr and "error:" not in proc.stderr
    document = json.loads(proc.stdout)  # one valid JSON document, nothing else
    assert [a["id"] for a in document["articles"]] == ["alpha", "beta", "broken", "delta"]
    # The good articles' findings are all there.
    alpha = [f for f in document["findings"] if f["article"] == "alpha"]
    assert {f["rule"] for f in alpha} == {"number-mismatch"}
    assert not [f for f in document["findings"] if f["article"] in ("beta", "delta")]
    # The bad article: the fault names the file, and its readable versions were still
    # compared among themselves (ko's changed number, against en).
    (fault,) = faults(document)
    path = "articles/broken/ja.md"
    assert fault["article"] == "broken" and fault["severity"] == "error"
    assert fault["langs"] == ["ja"] and fault["reference_langs"] == ["en", "ko"]
    assert path in fault["message"]
    line = 1 if bad is PNG else 3
    assert fault["locations"] == [{"lang": "ja", "path": path, "line": line}]
    if bad is PNG:
        assert "looks like a binary file, not text" in fault["message"]
    else:
        assert f"{path}:3: cannot be decoded" in fault["message"]
    broken = [f for f in document["findings"] if f["article"] == "broken" and f["rule"] != RULE]
    assert [(f["rule"], f["langs"]) for f in broken] == [("number-mismatch", ["ko"])]
    # The unreadable version is listed nowhere as checked, and not reported as missing.
    assert document["articles"][2]["versions"] == {
        "en": "articles/broken/en.md",
        "ko": "articles/broken/ko.md",
    }
    assert document["summary"]["error"] == len(alpha) + 2


def test_same_output_with_one_or_two_jobs_and_with_or_without_the_cache(tmp_path):
    project = tree(tmp_path)
    cache = tmp_path / "cache"
    outputs = []
    for extra in (["--jobs", "1", "--no-cache"], ["--jobs", "2", "--no-cache"]):
        outputs.append(run("check", "articles", "--format", "json", *extra, cwd=project))
    for jobs in ("1", "2", "2", "1"):  # cold, then warm from the cache
        outputs.append(run("check", "articles", "--format", "json", "--jobs", jobs, cwd=project,
                           cache=cache))  # fmt: skip
    assert {proc.returncode for proc in outputs} == {1}
    assert len({proc.stdout for proc in outputs}) == 1
    assert list(cache.rglob("*.json"))  # the warm runs did come from the cache
    text = [run("check", "articles", "--jobs", j, "--no-cache", cwd=project) for j in "12"]
    assert text[0].stdout == text[1].stdout and "unreadable-version" in text[0].stdout


def test_every_format_shows_the_fault(tmp_path):
    project = tree(tmp_path)
    (project / "articles" / "broken" / "en.md").write_bytes(PNG)
    (project / "articles" / "broken" / "ko.md").write_bytes(LATIN1)  # no readable version left
    for output_format in ("text", "json", "sarif", "github", "markdown", "html"):
        site = tmp_path / "site"
        options = report_options(output_format, site)
        proc = run("check", "articles", *options, "--no-cache", cwd=project)
        assert proc.returncode == 1, (output_format, proc.stderr)
        assert "articles/broken/ja.md" in written_report(proc, output_format, site), output_format
        assert "Traceback" not in proc.stderr
    document = json.loads(run("check", "articles", "--format", "json", cwd=project).stdout)
    assert [f["langs"] for f in faults(document)] == [["en"], ["ja"], ["ko"]]
    assert all(f["reference_langs"] == [] for f in faults(document))
    assert document["articles"][2] == {"id": "broken", "source": "en", "versions": {}}


def test_nothing_readable_stops_the_run_naming_the_file(tmp_path):
    article(tmp_path / "articles", "only", {"en.md": LATIN1, "ja.md": PNG})
    for extra in ([], ["--format", "json"], ["--jobs", "2"], ["--no-cache"]):
        proc = run("check", "articles", *extra, cwd=tmp_path, cache=tmp_path / "cache")
        assert proc.returncode == 2, (extra, proc.stdout, proc.stderr)
        assert proc.stdout == ""
        message = proc.stderr.strip()
        assert "\n" not in message and "Traceback" not in message
        assert message.startswith("parallelcheck: error: articles/only/en.md:3: cannot be decoded")
        assert "articles/only/ja.md" in message  # the other file is named too


def test_no_readable_version_gives_the_first_file_own_message(tmp_path):
    article(tmp_path, "art", {"en.md": GARBAGE, "ja.md": GARBAGE})
    # the whole article set, as a hook passes; python -m parallelcheck itself
    proc = run_cli("check", "art/ja.md", cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stderr.strip() == (
        "parallelcheck: error: art/en.md:3: cannot be decoded: byte 0xff is not valid UTF-8 "
        "(expected UTF-8 text; save the file as UTF-8); nothing could be checked: no other "
        "version file could be read either (art/ja.md)"
    )


def test_the_rule_is_listed_explained_selected_and_ignored(tmp_path):
    project = tree(tmp_path)
    listing = run("rules", cwd=project).stdout
    assert any(line.split()[:2] == [RULE, "error"] for line in listing.splitlines())
    explained = run("explain", RULE, cwd=project)
    assert explained.returncode == 0 and "binary" in explained.stdout

    def rules_of(*args: str) -> tuple[int, set[str]]:
        proc = run("check", "articles", "--format", "json", "--no-cache", *args, cwd=project)
        return proc.returncode, {f["rule"] for f in json.loads(proc.stdout)["findings"]}

    assert rules_of("--select", RULE) == (1, {RULE})
    assert rules_of("--ignore", RULE) == (1, {"number-mismatch"})
    assert rules_of("--ignore", "number-mismatch") == (1, {RULE})
    (project / "parallelcheck.yaml").write_text(f"rules:\n  {RULE}: {{severity: warning}}\n")
    proc = run("check", "articles/broken", "--format", "json", "--no-cache",
               "--ignore", "number-mismatch", cwd=project)  # fmt: skip
    assert proc.returncode == 0  # only a warning now
    assert [f["severity"] for f in faults(json.loads(proc.stdout))] == ["warning"]
    (project / "parallelcheck.yaml").write_text(f"rules:\n  {RULE}: off\n")
    _, found = rules_of()
    assert RULE not in found


def test_an_unreadable_version_is_not_also_missing(tmp_path):
    project = tree(tmp_path)
    (project / "parallelcheck.yaml").write_text("languages: [en, ja, ko, de]\n")
    proc = run("check", "articles/broken", "--format", "json", "--no-cache", cwd=project)
    document = json.loads(proc.stdout)
    (missing,) = [f for f in document["findings"] if f["rule"] == "missing-version"]
    assert missing["langs"] == ["de"]  # ja has a file: it is unreadable, not missing
    assert [f["langs"] for f in faults(document)] == [["ja"]]


# ---------------------------------------------------------------------------
# The engine: vanished files, directories, the source, workers reading ahead


def _versions(folder: Path, texts: dict[str, str | bytes]) -> dict[str, str]:
    folder.mkdir(parents=True, exist_ok=True)
    versions = {}
    for lang, text in texts.items():
        path = folder / f"{lang}.md"
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(text, encoding="utf-8")
        versions[lang] = str(path)
    return versions


def test_a_vanished_file_and_a_directory_are_faults_of_their_article(tmp_path):
    versions = _versions(tmp_path, {"en": EN, "ko": JA_CHANGED})
    versions["ja"] = str(tmp_path / "gone.md")  # found, then deleted before it was read
    (tmp_path / "de.md").mkdir()
    versions["de"] = str(tmp_path / "de.md")
    result = check_set(ArticleSet("art", versions), Config(), CheckOptions())
    assert result.article.langs == ("en", "ko")
    found = {f.langs[0]: f for f in result.findings if f.rule == RULE}
    assert f"{tmp_path / 'gone.md'}: file not found" in found["ja"].message
    assert "is a directory, not a file" in found["de"].message
    assert {loc.line for f in found.values() for loc in f.locations} == {1}
    assert [f.rule for f in result.findings if f.rule != RULE] == ["number-mismatch"]


def test_an_unreadable_source_leaves_the_others_compared_among_themselves(tmp_path):
    versions = _versions(tmp_path, {"en": GARBAGE, "ja": JA, "ko": JA_CHANGED})
    result = check_set(ArticleSet("art", versions), Config(), CheckOptions(source="en"))
    assert result.article.source == "ja"  # the first readable one, as without an en version
    mismatch = [f for f in result.findings if f.rule == "number-mismatch"]
    assert [(f.langs, f.reference_langs) for f in mismatch] == [(("ko",), ("ja",))]
    assert [f.langs for f in result.findings if f.rule == RULE] == [("en",)]


def test_check_all_raises_only_when_nothing_could_be_read(tmp_path):
    good = ArticleSet("good", _versions(tmp_path / "g", {"en": EN, "ja": JA}))
    bad = ArticleSet("bad", _versions(tmp_path / "b", {"en": PNG, "ja": GARBAGE}))
    results = list(check_all([good, bad], Config(), CheckOptions()))
    assert [r.article.id for r in results] == ["good", "bad"]
    assert [f.rule for f in results[1].findings] == [RULE, RULE]
    seen = []
    with pytest.raises(InputError) as caught:
        seen.extend(check_all([bad], Config(), CheckOptions()))
    assert [r.article.id for r in seen] == ["bad"]  # every result first, then the error
    assert caught.value.path == str(tmp_path / "b" / "en.md")
    assert "looks like a binary file" in caught.value.message
    assert str(tmp_path / "b" / "ja.md") in caught.value.message


def test_a_file_read_ahead_or_not_gives_the_same_fault(tmp_path):
    versions = _versions(tmp_path, {"en": EN, "de": LATIN1})
    article_set = ArticleSet("art", versions)
    alone = check_set(article_set, Config(), CheckOptions())
    read = workers.read_ahead([article_set], lambda: True)  # the bad file is left to the worker
    assert (versions["de"], "de") not in read
    ahead = check_set(article_set, Config(), CheckOptions(), ahead=read)
    assert (versions["en"], "en") not in read  # handed over and used
    assert ahead.findings == alone.findings
    assert [f.rule for f in ahead.findings] == [RULE]


def test_jobs_do_not_change_the_faults(tmp_path):
    sets = []
    for index in range(5):  # enough article sets for worker processes
        folder = tmp_path / f"a{index}"
        folder.mkdir()
        texts: dict[str, str | bytes] = {"en": EN, "de": EN.replace("8 GPUs", "8 GPUs.")}
        if index % 2:
            texts["de"] = LATIN1
        sets.append(ArticleSet(f"a{index}", _versions(folder, texts)))
    one = [r.findings for r in check_all(sets, Config(), CheckOptions(jobs=1))]
    two = [r.findings for r in check_all(sets, Config(), CheckOptions(jobs=2))]
    assert one == two
    faulty = [index for index, found in enumerate(one) if any(f.rule == RULE for f in found)]
    assert faulty == [1, 3]


def test_the_rule_is_registered_and_documented():
    rule = REGISTRY[RULE]
    assert rule.severity == "error"
    assert "unreadable-version" not in rule.summary and "read" in rule.summary
    assert "line" in rule.doc and "exit status 2" in rule.doc


def test_the_engine_checks_documents_it_is_given_without_reading_a_file(tmp_path):
    from parallelcheck.engine import article_context, check_article
    from parallelcheck.model.aligned import UnreadableVersion
    from parallelcheck.readers import parse_text

    documents = {"en": parse_text(EN, "gone/en.md", "en", "markdown")}  # no such file
    fault = UnreadableVersion("de", "gone/de.md", "looks like a binary file")
    rules = {RULE: "error", "missing-section": "error"}
    context = article_context("art", "de", (), documents, [fault], Config(), CheckOptions(), rules)
    assert context.source == "en"  # the readable version, de being unreadable
    result = check_article(documents, [fault], context)
    assert [f.rule for f in result.findings] == [RULE]
    assert result.article.unreadable == (fault,) and result.outline.langs == ("en",)
