"""The ``term-altered`` rule (its documentation is its docstring)."""

from __future__ import annotations

from collections.abc import Iterator

from parallelcheck.model.aligned import AlignedSection
from parallelcheck.model.finding import Finding
from parallelcheck.rules._terms import _everywhere, _Found
from parallelcheck.rules.base import RuleContext, rule


@rule("term-altered", severity="error", tags=("language",), needs=("glossary",))
def term_altered(ctx: RuleContext) -> Iterator[Finding]:
    """A keep-as-is name is misspelled, re-cased or split (`Deepinfer`, `LM Deploy`).

    A keep-as-is term (``keep: DeepInfer``) is written re-cased, split, joined or
    misspelled: ``Deepinfer``, ``LM Deploy``, ``Turbomind``, ``DeepInfr``, ``TensorRT LLM``.

    Keep terms must appear exactly as the glossary writes them in every version.  Near misses
    are found by comparing runs of Latin-script words of about the term's length with
    rapidfuzz (optimal string alignment on letters and digits, case folded), with these
    precision rules so that ordinary words are never reported:

    * the exact term is never reported, nor anything a glossary form matches, nor words in
      paths, identifiers, dotted names and URLs (``deepseek-ai/DeepSeek-V3``,
      ``lmdeploy.serve``), inline code or code blocks;
    * same letters, different case or spacing: reported, unless the text is an all-lower-case
      ordinary word or phrase (``ascend`` for ``Ascend``, ``micro-batch`` for
      ``MicroBatch``);
    * a misspelling: only for terms of 7 or more letters, with the same first letter and at
      most one edit (two for terms over 10 letters); an all-lower-case word is taken for an
      ordinary word (``deploy`` is not ``LMDeploy``), and the term followed by digits or a
      plural ending (``InternLM2``) for another name;
    * a keep term written in lower case itself (``llama.cpp``) is compared case and all.

    A keep term left out or translated is not found here: ``term-missing`` reports a version
    that lacks it in a whole aligned section where the reference has it.  The message and
    ``evidence["suggestion"]`` give the term as it must be written.
    """
    if not ctx.glossary:
        return
    grouped: dict[tuple, AlignedSection] = {}
    details: dict[tuple, _Found] = {}
    for row, lang, found in _everywhere(ctx, "altered"):
        key = (lang, found.line, found.term_id, found.text)
        grouped.setdefault(key, row)
        details.setdefault(key, found)
    for key, section in grouped.items():
        lang, line, term_id, text = key
        found = details[key]
        yield ctx.finding(
            section,
            [lang],
            [],
            {lang: line},
            f"{lang} writes “{text}” for the keep-as-is term “{found.suggestion}” "
            f"({found.how}); write “{found.suggestion}”",
            {"term": term_id, "found": text, "suggestion": found.suggestion, "how": found.how},
        )
