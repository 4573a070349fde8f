"""Alignment's block and section features against the full computation: the anchors counted
from their keys, the strong anchors worked out only when read, the body's anchors summed
from the blocks' keys (see ``align.progressive._document_features``)."""

from __future__ import annotations

import itertools
from collections import Counter

from conftest import parse_versions
from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz.fuzz import ratio as text_ratio

from parallelcheck.align import progressive
from parallelcheck.model.document import BlockKind
from parallelcheck.text.code_skeleton import code_skeleton
from parallelcheck.text.landmarks import anchors_of, counted, dice, strong_only
from parallelcheck.text.links import DEFAULT_PREFIXES, localised_prefix_patterns, normalise_target


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["#1", "`x", "@/a", "api", "~foo", "日本"]), max_size=12))
def test_counted_is_the_counter_of_the_keys_in_the_same_order(keys):
    found = counted(keys)
    assert type(found) is Counter
    assert found == Counter(keys)
    assert list(found.items()) == list(Counter(keys).items())
    found["#1"] += 1  # a Counter of its own: changing it leaves a new one untouched
    assert counted(keys) == Counter(keys)


def _dice_key_by_key(a: Counter[str], b: Counter[str], smoothing: float) -> float:
    """The multiset Dice coefficient from its definition, every shared anchor counted."""
    total = a.total() + b.total() + 2 * smoothing
    if total == 0:
        return 0.0
    shared = sum(min(count, b[key]) for key, count in a.items() if key in b)
    return (2.0 * shared + smoothing) / total


_ANCHOR_KEYS = st.lists(st.sampled_from(["#1", "#2", "`x", "@/a", "api", "~foo"]), max_size=8)


@settings(max_examples=500, deadline=None)
@given(_ANCHOR_KEYS, _ANCHOR_KEYS, st.booleans(), st.sampled_from([0.0, 1.0]), st.booleans())
def test_dice_of_equal_and_unequal_multisets_is_the_key_by_key_score(
    keys, others, same, smoothing, with_sizes
):
    """Equal multisets (the shortcut decides; made equal in another insertion order too) and
    unequal ones (the count decides) score exactly as counting every shared anchor does."""
    a = counted(keys)
    b = counted(reversed(keys) if same else others)
    sizes = (a.total(), b.total()) if with_sizes else None
    assert dice(a, b, smoothing, sizes) == _dice_key_by_key(a, b, smoothing)
    assert dice(b, a, smoothing, sizes and sizes[::-1]) == _dice_key_by_key(b, a, smoothing)


def test_dice_tells_equal_multisets_by_their_counts_too():
    one, two = Counter({"#1": 2, "api": 1}), Counter({"#1": 1, "api": 2})
    assert dice(one, two, 0.0, (3, 3)) == 4.0 / 6  # same keys, other counts: two shared
    assert dice(one, Counter({"api": 1, "#1": 2}), 0.0, (3, 3)) == 1.0


def test_strong_only_keeps_a_counter_of_the_strong_anchors():
    anchors = Counter({"~huawei": 2, "deepinfer": 1, "#64": 3})
    strong = strong_only(anchors)
    assert type(strong) is Counter
    assert strong == Counter({"deepinfer": 1, "#64": 3})
    assert strong.total() == 4


EN = """# Serving guide

DeepInfer 2.0 serves DeepSeek V4 on 64 GPUs with Huawei cards, see [the docs](/docs/x).

Plain words only here, and nothing that could be a name or a number.

```python
run(port=8000)
```

## Hardware

Use `vllm serve` with NVIDIA SM100. Then Huawei Ascend 950 follows.

- one item with Foo
- another with `--port`
"""

JA = """# サービングガイド

DeepInfer 2.0 は Huawei のカードで DeepSeek V4 を 64 基の GPU で提供する。[文書](/ja/docs/x)

ただの文です。この段落には日本語の言葉だけが並んでいて、名前も数字もありません。

```python
run(port=8000)
```

## ハードウェア

NVIDIA SM100 で `vllm serve` を使う。Huawei Ascend 950 が続く。

- Foo の項目
- `--port` の項目
"""


