"""Code blocks: missing, changed, or with a different info string."""

from __future__ import annotations

from collections.abc import Iterator

from parallelcheck.align import AlignedArticle
from parallelcheck.code_text import code_skeleton
from parallelcheck.document import BlockKind
from parallelcheck.finding import Finding
from parallelcheck.rules.base import excerpt, finding, group_by_value, join_langs, rule
from parallelcheck.rules.missing import missing_block_finding, missing_blocks


@rule(
    "code-mismatch",
    severity="error",
    summary="a code block is missing, or its code differs (comments and string literals may be "
    "translated)",
)
def code_mismatch(article: AlignedArticle) -> Iterator[Finding]:
    """A code block (fenced, indented, or an include directive such as
    ``{* ../src/app.py hl[3] *}``) is missing from some versions, or aligned code blocks differ.

    Code is compared after removing comments (``#``, ``//``, ``--``, ``/* */``, ``<!-- -->``)
    and the contents of string literals, and collapsing whitespace: translators may translate
    comments and messages, never code.  In diagram blocks (``mermaid``) the labels, aliases
    and message texts are translatable and only the diagram's structure is compared.  The
    info string (``python``, ``console`` …) is compared too.  The versions sharing the
    source's code are the reference.
    """
    for args in missing_blocks(article, {BlockKind.CODE}):
        yield missing_block_finding("code-mismatch", article, *args)
    for section in article.sections:
        for row in section.rows:
            blocks = {
                lang: b
                for lang, b in row.cells.items()
                if b is not None and b.kind is BlockKind.CODE
            }
            if len(blocks) < 2:
                continue
            skeletons = {lang: code_skeleton(b.text, b.info) for lang, b in blocks.items()}
            reference, deviating = group_by_value(article, skeletons)
            for langs, skeleton in deviating:
                ours, theirs = _first_difference(skeleton, skeletons[reference[0]])
                lines = {lang: blocks[lang].line for lang in (*langs, *reference)}
                yield finding(
                    "code-mismatch",
                    article,
                    section,
                    langs,
                    reference,
                    lines,
                    f"code differs in {join_langs(langs)} from {join_langs(reference)}: "
                    f"“{excerpt(ours, 40)}” where {join_langs(reference)} has "
                    f"“{excerpt(theirs, 40)}”",
                    {"kind": "code"},
                )
            infos = {lang: b.info.strip() for lang, b in blocks.items()}
            reference, deviating = group_by_value(article, infos)
            for langs, info in deviating:
                lines = {lang: blocks[lang].line for lang in (*langs, *reference)}
                yield finding(
                    "code-mismatch",
                    article,
                    section,
                    langs,
                    reference,
                    lines,
                    f"code block is marked “{info or '(none)'}” in {join_langs(langs)} but "
                    f"“{infos[reference[0]] or '(none)'}” in {join_langs(reference)}",
                    {"kind": "info-string"},
                )


def _first_difference(a: str, b: str) -> tuple[str, str]:
    """The two texts from a little before the first character where they differ."""
    i = 0
    while i < min(len(a), len(b)) and a[i] == b[i]:
        i += 1
    start = max(0, i - 12)
    return a[start:] or "(nothing)", b[start:] or "(nothing)"
