"""Code blocks: missing, changed, or with a different info string."""

from __future__ import annotations

from collections.abc import Iterator

from parallelcheck.model.document import BlockKind
from parallelcheck.model.finding import Finding
from parallelcheck.rules._common import differing_values, excerpt, join_langs
from parallelcheck.rules._missing_blocks import block_rows, missing_block_finding, missing_blocks
from parallelcheck.rules.base import RuleContext, rule


@rule("code-mismatch", severity="error", tags=("values",))
def code_mismatch(ctx: RuleContext) -> Iterator[Finding]:
    """A code block is missing, or its code or info string differs (comments, strings and
    diagram labels may be translated).

    A code block (fenced, indented, or an include directive such as
    ``{* ../src/app.py hl[3] *}``) is missing from some versions, or aligned code blocks differ.

    Code is compared after removing comments (``#``, ``//``, ``--``, ``/* */``, ``<!-- -->``)
    and the contents of string literals, and collapsing whitespace: translators may translate
    comments and messages, never code.  An include or template directive (``info``
    ``include`` / ``directive``) is compared by its normalised text — its target file and
    options — so a changed file or highlighted range is reported and a different spacing or
    quoting of the same include is not.  In diagram blocks (``mermaid``) the labels, aliases
    and message texts are translatable and only the diagram's structure is compared.  The
    info string (``python``, ``console`` …) is compared too.  The versions sharing the
    source's code are the reference.
    """
    article = ctx.article
    for args in missing_blocks(article, {BlockKind.CODE}):
        yield missing_block_finding(ctx, *args)
    for section in article.sections:
        for _, row, _ in block_rows(section):  # nested rows too: code in a tip, a tab
            blocks = {
                lang: b
                for lang, b in row.cells.items()
                if b is not None and b.kind is BlockKind.CODE
            }
            if len(blocks) < 2:
                continue
            lines = {lang: b.line for lang, b in blocks.items()}
            skeletons = {lang: ctx.facts.code_skeleton(b) for lang, b in blocks.items()}
            yield from differing_values(
                ctx, section, lines, skeletons, _code_differs, {"kind": "code"}, row
            )
            infos = {lang: b.info.strip() for lang, b in blocks.items()}
            yield from differing_values(
                ctx,
                section,
                lines,
                infos,
                _info_differs,
                {"kind": "info-string"},
                row,
            )


def _code_differs(langs, reference, skeleton, theirs) -> str:
    ours, other = _first_difference(skeleton, theirs)
    return (
        f"code differs in {join_langs(langs)} from {join_langs(reference)}: "
        f"“{excerpt(ours, 40)}” where {join_langs(reference)} has “{excerpt(other, 40)}”"
    )


def _info_differs(langs, reference, info, theirs) -> str:
    return (
        f"code block is marked “{info or '(none)'}” in {join_langs(langs)} but "
        f"“{theirs or '(none)'}” in {join_langs(reference)}"
    )


def _first_difference(a: str, b: str) -> tuple[str, str]:
    """The two texts from a little before the first character where they differ."""
    i = 0
    while i < min(len(a), len(b)) and a[i] == b[i]:
        i += 1
    start = max(0, i - 12)
    return a[start:] or "(nothing)", b[start:] or "(nothing)"