def _full_anchors(block, doc, source):
    """A block's anchors computed in full, as alignment computed them before the shortcuts."""
    if block.kind is BlockKind.CODE:
        return Counter()
    patterns = localised_prefix_patterns(doc.lang, DEFAULT_PREFIXES, source)
    return anchors_of(
        block.text,
        non_latin=progressive.written_in_non_latin(doc),
        code_spans=block.all_code_spans(),
        targets=[normalise_target(link.target, patterns) for link in block.all_links()],
    )


def test_block_and_section_features_are_those_of_the_full_computation():
    documents = parse_versions(en=EN, ja=JA, de=EN)
    for lang, doc in documents.items():
        sections, blocks, _ = progressive._document_features(doc, DEFAULT_PREFIXES, "en", {})
        latin = not progressive.written_in_non_latin(doc)
        assert latin == (lang != "ja")
        for section, features in zip(doc.sections, sections, strict=True):
            body: Counter[str] = Counter()
            for block, found in zip(section.blocks, blocks[id(section)], strict=True):
                full = _full_anchors(block, doc, "en")
                body += full
                assert found.anchors == full
                assert list(found.anchors) == list(full)
                assert found.anchors_size == full.total()
                # Worked out at once in a Latin-script version, when first read in another.
                assert (found._strong is not None) == latin
                assert found.strong == strong_only(full)
                assert found.strong_size == strong_only(full).total()
            assert features.content.body_anchors == body
            assert list(features.content.body_anchors) == list(body)
            assert (features._body_strong is not None) == latin
            assert features.body_strong == strong_only(body)
            assert features.content.sizes["body_strong"] == strong_only(body).total()
    # The texts hold weak anchors, so a strong multiset of its own was made somewhere.
    japanese = documents["ja"].iter_blocks()
    assert any("~huawei" in anchors_of(b.text, non_latin=True) for b in japanese)


def test_blocks_without_anchors_share_one_empty_multiset_that_no_comparison_changes():
    documents = parse_versions(en=EN, ja=JA)
    article = progressive.align_article("a", documents, "en")
    assert [len(s.rows) for s in article.sections] == [0, 3, 2]  # preamble, two sections
    _, blocks, _ = progressive._document_features(documents["en"], DEFAULT_PREFIXES, "en", {})
    empty = [f for features in blocks.values() for f in features if not f.anchors]
    assert len(empty) == 2  # the plain paragraph and the code block
    assert empty[0].anchors is empty[1].anchors
    assert not empty[0].anchors


_CODE = "```python\nrun(port=8000)  # {}\n```\n\n```{}\n{}\n```\n"
CODE_VERSIONS = {
    "en": "# Run\n\nStart it:\n\n" + _CODE.format("start", "python", "stop()"),
    # The same code; the same code with its comment translated; the second block as shell.
    "de": "# Start\n\nStarte es:\n\n" + _CODE.format("start", "bash", "stop()"),
    "ja": "# 実行\n\n起動する：\n\n" + _CODE.format("起動", "python", "stop(1)"),
}


def test_code_blocks_are_compared_by_their_skeletons_which_only_differing_code_reads():
    documents = parse_versions(**CODE_VERSIONS)
    skeletons: dict[tuple[str, str], str] = {}
    features = {
        lang: progressive._document_features(doc, DEFAULT_PREFIXES, "en", skeletons)
        for lang, doc in documents.items()
    }
    code = {
        lang: [f for fs in blocks.values() for f in fs if f.family == "code"]
        for lang, (_, blocks, _) in features.items()
    }
    assert all(f._code is None for found in code.values() for f in found)
    for a, b in itertools.product(code["en"], [*code["de"], *code["ja"]]):
        found = progressive.block_similarity(a, b)
        skeleton_a = code_skeleton(a.block.text, a.block.info)
        skeleton_b = code_skeleton(b.block.text, b.block.info)
        if skeleton_a == skeleton_b:
            assert found == 1.0
        else:  # the full computation, as alignment made it with every skeleton at hand
            length = min(a.share, b.share) / max(a.share, b.share)
            assert found == 0.8 * text_ratio(skeleton_a, skeleton_b) / 100 + 0.2 * length
        assert a.code == skeleton_a and b.code == skeleton_b
    # Identical code (text and info string) is alike without its skeleton: only a block
    # compared with different code (another text, or another info string) has one worked out.
    fresh = progressive._document_features(documents["de"], DEFAULT_PREFIXES, "en", {})[1]
    same, other_info = (f for fs in fresh.values() for f in fs if f.family == "code")
    assert progressive.block_similarity(code["en"][0], same) == 1.0
    assert same._code is None
    progressive.block_similarity(code["en"][1], other_info)  # python against bash
    assert other_info._code == code_skeleton("stop()", "bash")
    prose = [f for fs in fresh.values() for f in fs if f.family != "code"]
    assert prose and all(f._code == "" and f.code == "" for f in prose)


