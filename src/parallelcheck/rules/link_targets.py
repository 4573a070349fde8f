"""Link and image targets that differ between aligned blocks."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from functools import reduce

from parallelcheck.align import AlignedArticle
from parallelcheck.finding import Finding
from parallelcheck.links import localised_prefix_patterns, normalise_target
from parallelcheck.rules.base import excerpt, finding, group_by_value, join_langs, rule


@rule(
    "link-mismatch",
    severity="warning",
    summary="link or image targets differ between aligned blocks",
)
def link_mismatch(article: AlignedArticle) -> Iterator[Finding]:
    """Link or image targets differ between aligned blocks (or aligned headings).

    For each aligned block the targets of its links and images (nested ones included) are
    compared as multisets.  A target is compared without a localised prefix (configurable,
    default ``/{lang}/``: ``/ja/tutorial/`` in the ja version equals ``/tutorial/``, and so does
    ``/en/tutorial/`` when en is the source) and without a trailing slash; a target written
    the very same way in every version (a language switcher) always agrees.  Versions are
    grouped by the targets they hold; the versions sharing the source's targets are the
    reference and each other group is one finding, saying which targets it lacks and which it
    has instead.  Blocks missing as a whole are reported by the block rules
    instead.
    """
    patterns = {
        lang: localised_prefix_patterns(lang, article.link_prefixes, article.source)
        for lang in article.langs
    }
    for section in article.sections:
        headings = {lang: s for lang, s in section.cells.items() if s is not None}
        yield from _compare(
            article,
            section,
            {lang: (s.line, [link.target for link in s.links]) for lang, s in headings.items()},
            patterns,
        )
        for row in section.rows:
            blocks = {lang: b for lang, b in row.cells.items() if b is not None}
            if len(blocks) < 2:
                continue
            yield from _compare(
                article,
                section,
                {
                    lang: (b.line, [link.target for link in b.all_links()])
                    for lang, b in blocks.items()
                },
                patterns,
            )


def _compare(article, section, targets_by_lang, patterns) -> Iterator[Finding]:
    if len(targets_by_lang) < 2 or not any(targets for _, targets in targets_by_lang.values()):
        return
    raw = {lang: Counter(targets) for lang, (_, targets) in targets_by_lang.items()}
    everywhere = reduce(lambda a, b: a & b, raw.values())  # the very same target in all
    counts = {
        lang: tuple(
            sorted(normalise_target(t, patterns[lang]) for t in (raw[lang] - everywhere).elements())
        )
        for lang in targets_by_lang
    }
    reference, deviating = group_by_value(article, counts)
    for langs, targets in deviating:
        ours, theirs = Counter(targets), Counter(counts[reference[0]])
        lacking = sorted((theirs - ours).elements())
        adding = sorted((ours - theirs).elements())
        lines = {lang: targets_by_lang[lang][0] for lang in (*langs, *reference)}
        who, others = join_langs(langs), join_langs(reference)
        one, one_other = len(langs) == 1, len(reference) == 1
        links, other_links = ("links" if one else "link"), ("links" if one_other else "link")
        if lacking and adding:
            text = (
                f"{who} {links} to {_show(adding)} where {others} {other_links} to {_show(lacking)}"
            )
        elif lacking:
            has = "has" if one_other else "have"
            text = f"{who} lack{'s' * one} the link to {_show(lacking)} that {others} {has}"
        else:
            has = "does" if one_other else "do"
            text = f"{who} add{'s' * one} a link to {_show(adding)} that {others} {has} not have"
        yield finding(
            "link-mismatch",
            article,
            section,
            langs,
            reference,
            lines,
            text,
            {"missing": lacking, "extra": adding},
        )


def _show(targets: list[str]) -> str:
    shown = ", ".join(excerpt(t, 160) for t in targets[:3])
    return shown + (f" and {len(targets) - 3} more" if len(targets) > 3 else "")
