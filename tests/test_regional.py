"""The `regional-variant` rule: Chinese in the other script or with another region's terms."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from conftest import REPO, parse_versions
from hypothesis import given, settings
from hypothesis import strategies as st

from parallelcheck.align.progressive import align_article
from parallelcheck.config import load_config
from parallelcheck.errors import InputError
from parallelcheck.readers import read_document
from parallelcheck.rules import REGISTRY
from parallelcheck.rules.regional_variant import (
    _TO_SIMPLIFIED,
    _TO_TRADITIONAL,
    LanguageOptions,
    OtherScript,
    RegionalSettings,
    _han_characters,
    _pieces,
    convert,
    other_region_terms,
    regional_settings,
    shared_other_script,
    wrong_script,
)
from parallelcheck.text.kept import KeptTable, KeptTables
from parallelcheck.text.script import HAN_CHAR as _HAN

ARTICLE = REPO / "articles" / "deepinfer-vs-lmdeploy"
LANGS = ("en", "ja", "ko", "zh-Hant")

TAIWAN = RegionalSettings(traditional=True, region="TW", script=True, vocabulary=True)
MAINLAND = RegionalSettings(traditional=False, region="CN", script=True, vocabulary=True)


def aligned_article():
    documents = {lang: read_document(str(ARTICLE / f"{lang}.md"), lang) for lang in LANGS}
    return align_article("deepinfer-vs-lmdeploy", documents, "en")


def regional_variant(article, languages=None):
    """The rule's findings, with its ``languages`` option set as the configuration would."""
    options = {"languages": languages} if languages is not None else None
    return list(REGISTRY["regional-variant"].run(article, options=options))


# ---------------------------------------------------------------------------
# Settings


@pytest.mark.parametrize(
    ("tag", "traditional", "region", "vocabulary"),
    [
        ("zh-TW", True, "TW", True),
        ("zh-HK", True, "HK", True),
        ("zh-MO", True, "MO", True),
        ("zh-Hant-TW", True, "TW", True),
        ("zh-CN", False, "CN", True),
        ("zh-SG", False, "SG", True),
        ("zh-Hans", False, "CN", False),
        ("zh-Hant", True, "TW", False),
        ("zh", False, "CN", False),
    ],
)
def test_script_is_always_on_and_vocabulary_only_for_tags_naming_a_region(
    tag, traditional, region, vocabulary
):
    settings = regional_settings(tag, {})
    assert settings is not None
    assert (settings.traditional, settings.region) == (traditional, region)
    assert (settings.script, settings.vocabulary) == (True, vocabulary)


def test_non_chinese_versions_have_no_settings():
    assert regional_settings("ja", {}) is None
    assert regional_settings("en", {"en": True}) is None


def test_configured_settings_override_the_defaults():
    configured = {
        "zh-hant": LanguageOptions(vocabulary=True),
        "zh-TW": LanguageOptions(script=False),
        "zh-CN": False,
        "zh-HK": {"script": True, "vocabulary": None, "allow": ["唔該"]},
    }
    hant = regional_settings("zh-Hant", configured)
    assert (hant.script, hant.vocabulary) == (True, True)
    taiwan = regional_settings("zh-TW", configured)
    assert (taiwan.script, taiwan.vocabulary) == (False, True)
    mainland = regional_settings("zh-CN", configured)
    assert (mainland.script, mainland.vocabulary) == (False, False)
    hong_kong = regional_settings("zh-HK", configured)
    assert (hong_kong.script, hong_kong.vocabulary, hong_kong.allow) == (
        True,
        True,
        frozenset({"唔該"}),
    )


# ---------------------------------------------------------------------------
# OpenCC decisions


def test_simplified_characters_in_a_traditional_text():
    found = wrong_script("這個版本沒有快取系统，也不支援这个模型。", traditional=True)
    assert [(ch, right) for _, ch, right in found] == [("统", "統"), ("这", "這"), ("个", "個")]


