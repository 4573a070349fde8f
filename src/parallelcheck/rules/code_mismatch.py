"""Code blocks: missing, changed, or with a different info string."""

from __future__ import annotations

from collections.abc import Iterator

from parallelcheck.facts import ArticleFacts
from parallelcheck.model.document import Block, BlockKind
from parallelcheck.model.finding import Finding
from parallelcheck.rules._common import differing_values, excerpt, group_by_value, join_langs
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
            reference, deviating = group_by_value(article, skeletons)
            for langs, skeleton in deviating:
                theirs = skeletons[reference[0]]
                where = {
                    lang: _first_changed_line(ctx.facts, blocks[lang], blocks[reference[0]])
                    for lang in langs
                }
                where.update(
                    {
                        lang: _first_changed_line(ctx.facts, blocks[lang], blocks[langs[0]])
                        for lang in reference
                    }
                )
                message = _code_differs(langs, reference, skeleton, theirs)
                yield ctx.finding(
                    section, langs, reference, where, message, {"kind": "code"}, row=row
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


def _first_changed_line(facts: ArticleFacts, ours: Block, theirs: Block) -> int:
    """The line of ``ours`` (a code block) where its code first differs from ``theirs``'s:
    the code compared line by line the way the whole block is (comments and strings set
    aside), the line where the two first part, or the last line of the shorter code; the
    block's first line when some comment or string spans lines (the lines then do not add up
    to the block's comparable form)."""
    mine, other = _skeleton_lines(facts, ours), _skeleton_lines(facts, theirs)
    if mine is None or other is None or not mine:
        return ours.line
    for (text, line), (their_text, _) in zip(mine, other, strict=False):
        if text != their_text:
            return line
    return mine[min(len(other), len(mine) - 1)][1]


def _skeleton_lines(facts: ArticleFacts, block: Block) -> list[tuple[str, int]] | None:
    """The comparable form of each line of a code block that has one, with its file line;
    ``None`` when they do not add up to the block's (see :func:`_first_changed_line`)."""
    if block.info.split()[:1] in (["include"], ["directive"]):
        return None  # normalised directives: not the file's lines
    found = []
    for text, line in zip(block.text.split("\n"), block.file_lines(), strict=False):
        skeleton = facts.code_skeleton(Block(BlockKind.CODE, text, line, line, info=block.info))
        if skeleton:
            found.append((skeleton, line))
    if " ".join(text for text, _ in found) != facts.code_skeleton(block):
        return None
    return found


def _first_difference(a: str, b: str) -> tuple[str, str]:
    """The two texts from a little before the first character where they differ."""
    i = 0
    while i < min(len(a), len(b)) and a[i] == b[i]:
        i += 1
    start = max(0, i - 12)
    return a[start:] or "(nothing)", b[start:] or "(nothing)"