UNITS = """# Commands

List the pods:

```
kubectl get pods
```

Show one pod:

```
kubectl describe pod web
```
"""


def test_blocks_compared_without_their_partners_only_where_no_block_has_one():
    documents = parse_versions(en=EN, ja=JA, de=UNITS)
    blocks = {
        lang: progressive._document_features(doc, DEFAULT_PREFIXES, "en", {})[1]
        for lang, doc in documents.items()
    }
    plain = {lang: [f for fs in found.values() for f in fs] for lang, found in blocks.items()}
    units = plain.pop("de")
    assert any(f.partner is not None for f in units)
    assert progressive._block_similarity_of({"de": units}) is progressive.block_similarity
    assert progressive._block_similarity_of(plain) is progressive._own_similarity
    for a, b in itertools.product(plain["en"], plain["ja"]):
        assert progressive._own_similarity(a, b) == progressive.block_similarity(a, b)


def test_prose_without_anchors_on_one_side_scores_as_dice_says():
    documents = parse_versions(en=EN, ja=JA, de=EN)
    features = {
        lang: [
            f
            for fs in progressive._document_features(doc, DEFAULT_PREFIXES, "en", {})[1].values()
            for f in fs
            if f.family == "prose"
        ]
        for lang, doc in documents.items()
    }
    checked = 0
    for x, y in (("en", "ja"), ("ja", "en"), ("en", "de")):
        for a, b in itertools.product(features[x], features[y]):
            latin = a.latin and b.latin
            mine, theirs = (a.strong, b.strong) if latin else (a.anchors, b.anchors)
            if mine and theirs:
                continue
            checked += 1
            factor = 1.0 if a.kind == b.kind else 0.8
            length = min(a.share, b.share) / max(a.share, b.share)
            place = 1.0 - min(1.0, abs(a.position - b.position) * 2)
            anchors = dice(mine, theirs, 1.0)
            expected = factor * (0.5 * anchors + 0.35 * length + 0.15 * place)
            assert progressive._own_similarity(a, b) == expected
    assert checked >= 10


WITH_IDS = {
    "en": "# Guide { #guide }\n\nRead 2 pages.\n\n## Install { #install }\n\nRun `pip`.\n",
    "de": "# Anleitung { #guide }\n\nLies 2 Seiten.\n\n## Installieren { #install }\n\n"
    "Rufe `pip` auf.\n",
}


def test_sections_with_the_same_id_are_aligned_without_counting_their_content():
    def sections(texts):
        documents = parse_versions(**texts)
        features = {
            lang: progressive._document_features(doc, DEFAULT_PREFIXES, "en", {})[0][1:]
            for lang, doc in documents.items()
        }
        columns = progressive._align(
            ["en", "de"], features, progressive.section_similarity, progressive.SECTION_THRESHOLD
        )
        assert [sorted(column) for column in columns] == [["de", "en"], ["de", "en"]]
        return [f for found in features.values() for f in found]

    assert all(f.anchor and f._content is None for f in sections(WITH_IDS))
    # Without ids the content decides, and is counted as in the full computation.
    plain = {
        lang: text.replace(" { #guide }", "").replace(" { #install }", "")
        for lang, text in WITH_IDS.items()
    }
    counted_ = sections(plain)
    assert all(f._content is not None for f in counted_)
    install = [f for f in counted_ if f.level == 2]
    assert all(f.content.body_anchors == Counter({"`pip": 1}) for f in install)
    assert all(
        f.content.sizes["body_anchors"] == 1 and f.content.sizes["kinds"] == 1 for f in install
    )