def test_characters_written_alike_in_both_scripts_are_not_reported():
    # 台 (Hong Kong and Taiwan keep it), 了 in 了解, 系 in 系統, 只, 才, 占 (Taiwan standard)
    text = "台灣的開發者了解系統，只有才能占用資源的服務。"
    assert wrong_script(text, traditional=True) == []


def test_traditional_characters_in_a_simplified_text():
    found = wrong_script("簡单用法：这个参数會被忽略。", traditional=False)
    assert [(ch, right) for _, ch, right in found] == [("簡", "简"), ("會", "会")]
    # 著 in 著作 and 乾 in 乾坤 are Simplified too
    assert wrong_script("鲁迅的著作，乾坤未定。", traditional=False) == []


#: Every character :data:`parallelcheck.text.script.HAN_CHAR` matches.
HAN = [chr(c) for r in ((0x3400, 0x4DC0), (0x4E00, 0xA000), (0xF900, 0xFB00)) for c in range(*r)]


@pytest.mark.parametrize("config", _TO_TRADITIONAL + _TO_SIMPLIFIED)
def test_characters_converted_one_per_line_convert_as_they_do_alone(config):
    # What OtherScript relies on to convert a version's characters in one call.
    assert convert(config, "\n".join(HAN)).split("\n") == [convert(config, ch) for ch in HAN]


@pytest.mark.parametrize("traditional", [True, False])
def test_the_other_scripts_characters_are_those_every_conversion_changes_alone(traditional):
    configs = _TO_TRADITIONAL if traditional else _TO_SIMPLIFIED
    sample = set(HAN[::7])
    expected = {ch for ch in sample if ch != "占" and all(convert(c, ch) != ch for c in configs)}
    assert OtherScript(traditional).among(sample) == expected
    assert len(expected) > 400  # the sample holds characters of the other script


def _no_conversion(config: str, text: str) -> str:
    raise AssertionError(f"conversion {config} asked for")


@pytest.mark.parametrize("traditional", [True, False])
def test_kept_characters_are_used_without_loading_a_conversion(traditional, monkeypatch):
    from parallelcheck.rules import regional_variant

    table = KeptTable("opencc test")
    worked_out = OtherScript(traditional, table).changed()
    (entry,) = table.entries.values()
    assert set(entry) - {"占"} == worked_out and table.added
    monkeypatch.setattr(regional_variant, "convert", _no_conversion)
    again = OtherScript(traditional, KeptTable("opencc test", dict(table.entries)))
    assert again.kept() and again.changed() == worked_out
    own_script = "這個簡單的參數。" if traditional else "这个简单的参数。"
    assert wrong_script(own_script, traditional, again) == []  # told with no conversion


@pytest.mark.parametrize(
    "damage",
    [
        lambda entry: 42,
        lambda entry: "",
        lambda entry: entry + "a",  # not a Han character
        lambda entry: entry[::-1],  # not in code order
        lambda entry: entry + entry[-1],  # one twice
    ],
)
def test_a_damaged_kept_entry_is_worked_out_afresh_and_replaced(damage):
    table = KeptTable("opencc test")
    good = OtherScript(False, table).changed()
    (key, entry) = next(iter(table.entries.items()))
    damaged = KeptTable("opencc test", {key: damage(entry)})
    other = OtherScript(False, damaged)
    assert not other.kept()
    assert other.changed() == good and damaged.entries[key] == entry and damaged.added


