"""The ``term-forbidden`` rule (its documentation is its docstring)."""

from __future__ import annotations

from collections.abc import Iterator

from parallelcheck.model.aligned import AlignedSection
from parallelcheck.model.finding import Finding
from parallelcheck.rules._terms import _everywhere
from parallelcheck.rules.base import RuleContext, rule


@rule("term-forbidden", severity="error", tags=("language",), needs=("glossary",))
def term_forbidden(ctx: RuleContext) -> Iterator[Finding]:
    """A glossary-forbidden variant is used (the approved form is suggested).

    A version uses a form the glossary forbids for its language.

    Forms listed under ``forbidden`` (for one language, or on the term for every language)
    are looked for in every heading and block of the version, with the same matching as
    approved forms — except that Japanese forbidden forms match on the surface only, never
    through Sudachi's normalisation.  The message and ``evidence["suggestion"]`` give the
    approved form to write instead: the keep form, or the language's first approved form.

    Example, with ``zh-Hant: {term: PD 分離, forbidden: [PD 分离]}``::

        zh-Hant.md:25  透過 DLSlime 與 Mooncake 實現的 PD 分离
        → zh-Hant writes “PD 分离”, which the glossary forbids (pd-disaggregation);
          write “PD 分離”

    The finding names only the version at fault (``reference_langs`` is empty: the glossary
    is the reference).
    """
    if not ctx.glossary:
        return
    terms = ctx.glossary.by_id()
    grouped: dict[tuple, tuple[AlignedSection, int]] = {}
    for row, lang, found in _everywhere(ctx, "forbidden"):
        key = (lang, found.line, found.term_id, found.text)
        section, count = grouped.get(key, (row, 0))
        grouped[key] = (section, count + 1)
    for (lang, line, term_id, text), (section, count) in grouped.items():
        term = terms[term_id]
        suggestion = term.suggestion(lang)
        advice = (
            f"write “{suggestion}”"
            if suggestion
            else f"the glossary gives no approved form for {lang}"
        )
        yield ctx.finding(
            section,
            [lang],
            [],
            {lang: line},
            f"{lang} writes “{text}”, which the glossary forbids ({term_id}); {advice}",
            {
                "term": term_id,
                "found": text,
                "suggestion": suggestion,
                "occurrences": count,
                "glossary": term.origin,
            },
        )
