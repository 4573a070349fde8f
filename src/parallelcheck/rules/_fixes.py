"""Fixes the rules attach to their findings (:mod:`parallelcheck.model.fix`), built from the
model alone: the lines the readers recorded, the text of blocks, the source's blocks.

A fix is made only for a version the source can be copied into: a Markdown or MDX file (the
readers of those keep a block's text as written, so its lines can be matched), never the
source itself, and only when the source is among the versions the deviating ones were
compared with.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence

from parallelcheck.model.aligned import AlignedArticle, AlignedBlock, AlignedSection
from parallelcheck.model.document import Block, BlockKind
from parallelcheck.model.fix import COPY, LINES, SAFE, SPAN, UNSAFE, Edit, Fix, Span
from parallelcheck.rules._common import join_langs
from parallelcheck.text.listings import CodeForm
from parallelcheck.text.listings.merge import repaired_code
from parallelcheck.text.regexes import compile_pattern

#: The extensions of the files a fix may edit (Markdown and MDX: see the module's docstring).
EDITABLE = (".md", ".markdown", ".mdx")
#: A code block's info string naming a template directive (compared by its normalised text).
DIRECTIVES = ("include", "directive")


def is_directive(block: Block) -> bool:
    """Whether a reader took *block* for an include or template directive (its info string
    says so: :data:`DIRECTIVES`)."""
    words = block.info.split()
    return bool(words) and words[0] in DIRECTIVES


def fixable(article: AlignedArticle, langs: Sequence[str], reference: Sequence[str]) -> list[str]:
    """The versions of ``langs`` a fix may edit: none unless the source is in ``reference``;
    of them, the translations whose file is Markdown or MDX."""
    if article.source not in reference:
        return []
    return [
        lang
        for lang in langs
        if lang != article.source and os.path.splitext(article.paths[lang])[1].lower() in EDITABLE
    ]


def code_fix(
    article: AlignedArticle,
    langs: Sequence[str],
    blocks: dict[str, Block],
    renamed: bool,
    form: CodeForm | None = None,
) -> Fix | None:
    """The fix of code blocks of ``langs`` that differ from the source's: each made the
    source's code, with its own comments and translated text kept where they can be placed
    (:func:`~parallelcheck.text.listings.merge.repaired_code`); a template directive is copied
    from the source as written.  No fix where a version has a directive and the source code
    (the code would stand in the directive's lines, unfenced).  Safe when every version keeps
    all it translated and nothing of the source's text comes in, and the code was not renamed
    consistently (a translated example's names: the translator may have meant it); unsafe
    otherwise.  ``form`` is the source's code form, when the caller has it."""
    source = blocks[article.source]
    whose = article.source
    edits: list[Edit] = []
    complete = not renamed
    for lang in langs:
        block, path = blocks[lang], article.paths[lang]
        if is_directive(block) and not is_directive(source):
            return None  # its lines are a directive's, not code: the source's code has no place
        if is_directive(source):
            if block.info.split()[:1] != source.info.split()[:1]:
                return None
            copied = Span(article.paths[whose], source.line, source.end_line)
            edits.append(Edit(Span(path, block.line, block.end_line), COPY, copy=copied))
            continue
        lines = block.file_lines()
        if not lines or lines != list(range(lines[0], lines[0] + len(lines))):
            return None
        repaired = repaired_code(source.text, block.text, source.info, form)
        if repaired is None:
            return None
        complete = complete and repaired.complete
        edits.append(Edit(Span(path, lines[0], lines[-1]), LINES, block.text, repaired.text))
    if not edits:
        return None
    who = join_langs(langs)
    if is_directive(source):
        message = f"copy {whose}'s directive into {who}"
    elif renamed:
        message = f"use {whose}'s code and names in {who} (the names were renamed consistently)"
    elif complete:
        message = f"use {whose}'s code in {who}, keeping {who}'s comments and translated text"
    else:
        message = (
            f"use {whose}'s code in {who}; some comments or text of {whose} or {who} "
            "could not be placed"
        )
    return Fix(SAFE if complete else UNSAFE, message, tuple(edits))


def info_fix(article: AlignedArticle, langs: Sequence[str], blocks: dict[str, Block]) -> Fix | None:
    """The fix of fenced code blocks of ``langs`` whose info string differs from the source's,
    on their opening fence line: a language tag that differs (or is missing) becomes the
    source's, the rest kept (**safe**: the code is read as the source's); else, when only the
    rest differs (a title, highlighted lines), the whole info string becomes the source's
    (**unsafe**: a title is the translator's)."""
    written = blocks[article.source].info.strip()
    wanted = written.split()
    if not wanted or wanted[0] in DIRECTIVES:
        return None
    edits, whole = [], False
    for lang in langs:
        block = blocks[lang]
        lines = block.file_lines()
        if not lines or lines[0] != block.line + 1:  # not a fenced block, or an empty one
            return None
        at = Span(article.paths[lang], block.line, block.line)
        own = block.info.split()
        if not own:
            edits.append(Edit(at, SPAN, "", wanted[0]))
        elif own[0] != wanted[0]:
            edits.append(Edit(at, SPAN, own[0], wanted[0]))
        else:
            whole = True
            edits.append(Edit(at, SPAN, block.info.strip(), written))
    if whole:
        message = f"use {article.source}'s info string “{written}”"
        return Fix(UNSAFE, f"{message} in {join_langs(langs)}", tuple(edits))
    return Fix(SAFE, f"mark the code “{wanted[0]}” in {join_langs(langs)}", tuple(edits))


#: The line written before a block copied from the source into a translation: an HTML
#: comment in Markdown, a JavaScript one in MDX (which takes ``<!--`` for a syntax error).
TRANSLATION_NEEDED = "<!-- parallelcheck: translation needed ({source}) -->"
TRANSLATION_NEEDED_MDX = "{{/* parallelcheck: translation needed ({source}) */}}"


def _is_mdx(path: str) -> bool:
    return os.path.splitext(path)[1].lower() == ".mdx"


def translation_mark(source: str, path: str) -> str:
    """The :data:`TRANSLATION_NEEDED` line for a copy of version *source*'s block written
    into the file *path*."""
    return (TRANSLATION_NEEDED_MDX if _is_mdx(path) else TRANSLATION_NEEDED).format(source=source)


def insertion_fix(
    article: AlignedArticle,
    section: AlignedSection,
    row: AlignedBlock,
    present: Sequence[str],
    absent: Sequence[str],
) -> Fix | None:
    """The fix of a block the versions ``absent`` lack: the source's block copied into each
    (a table or code block after a :func:`translation_mark` comment, an indented code block
    fenced (:func:`written_code`); an include directive as it is), after the block of
    theirs aligned before it — or after their section's heading — separated by a blank line.
    Unsafe always: what is copied is the source's, in its language, and where it goes is the
    alignment's guess.  Only for a block of the section itself (not one inside a list, a
    quote or a tip) that the source has."""
    editable = fixable(article, absent, present)
    if not editable or not any(r is row for r in section.rows):
        return None
    source = row.cells[article.source]
    if source is None:
        return None
    directive = source.info.split()[:1] == ["include"]
    index = next(i for i, r in enumerate(section.rows) if r is row)
    copied = Span(article.paths[article.source], source.line, source.end_line)
    indented = is_indented_code(source)
    edits: list[Edit] = []
    for lang in editable:
        place = _place(section, index, lang)
        if place is None:
            return None
        line, after = place
        at = Span(article.paths[lang], line, line - 1)
        mark = "" if directive else translation_mark(article.source, article.paths[lang])
        copy = (
            Edit(at, LINES, new=written_code(source.text))
            if indented
            else Edit(at, COPY, copy=copied)
        )
        if after:  # after a block of its: a blank line, the mark and a blank line, the copy
            edits.append(Edit(at, LINES, new=f"\n{mark}\n" if mark else ""))
            edits.append(copy)
        else:  # before the first block of its section: the mark, the copy, a blank line
            if mark:
                edits.append(Edit(at, LINES, new=f"{mark}\n"))
            edits.append(copy)
            edits.append(Edit(at, LINES, new=""))
    what = "directive" if directive else source.kind.value
    return Fix(UNSAFE, f"copy {article.source}'s {what} into {join_langs(editable)}", tuple(edits))


def is_indented_code(block: Block) -> bool:
    """Whether *block* is an indented code block: code without an info string whose text
    starts on the block's first line (a fenced block's starts on the line after its fence)."""
    return (
        block.kind is BlockKind.CODE and not block.info and block.file_lines()[:1] == [block.line]
    )


#: Backticks at the start of a line: a fence, which a fence around the line must outrun.
_FENCE = compile_pattern(r"^ {0,3}(`{3,})", re.MULTILINE)


def written_code(code: str) -> str:
    """An indented code block's *code* as a copy of it is written into a translation: fenced,
    by more backticks than any fence line it holds.  Its lines cannot be copied as the
    source writes them, as other blocks' are: the indentation that makes them code would be
    taken for a container's and dropped, leaving a paragraph; and indented, the copy would
    run into an indented code block of the translation's standing right after it (one block
    then, and the copy missing still).  MDX has no indented code at all."""
    fence = "`" * max([3, *(len(m.group(1)) + 1 for m in _FENCE.finditer(code))])
    return f"{fence}\n{code}\n{fence}"


def _place(section: AlignedSection, index: int, lang: str) -> tuple[int, bool] | None:
    """Where a block of row ``index`` goes in ``lang``: ``(line, True)`` to insert it before
    ``line``, right after the last line of the block ``lang`` has before that row; else
    ``(line, False)`` before the first block it has after that row (the heading's lines are
    not known to end where it starts: a setext heading's underline); else ``None``."""
    for earlier in reversed(section.rows[:index]):
        block = earlier.cells.get(lang)
        if block is not None:
            return max(block.end_line, block.line) + 1, True
    for later in section.rows[index + 1 :]:
        block = later.cells.get(lang)
        if block is not None:
            return block.line, False
    return None