def test_prepare_loads_no_script_conversion_when_the_characters_are_kept(monkeypatch):
    from parallelcheck.rules import regional_variant

    tables = KeptTables()
    table = tables.table(regional_variant.KEPT_TABLE, regional_variant.opencc_tag())
    for traditional in (True, False):
        OtherScript(traditional, table).changed()
    monkeypatch.setattr(regional_variant, "TABLES", tables)
    loaded: list[str] = []
    monkeypatch.setattr(regional_variant, "_converter", loaded.append)
    shared_other_script.cache_clear()
    try:
        spec = REGISTRY["regional-variant"]
        spec.prepare(["en", "zh-Hant", "zh"], spec.option_values(None))
        assert loaded == []  # script checks only: the characters are known
        spec.prepare(["en", "zh-TW"], spec.option_values(None))
        assert loaded == ["s2tw", "s2twp"]  # a region's vocabulary converts every text
    finally:
        shared_other_script.cache_clear()


#: Characters of either script and of both, with some that are not Han.
_MIXED = [*"这個简體设資料台了系占参數会被忽略鲁迅乾坤", "a", "1", "。", "\n", "、"]


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.text(st.sampled_from(_MIXED), max_size=12), min_size=1, max_size=5), st.booleans()
)
def test_a_piece_holds_wrong_characters_only_if_it_holds_a_suspect_of_its_version(
    texts, traditional
):
    # What the rule relies on to skip a version's pieces: the characters every conversion
    # changes among all of the version's characters, intersected with a piece's.
    suspects = shared_other_script(traditional).among(set("".join(texts)) & set(HAN))
    for text in texts:
        found = {ch for _, ch, _ in wrong_script(text, traditional)}
        assert found <= suspects & set(text)  # so nothing where they are disjoint


def test_an_article_checked_after_another_gives_the_findings_it_gives_alone(tmp_path):
    # The characters learned are shared by every check of a process (shared_other_script).
    simplified = parse_versions(en="# T\n\nSimple text.\n", zh_Hant="# T\n\n這个简单的参数。\n")
    traditional = parse_versions(en="# T\n\nSimple text.\n", zh_Hant="# T\n\n這個簡單的參數。\n")
    first, second = (
        align_article(name, docs, "en") for name, docs in (("a", traditional), ("b", simplified))
    )
    shared_other_script.cache_clear()
    alone = regional_variant(second)
    shared_other_script.cache_clear()
    assert regional_variant(first) == []
    assert regional_variant(second) == alone
    assert [f.evidence["characters"] for f in alone] == [
        [["个", "個"], ["简", "簡"], ["单", "單"], ["参", "參"], ["数", "數"]]
    ]


def test_mainland_terms_in_a_taiwan_text():
    found = other_region_terms("這台伺服器的硬件兼容性很好，預設也不用改默認軟件。", TAIWAN)
    assert [(term, right) for _, term, right in found] == [
        ("硬件", "硬體"),
        ("兼容", "相容"),
        ("默認", "預設"),
        ("軟件", "軟體"),
    ]


def test_terms_common_in_taiwan_are_allowed():
    text = "請查看文件中的參數與項目，用戶端會建立實例並優化資料。"
    assert other_region_terms(text, TAIWAN) == []
    allowed = RegionalSettings(True, "TW", True, True, allow=frozenset({"硬件"}))
    assert other_region_terms("相同硬件", allowed) == []


def test_taiwan_terms_in_a_mainland_text():
    found = other_region_terms("请把软体安装到硬碟，然后重新开机。", MAINLAND)
    terms = {term for _, term, _ in found}
    assert "软体" in terms


def test_offsets_point_at_the_term():
    text = "第一行\n這裡用了硬件。"
    [(offset, term, _)] = other_region_terms(text, TAIWAN)
    assert text[offset : offset + len(term)] == "硬件"


# ---------------------------------------------------------------------------
# The user's article

EXPECTED_LINES = [3, 5, 23, 25, 33, 37, 41, 52, 56, 62, 64, 66, 72, 99, 100]


def test_the_article_reports_nothing_with_the_defaults():
    assert list(regional_variant(aligned_article())) == []
    assert list(regional_variant(aligned_article(), {})) == []


