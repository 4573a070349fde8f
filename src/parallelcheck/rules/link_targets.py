"""Link and image targets that differ between aligned blocks."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from parallelcheck.align import AlignedArticle
from parallelcheck.finding import Finding
from parallelcheck.links import localised_prefix_patterns, normalise_target
from parallelcheck.rules.base import excerpt, finding, join_langs, rule


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
    ``/en/tutorial/`` when en is the source) and without a trailing slash.  Each target some versions have more often than others is
    reported once, naming the versions with fewer; several targets that differ between the same
    versions share one finding.  Blocks missing as a whole are reported by the block rules
    instead.
    """
    patterns = {
        lang: localised_prefix_patterns(lang, article.link_prefixes, article.source) for lang in article.langs
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
    if len(targets_by_lang) < 2:
        return
    counts = {
        lang: Counter(normalise_target(t, patterns[lang]) for t in targets)
        for lang, (_, targets) in targets_by_lang.items()
    }
    everything = sorted(set().union(*counts.values()))
    grouped: dict[tuple[tuple[str, ...], tuple[str, ...]], list[str]] = {}
    for target in everything:
        most = max(c[target] for c in counts.values())
        fewer = tuple(
            lang for lang in article.langs if lang in counts and counts[lang][target] < most
        )
        if fewer:
            more = tuple(lang for lang in article.langs if lang in counts and lang not in fewer)
            grouped.setdefault((fewer, more), []).append(target)
    for (fewer, more), missing in grouped.items():
        lines = {lang: targets_by_lang[lang][0] for lang in (*fewer, *more)}
        shown = ", ".join(excerpt(t, 60) for t in missing[:3])
        if len(missing) > 3:
            shown += f" and {len(missing) - 3} more"
        yield finding(
            "link-mismatch",
            article,
            section,
            fewer,
            more,
            lines,
            f"link target{'s' if len(missing) > 1 else ''} {shown} in {join_langs(more)} "
            f"{'are' if len(missing) > 1 else 'is'} missing or different in {join_langs(fewer)}",
            {"targets": missing},
        )
