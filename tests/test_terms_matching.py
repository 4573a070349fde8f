"""Matching glossary terms in every script (parallelcheck.glossary.match), including the cases that
word-boundary (``\\b``) tools miss: CJK text without spaces, Korean particles, full-width
Latin, Japanese orthographic variants through Sudachi."""

from __future__ import annotations

import itertools
import sys

import pytest

from parallelcheck.glossary import Glossary, LangTerms, Term
from parallelcheck.glossary.match import (
    blank_code,
    find_altered,
    find_terms,
    form_contains,
    ja_pipeline,
    japanese_variants_available,
    normalise_with_offsets,
    optional_distributions,
    uses_japanese_variants,
)


def _term(term_id: str, keep: str | None = None, **langs) -> Term:
    entries = {}
    for key, value in langs.items():
        if isinstance(value, str):
            value = LangTerms((value,))
        elif isinstance(value, list):
            value = LangTerms(tuple(value))
        entries[key.replace("_", "-")] = value
    return Term(term_id, keep, entries)


GLOSSARY = Glossary(
    (
        _term("term", en="term", zh_Hant="術語", ja="用語", ko="용어"),
        _term("kv-cache", en="KV cache", zh_Hant="KV cache", ja=["KV cache"], ko="KV 캐시"),
        _term(
            "kv-quant",
            en="KV-cache quantization",
            zh_Hant="KV cache 量化",
            ja="KV cache の量子化",
            ko="KV 캐시 양자화",
        ),
        _term("server", ja="サーバー"),
        _term("handling", ja="取り扱い"),
        _term(
            "pd",
            en=LangTerms(("PD disaggregation",), ("PD separation",)),
            zh_Hant=LangTerms(("PD 分離",), ("PD 分离",)),
            ko="PD 분리",
        ),
        _term("pd-short", en="PD"),
        _term("policy", en="batch policy"),
        _term("box", en="box"),
        _term("cache", ko="캐시"),
        _term("forbidden-ja", ja=LangTerms(("サーバー構成",), ("サーバ構成",))),
        _term("api", en=LangTerms(("API",), (), case_sensitive=True)),
        _term("deepinfer", keep="DeepInfer"),
        _term("lmdeploy", keep="LMDeploy"),
        _term("turbomind", keep="TurboMind"),
        _term("ascend", keep="Ascend"),
        _term("microbatch", keep="MicroBatch"),
        _term("internlm", keep="InternLM"),
        _term("tensorrt-llm", keep="TensorRT-LLM"),
        _term("vllm", keep="vLLM"),
        _term("llama-cpp", keep="llama.cpp"),
    )
)


def found(text: str, lang: str) -> list[tuple[str, str, str]]:
    return [
        (hit.term_id, text[hit.start : hit.end], hit.status)
        for hit in find_terms(text, lang, GLOSSARY)
    ]


def ids(text: str, lang: str) -> list[str]:
    return [term_id for term_id, _, _ in found(text, lang)]


# ---------------------------------------------------------------------------
# CJK substring matching


def test_chinese_term_inside_a_sentence_without_spaces():
    assert found("這個術語很重要", "zh-Hant") == [("term", "術語", "approved")]


def test_japanese_term_before_a_particle():
    assert found("この用語は", "ja") == [("term", "用語", "approved")]


def test_space_next_to_cjk_is_optional():
    assert ids("PD分離與 PD 分離", "zh-Hant") == ["pd", "pd"]


def test_forbidden_simplified_form_in_traditional_text():
    assert found("透過 Mooncake 實現的 PD 分离", "zh-Hant") == [("pd", "PD 分离", "forbidden")]


# ---------------------------------------------------------------------------
# Korean particles


@pytest.mark.parametrize(
    "word", ["용어는", "용어를", "용어의", "용어와", "용어에서는", "용어들의", "용어"]
)
def test_korean_term_followed_by_particles(word):
    assert found(f"이 {word} 중요합니다", "ko") == [("term", "용어", "approved")]


@pytest.mark.parametrize("text", ["전문용어", "용어집", "분산캐시", "캐시설정"])
def test_korean_term_inside_a_longer_noun_is_not_counted(text):
    assert found(text, "ko") == []


def test_korean_multi_word_term_with_particle():
    assert found("KV 캐시 양자화는 지원됩니다", "ko") == [
        ("kv-quant", "KV 캐시 양자화", "approved")
    ]


def test_korean_verb_derivation_counts():
    assert ids("PD 분리된 구성", "ko") == ["pd"]


# ---------------------------------------------------------------------------
# Width, case, inflection, hyphens


def test_full_width_latin_matches():
    text = "ＫＶ　ｃａｃｈｅ を使う"
    assert found(text, "ja") == [("kv-cache", "ＫＶ　ｃａｃｈｅ", "approved")]
    assert found("ＫＶ cache", "en") == [("kv-cache", "ＫＶ cache", "approved")]