def test_the_article_reports_mainland_terms_when_vocabulary_is_on():
    options = {"zh-Hant": LanguageOptions(vocabulary=True)}
    findings = list(regional_variant(aligned_article(), options))
    assert [f.locations[0].line for f in findings] == EXPECTED_LINES
    assert all(f.langs == ("zh-Hant",) and f.rule == "regional-variant" for f in findings)
    terms = {term for f in findings for term, _ in f.evidence["terms"]}
    assert terms == {"硬件", "兼容"}
    table_row = next(f for f in findings if f.locations[0].line == 37)
    assert table_row.message.startswith("table row “硬件")
    assert "硬件 (Taiwan: 硬體)" in table_row.message
    text = (ARTICLE / "zh-Hant.md").read_text(encoding="utf-8").split("\n")
    for f in findings:
        line = text[f.locations[0].line - 1]
        assert any(term in line for term, _ in f.evidence["terms"])


def test_the_article_has_no_wrong_script_characters():
    options = {"zh-Hant": {"script": True}}
    assert list(regional_variant(aligned_article(), options)) == []


@pytest.mark.parametrize("options", [None, {}, {"zh-Hant": {"script": True}}])
def test_a_simplified_sentence_in_the_traditional_version_is_reported(options):
    article = aligned_article()
    section = next(s for s in article.sections if s.rows and s.rows[0].cells.get("zh-Hant"))
    block = section.rows[0].cells["zh-Hant"]
    block.text = "这个版本只支持一个模型。" + block.text
    findings = list(regional_variant(article, options))
    assert len(findings) == 1
    assert findings[0].locations[0].line == block.line
    assert "Simplified characters" in findings[0].message
    assert "这 (這)" in findings[0].message
    assert findings[0].severity == "error"


def test_the_script_check_is_switched_off_by_configuration():
    article = aligned_article()
    section = next(s for s in article.sections if s.rows and s.rows[0].cells.get("zh-Hant"))
    section.rows[0].cells["zh-Hant"].text += "这个"
    assert regional_variant(article, {"zh-Hant": {"script": False}}) == []
    assert regional_variant(article, {"zh-Hant": False}) == []


def _two_versions(lang: str, english: str, chinese: str):
    documents = parse_versions(en=f"# Title\n\n{english}\n", **{lang.replace("-", "_"): chinese})
    return align_article("a", documents, "en")


@pytest.mark.parametrize(
    ("lang", "chinese"),
    [
        ("zh-Hans", "# 标题\n\n这个版本只支持一个模型，已經過時。\n"),  # 經, 過, 時
        ("zh", "# 标题\n\n这个版本只支持一个模型，已經過時。\n"),
        ("zh-CN", "# 标题\n\n这个版本只支持一个模型，已經過時。\n"),
        ("zh-HK", "# 標題\n\n這個版本只支持一个模型。\n"),  # 个
    ],
)
def test_wrong_script_is_reported_by_default_for_every_script_or_region(lang, chinese):
    findings = regional_variant(_two_versions(lang, "This version supports one model.", chinese))
    assert [(f.langs, f.locations[0].line, f.evidence["check"]) for f in findings] == [
        ((lang,), 3, "script")
    ]


def test_a_plain_zh_version_written_in_traditional_characters_is_left_alone():
    # zh names no script: a site may write it in Traditional characters throughout
    chinese = "# 標題\n\n這個版本只支援一個模型。\n\n請查看說明書。\n"
    english = "This version supports one model.\n\nRead the manual."
    assert regional_variant(_two_versions("zh", english, chinese)) == []


