"""Helpers the rules share: grouping versions by a value, wording, and where to point."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence

from parallelcheck.model.aligned import AlignedArticle, AlignedBlock, AlignedSection
from parallelcheck.model.document import Block, BlockKind
from parallelcheck.model.finding import Finding
from parallelcheck.rules.base import RuleContext


def join_words(words: Iterable[str]) -> str:
    """Words listed as a sentence lists them: ``ja``, ``en and ja``, ``en, de and ja``."""
    names = list(words)
    if len(names) < 3:
        return " and ".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"


def join_langs(langs: Iterable[str]) -> str:
    """Versions named as a sentence names them (:func:`join_words`)."""
    return join_words(langs)


def missing_sides(
    source: str,
    present: Sequence[str],
    absent: Sequence[str],
    what: str,
    *,
    several: bool = False,
) -> tuple[list[str], list[str], str]:
    """The sides of a finding about an element (a section, a block) that the versions
    ``absent`` lack and ``present`` have: the deviating versions, the reference ones and
    the message, which names the element as ``what`` (plural when ``several``).

    The versions lacking it deviate (``… is present in en and de but missing from ja``) —
    unless the source is among them: then the versions that have it are those that differ
    from the source, by an element it does not have, left over from an earlier source or
    added by a translator (``… is present in de but not in the source en; en changed or
    dropped it after it was translated, or de added it``)."""
    stated = f"{what} {'are' if several else 'is'} present in {join_langs(present)}"
    if source not in absent:
        return list(absent), list(present), f"{stated} but missing from {join_langs(absent)}"
    others = [lang for lang in absent if lang != source]
    nor = f" (nor in {join_langs(others)})" if others else ""
    text = (
        f"{stated} but not in the source {source}{nor}; "
        f"{source} changed or dropped it after it was translated, or {join_langs(present)} "
        "added it"
    )
    return list(present), list(absent), text


#: Verbs whose third person singular is not the plural plus ``s``.
_IRREGULAR = {"have": "has", "do": "does", "are": "is"}


def say(langs: Sequence[str], verb: str) -> str:
    """Versions as the subject of *verb* (given in the plural), which agrees with them:
    ``ja says``, ``en and ja say``, ``ko has``, ``en and ja have``."""
    if len(langs) != 1:
        return f"{join_langs(langs)} {verb}"
    return f"{langs[0]} {_IRREGULAR.get(verb, verb + 's')}"


def group_by_value(
    article: AlignedArticle, values: dict[str, Hashable]
) -> tuple[list[str], list[tuple[list[str], Hashable]]]:
    """Split versions by a value they should share.

    Returns the reference group (the versions sharing the source's value, or else the largest
    group, earlier versions winning ties) and every other group with its value.  With one
    value there are no deviating groups.
    """
    groups: dict[Hashable, list[str]] = {}
    for lang in article.langs:
        if lang in values:
            groups.setdefault(values[lang], []).append(lang)
    if len(groups) <= 1:
        return [lang for g in groups.values() for lang in g], []
    if article.source in values:
        reference_value = values[article.source]
    else:
        reference_value = max(groups, key=lambda v: len(groups[v]))
    others = [(langs, value) for value, langs in groups.items() if value != reference_value]
    return groups[reference_value], others


def differing_values(
    ctx: RuleContext,
    section: AlignedSection,
    lines: dict[str, int],
    values: dict[str, Hashable],
    message: Callable[[list[str], list[str], Hashable, Hashable], str],
    evidence: dict | None = None,
    row: AlignedBlock | None = None,
) -> Iterator[Finding]:
    """One finding per group of versions whose value differs from the reference group's
    (see :func:`group_by_value`); ``message(langs, reference, value, reference_value)`` words
    it, ``lines`` gives each version's line and ``row`` is the aligned row of blocks compared
    (``None`` for headings)."""
    reference, deviating = group_by_value(ctx.article, values)
    for langs, value in deviating:
        yield ctx.finding(
            section,
            langs,
            reference,
            {lang: lines[lang] for lang in (*langs, *reference)},
            message(langs, reference, value, values[reference[0]]),
            evidence,
            row=row,
        )


def excerpt(text: str, limit: int = 48) -> str:
    """The start of a text, on one line, for a message."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def describe_block(block: Block) -> str:
    """A block as a translator would name it: ‘table (9 rows × 3 columns)’, ‘paragraph “…”’."""
    if block.kind is BlockKind.TABLE:
        rows, columns = block.body_rows, block.columns
        return f"table ({rows} row{'s' * (rows != 1)} × {columns} column{'s' * (columns != 1)})"
    if block.kind is BlockKind.LIST:
        items = len(block.children)
        return f"list ({items} item{'s' * (items != 1)}) “{excerpt(block.text)}”"
    if block.kind is BlockKind.CODE:
        lines = block.text.count("\n") + (0 if block.text.endswith("\n") else 1)
        info = f"{block.info}, " if block.info else ""
        return f"code block ({info}{lines} line{'s' * (lines != 1)})"
    if not block.text.strip() and block.all_links():
        link = block.all_links()[0]
        noun = "image" if link.is_image else "link"
        return f"{block.kind.value} with {noun} “{excerpt(link.target, 60)}”"
    if not block.text.strip() and block.all_code_spans():
        # a component with values and no text (<Since v="2.1.0" />): named by its values
        values = block.all_code_spans()
        shown = ", ".join(f"“{excerpt(value, 40)}”" for value in values[:3])
        return f"{block.kind.value} with the value{'s' * (len(values) > 1)} {shown}"
    if block.kind is BlockKind.ADMONITION:
        return f"admonition ({block.info}) “{excerpt(block.text)}”"
    return f"{block.kind.value} “{excerpt(block.text)}”"


def place_of_missing_block(section: AlignedSection, row_index: int, lang: str) -> int:
    """Where a block missing in ``lang`` should be: the nearest earlier aligned block that
    version has, else its section heading."""
    for earlier in reversed(section.rows[:row_index]):
        block = earlier.cells.get(lang)
        if block is not None:
            return block.line
    heading = section.cells[lang]
    return heading.line if heading is not None else 1


def line_in(block: Block, offset: int) -> int:
    """The source line of a character of ``block.text`` (table text skips the separator row)."""
    line = block.line + block.text.count("\n", 0, offset)
    if block.kind is BlockKind.TABLE and block.header and line > block.line:
        line += 1
    return min(line, block.end_line) if block.end_line >= block.line else line