def test_offsets_point_into_the_original_text():
    text = "「ＫＶ　ｃａｃｈｅ」の説明"
    (hit,) = find_terms(text, "ja", GLOSSARY)
    assert text[hit.start : hit.end] == "ＫＶ　ｃａｃｈｅ"
    norm, index = normalise_with_offsets(text)
    assert index is not None and len(index) == len(norm)


@pytest.mark.parametrize(
    "variant", ["KV cache", "KV-cache", "KV\u2011cache", "KV  cache", "kv cache", "KV caches"]
)
def test_hyphen_space_case_and_plural_variants(variant):
    assert ids(f"the {variant} grows", "en") == ["kv-cache"]


@pytest.mark.parametrize("word", ["terms", "term's", "term’s", "terms'"])
def test_plural_and_possessive(word):
    assert ids(f"a {word} meaning", "en") == ["term"]


def test_plural_ies_and_es():
    assert ids("two batch policies", "en") == ["policy"]
    assert ids("many boxes", "en") == ["box"]


def test_word_boundaries_in_latin_script():
    assert ids("terminal termination", "en") == []
    assert ids("GPD", "en") == []
    assert ids("PD分離", "en") == ["pd-short"]


def test_verb_forms_are_not_the_noun():
    assert ids("termed", "en") == []


def test_case_sensitive_entry():
    assert ids("an API here", "en") == ["api"]
    assert ids("an api here", "en") == []


def test_keep_terms_match_exactly_in_every_language():
    assert ids("DeepInfer と LMDeploy", "ja") == ["deepinfer", "lmdeploy"]
    assert ids("DeepInfer는 LMDeploy보다", "ko") == ["deepinfer", "lmdeploy"]
    assert ids("DeepInfer's engine; Deepinfer", "en") == ["deepinfer"]
    assert ids("TensorRT-LLM and TensorRT\u2011LLM", "en") == ["tensorrt-llm", "tensorrt-llm"]


# ---------------------------------------------------------------------------
# Longest match, no double counting


def test_longest_form_wins_and_is_counted_once():
    assert found("PD disaggregation and PD", "en") == [
        ("pd", "PD disaggregation", "approved"),
        ("pd-short", "PD", "approved"),
    ]
    assert ids("KV-cache quantization", "en") == ["kv-quant"]
    assert ids("KV cache 量化與 KV cache", "zh-Hant") == ["kv-quant", "kv-cache"]


def test_hits_never_overlap():
    text = "PD disaggregation, PD separation, KV-cache quantization, KV cache, PD"
    hits = find_terms(text, "en", GLOSSARY)
    for first, second in itertools.pairwise(hits):
        assert first.end <= second.start


# ---------------------------------------------------------------------------
# Japanese through Sudachi


def test_japanese_tokenizer_is_a_real_sudachi_tokenizer_loaded_once():
    sudachi = ja_pipeline()
    assert sudachi is not None, "SudachiPy and sudachidict-core must be installed"
    assert type(sudachi).__module__.startswith("sudachipy")
    assert [m.normalized_form() for m in sudachi.tokenize("サーバ")] == ["サーバー"]
    assert ja_pipeline() is sudachi


def test_the_ja_extra_is_seen_without_importing_it(monkeypatch):
    assert japanese_variants_available()  # the test extra installs the ja extra
    versions = dict(optional_distributions())
    assert versions["sudachidict-core"] and versions["sudachipy"]
    monkeypatch.setitem(sys.modules, "sudachidict_core", None)  # as if not installed
    assert not japanese_variants_available()


def test_only_japanese_approved_forms_that_are_no_keep_names_use_sudachi():
    assert uses_japanese_variants(GLOSSARY, "ja") and uses_japanese_variants(GLOSSARY, "ja-JP")
    assert not uses_japanese_variants(GLOSSARY, "ko")
    keep_only = Glossary((_term("deepinfer", keep="DeepInfer"),))
    assert not uses_japanese_variants(keep_only, "ja")
    forbidden_only = Glossary((_term("x", ja=LangTerms((), ("サーバ構成",))),))
    assert not uses_japanese_variants(forbidden_only, "ja")


def test_sudachi_normalised_form_matches_orthographic_variants():
    assert found("サーバとサーバー", "ja") == [
        ("server", "サーバ", "approved"),
        ("server", "サーバー", "approved"),
    ]
    assert ids("取扱いに注意", "ja") == ["handling"]


def test_japanese_particle_no_is_optional_inside_a_term():
    assert ids("KVキャッシュの量子化", "ja") == ["kv-quant"]
    assert ids("KV cache量子化", "ja") == ["kv-quant"]
    assert ids("KV キャッシュ", "ja") == ["kv-cache"]


