"""The ``moved-block`` rule (its documentation is its docstring)."""

from __future__ import annotations

from collections.abc import Iterator

from parallelcheck.model.aligned import AlignedBlock, BlockMove
from parallelcheck.model.document import BlockKind
from parallelcheck.model.finding import Finding
from parallelcheck.rules._common import describe_block, excerpt, join_langs
from parallelcheck.rules.base import RuleContext, rule


@rule("moved-block", severity="info", tags=("structure",))
def moved_block(ctx: RuleContext) -> Iterator[Finding]:
    """A block stands at another place in some versions: later or earlier in its section, or
    in another section.

    A paragraph, list, table, code block, quote or admonition that some versions hold at one
    place and others at another is reported once, naming both places, and not as missing in
    either (``missing-paragraph``, ``missing-table``, ``code-mismatch``).  The versions that
    deviate are those whose place differs from the source's.

    A block that some versions write inside a list item, a quote, an admonition or a tab and
    others outside it, at the section's top level, is such a move too (the message says where
    each has it: ``inside the list item “…”``, ``at the top level of the section``).

    Alignment keeps every version's order, so a moved block leaves two rows that only some
    versions have; ``parallelcheck.align.moves`` pairs them when their blocks are alike — the
    same code, a table of the same shape and anchors, prose with the same anchors (numbers,
    names, inline code, link targets) and a similar length — and no version has both.  Two
    such rows with nothing aligned between them stand in the same place and are not a move.
    """
    for move in ctx.article.moves:
        yield _finding(ctx, move)


def _finding(ctx: RuleContext, move: BlockMove) -> Finding:
    at = {lang: move.at.cells[lang] for lang in move.reference}
    to = {lang: move.to.cells[lang] for lang in move.langs}
    lines = {lang: block.line for lang, block in (*at.items(), *to.items())}
    first_at = at[move.reference[0]]
    here, there = _lines(at), _lines(to)
    nested = move.at_parent is not None or move.to_parent is not None
    if move.to_section is move.at_section and nested:
        place = _level(move.to_parent, move.langs[0])
        where = _level(move.at_parent, move.reference[0])
        if place == where:  # two containers that read alike (the same command): not one
            place = place.replace("inside the ", "inside another ", 1)
        place, where = f"{place} ({there})", f"{where} ({here})"
    elif move.to_section is move.at_section:
        rows = move.at_section.rows
        later = _index(rows, move.to) > _index(rows, move.at)
        place = f"{'later' if later else 'earlier'} in the section ({there})"
        where = f"({here})"
    else:
        place = f"{_under(move.to_section, move.langs[0])}{_inside(move.to_parent, move.langs[0])}"
        place += f" ({there})"
        where = f"{_under(move.at_section, move.reference[0])}"
        where += f"{_inside(move.at_parent, move.reference[0])} ({here})"
    verb = "have" if len(move.reference) > 1 else "has"
    message = (
        f"{describe_block(first_at)} is moved in {join_langs(move.langs)}: it stands {place}, "
        f"where {join_langs(move.reference)} {verb} it {where}"
    )
    return ctx.finding(
        move.at_section,
        move.langs,
        move.reference,
        lines,
        message,
        {"kind": first_at.kind.value, "same_section": move.to_section is move.at_section},
        row=move.at,
    )


def _index(rows, row) -> int:
    return next(i for i, r in enumerate(rows) if r is row)


def _lines(blocks: dict) -> str:
    """``en line 5, de line 5 …``: the lines of the first two versions."""
    shown = ", ".join(f"{lang} line {block.line}" for lang, block in list(blocks.items())[:2])
    return shown + (" …" if len(blocks) > 2 else "")


def _level(parent: AlignedBlock | None, lang: str) -> str:
    """Where a block stands in its section: inside the container of version ``lang`` in row
    ``parent``, or at the section's top level."""
    if parent is None:
        return "at the top level of the section"
    return _inside(parent, lang).lstrip(", ")


def _inside(parent: AlignedBlock | None, lang: str) -> str:
    """``, inside list item “…”``: the container of version ``lang`` in row ``parent``;
    nothing for a top-level row."""
    block = parent.cells.get(lang) if parent is not None else None
    if block is None:
        return ""
    if block.kind is BlockKind.ITEM:
        return f", inside the list item “{excerpt(block.text)}”"
    return f", inside the {describe_block(block)}"


def _under(section, lang: str) -> str:
    """Where a block stands, by the heading of the section as version ``lang`` writes it (the
    aligned row of sections may pair headings that differ)."""
    heading = section.cells.get(lang)
    title = heading.title if heading is not None else ""
    return f"under “{title}”" if title else "before the first heading"