@pytest.mark.parametrize(
    ("lang", "english", "chinese", "reported"),
    [
        # 指标 is the mainland word for "metric"; Taiwan's 指標 "pointer" is the mainland 指针
        ("zh-CN", "Improve the Core Web Vitals metrics.", "改进核心 Web 指标。", False),
        ("zh-CN", "Pass a pointer to the buffer.", "传入缓冲区的指标。", True),
        # 局部 is "partial" in Taiwan; "local" (mainland 局部) is 區域 there
        ("zh-TW", "Partial pages render a fragment.", "局部頁面只算繪片段。", False),
        ("zh-TW", "Read the local setting.", "讀取局部設定。", True),
        # 资料 is "profile, material" on the mainland; Taiwan's 資料 "data" is 数据
        ("zh-CN", "Link to your profile.", "链接到个人资料。", False),
        ("zh-CN", "Send the data to the server.", "把资料发送到服务器。", True),
        # a term of one meaning only is reported whatever the source says
        ("zh-TW", "The hardware is fast.", "這個硬件很快。", True),
    ],
)
def test_terms_of_two_meanings_are_judged_by_the_aligned_source(lang, english, chinese, reported):
    findings = regional_variant(_two_versions(lang, english, f"# 標題\n\n{chinese}\n"))
    vocabulary = [f for f in findings if f.evidence["check"] == "vocabulary"]
    assert bool(vocabulary) is reported, [f.message for f in findings]
    if reported:
        assert vocabulary[0].locations[0].line == 3
        assert vocabulary[0].severity == "warning"


# ---------------------------------------------------------------------------
# Configuration


def _config(tmp_path: Path, text: str):
    (tmp_path / "parallelcheck.yaml").write_text(textwrap.dedent(text), encoding="utf-8")
    return load_config(None, cwd=str(tmp_path), known_rules=REGISTRY)


def test_the_regional_key_is_read(tmp_path):
    config = _config(
        tmp_path,
        """\
        regional:
          zh-hant: {vocabulary: true, allow: [質量]}
          zh-TW: off
        """,
    )
    assert config.rules["regional-variant"].options["languages"] == {
        "zh-Hant": LanguageOptions(vocabulary=True, allow=("質量",)),
        "zh-TW": LanguageOptions(script=False, vocabulary=False),
    }


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("regional:\n  zh-Hant:\n    scrpit: true\n", 3, "unknown key 'scrpit'"),
        ("regional:\n  zh-Hant:\n    vocabulary: 1\n", 3, "must be true or false"),
        ("regional:\n  zh-Hant: [script]\n", 2, "must be true, false or a mapping"),
        ("regional: [zh-Hant]\n", 1, "'regional' must be a mapping"),
        ("regional:\n  nonsense-tag-x: true\n", 2, "invalid language tag"),
    ],
)
def test_bad_regional_settings_name_the_line(tmp_path, text, line, words):
    with pytest.raises(InputError) as caught:
        _config(tmp_path, text)
    assert caught.value.line == line
    assert words in caught.value.message


_PLACES = [
    "# 标題\n\n這是說明。\n",  # the heading
    "# 標題\n\n這是说明。\n",  # a paragraph
    "# 標題\n\n- 第一項\n  - 這是说明\n",  # a nested list item
    "# 標題\n\n| 名稱 | 說明 |\n| --- | --- |\n| 甲 | 这 |\n",  # a table row
    "# 標題\n\n> 這是说明。\n",  # a quote
    '# 標題\n\n!!! note "这"\n\n    這是說明。\n',  # an admonition's title
]


@pytest.mark.parametrize("chinese", _PLACES)
def test_a_wrong_character_is_found_wherever_the_version_holds_it(chinese):
    # The rule looks for the other script in the whole version (_han_characters) before it
    # cuts the version into pieces: every piece's characters must be among those it reads.
    article = _two_versions("zh-Hant", "This is the description.", chinese)
    pieces = "".join(
        text for section in article.sections for _, text, _, _ in _pieces(section, "zh-Hant", "en")
    )
    assert set(_HAN.findall(pieces)) <= _han_characters(article, "zh-Hant")
    findings = regional_variant(article)
    assert [(f.langs, f.evidence["check"]) for f in findings] == [(("zh-Hant",), "script")]