def test_japanese_forbidden_forms_match_the_surface_only():
    # サーバ構成 normalises to サーバー構成 (approved), but it is written as the forbidden form
    assert found("サーバ構成を確認", "ja") == [("forbidden-ja", "サーバ構成", "forbidden")]


def test_japanese_matching_of_the_whole_article():
    # its speed (under 2 s): bench/bench_time_bounds.py --only ja-term-matching
    from conftest import REPO

    text = (REPO / "articles/deepinfer-vs-lmdeploy/ja.md").read_text(encoding="utf-8")
    ja_pipeline()
    hits = find_terms(text + " ", "ja", GLOSSARY)
    assert [h.term_id for h in hits].count("kv-cache") >= 3


# ---------------------------------------------------------------------------
# Near misses of keep terms


def altered(text: str, lang: str = "en") -> list[tuple[str, str]]:
    return [(a.term_id, a.found) for a in find_altered(text, lang, GLOSSARY)]


@pytest.mark.parametrize(
    ("text", "term", "written"),
    [
        ("Deepinfer is fast", "deepinfer", "Deepinfer"),
        ("use LM Deploy today", "lmdeploy", "LM Deploy"),
        ("the Turbomind engine", "turbomind", "Turbomind"),
        ("DeepInfr ships", "deepinfer", "DeepInfr"),
        ("Deep Infer ships", "deepinfer", "Deep Infer"),
        ("TensorRT LLM and", "tensorrt-llm", "TensorRT LLM"),
        ("VLLM is", "vllm", "VLLM"),
        ("the Microbatch path", "microbatch", "Microbatch"),
        ("ASCEND 950", "ascend", "ASCEND"),
        ("Llama.cpp runs", "llama-cpp", "Llama.cpp"),
        ("Deepinfer と", "deepinfer", "Deepinfer"),
    ],
)
def test_altered_keep_terms_are_found(text, term, written):
    assert altered(text) == [(term, written)]


@pytest.mark.parametrize(
    "text",
    [
        "DeepInfer and LMDeploy and TurboMind",
        "deploy the model, then redeploy it",
        "prices ascend slowly",
        "a micro-batch schedule",
        "InternLM2 and InternLM3",
        "pip install lmdeploy.serve from deepseek-ai/DeepInfer",
        "internal notes",
        "llama and llamas",
    ],
)
def test_ordinary_words_and_other_names_are_not_altered_terms(text):
    assert altered(text) == []


def test_a_keep_term_without_latin_letters_is_matched_exactly_and_has_no_near_misses():
    glossary = Glossary((_term("fujitsu", keep="富士通"), _term("deepinfer", keep="DeepInfer")))
    text = "Fujitsu 富士通 と Deepinfer"
    assert [hit.term_id for hit in find_terms(text, "ja", glossary)] == ["fujitsu"]
    assert [a.term_id for a in find_altered(text, "ja", glossary)] == ["deepinfer"]


def test_a_near_miss_inside_a_form_the_glossary_approves_is_no_altered_term():
    """``LM Deploy`` alone alters the keep term ``LMDeploy``; inside an approved form of
    another term (here ``LM Deploy mode``) it is that term's wording, and only the term is
    found."""
    glossary = Glossary(
        (_term("lmdeploy", keep="LMDeploy"), _term("lm-deploy-mode", en="LM Deploy mode"))
    )
    assert [a.found for a in find_altered("use LM Deploy today", "en", glossary)] == ["LM Deploy"]
    text = "switch to LM Deploy mode, then LM Deploy again"
    assert [hit.term_id for hit in find_terms(text, "en", glossary)] == ["lm-deploy-mode"]
    (near,) = find_altered(text, "en", glossary)
    assert near.start == text.rindex("LM Deploy")


def test_altered_offsets_and_suggestion():
    text = "Use Turbomind."
    (near,) = find_altered(text, "en", GLOSSARY)
    assert text[near.start : near.end] == "Turbomind"
    assert near.suggestion == "TurboMind" and near.how == "re-cased"


# ---------------------------------------------------------------------------
# Helpers


def test_blank_code_hides_inline_code_and_urls_keeping_offsets():
    text = "Run lmdeploy serve at https://github.com/InternLM/lmdeploy now"
    blanked = blank_code(text, ["lmdeploy serve"])
    assert len(blanked) == len(text)
    assert "lmdeploy" not in blanked and blanked.endswith("now")


def test_form_contains_follows_the_matching_rules():
    assert form_contains("KV cache 量化", "KV cache", "zh-Hant")
    assert form_contains("KV 캐시 양자화", "KV 캐시", "ko")
    assert not form_contains("분산캐시", "캐시", "ko")
    assert not form_contains("caching", "cache", "en")
