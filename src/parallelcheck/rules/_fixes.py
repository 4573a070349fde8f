"""Fixes the rules attach to their findings (:mod:`parallelcheck.model.fix`), built from the
model alone: the lines the readers recorded, the text of blocks, the source's blocks.

A fix is made only for a version the source can be copied into: a Markdown or MDX file (the
readers of those keep a block's text as written, so its lines can be matched), never the
source itself, and only when the source is among the versions the deviating ones were
compared with.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from parallelcheck.model.aligned import AlignedArticle
from parallelcheck.model.document import Block
from parallelcheck.model.fix import COPY, LINES, SAFE, SPAN, UNSAFE, Edit, Fix, Span
from parallelcheck.rules._common import join_langs
from parallelcheck.text.listings.merge import repaired_code

#: The extensions of the files a fix may edit (Markdown and MDX: see the module's docstring).
EDITABLE = (".md", ".markdown", ".mdx")
#: A code block's info string naming a template directive (compared by its normalised text).
DIRECTIVES = ("include", "directive")


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
    article: AlignedArticle, langs: Sequence[str], blocks: dict[str, Block], renamed: bool
) -> Fix | None:
    """The fix of code blocks of ``langs`` that differ from the source's: each made the
    source's code, with its own comments and translated text kept where they can be placed
    (:func:`~parallelcheck.text.listings.merge.repaired_code`); a template directive is copied
    from the source as written.  Safe when every version keeps all it translated and nothing
    of the source's text comes in, and the code was not renamed consistently (a translated
    example's names: the translator may have meant it); unsafe otherwise."""
    source = blocks[article.source]
    whose = article.source
    edits: list[Edit] = []
    complete = not renamed
    for lang in langs:
        block, path = blocks[lang], article.paths[lang]
        if source.info.split()[:1] and source.info.split()[0] in DIRECTIVES:
            if block.info.split()[:1] != source.info.split()[:1]:
                return None
            copied = Span(article.paths[whose], source.line, source.end_line)
            edits.append(Edit(Span(path, block.line, block.end_line), COPY, copy=copied))
            continue
        lines = block.file_lines()
        if not lines or lines != list(range(lines[0], lines[0] + len(lines))):
            return None
        repaired = repaired_code(source.text, block.text, source.info)
        if repaired is None:
            return None
        complete = complete and repaired.complete
        edits.append(Edit(Span(path, lines[0], lines[-1]), LINES, block.text, repaired.text))
    if not edits:
        return None
    who = join_langs(langs)
    if source.info.split()[:1] and source.info.split()[0] in DIRECTIVES:
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
    """The fix of fenced code blocks of ``langs`` whose info string differs from the source's:
    the source's written on their opening fence line.  Safe: the code stays as it is."""
    wanted = blocks[article.source].info.strip()
    edits = []
    for lang in langs:
        block = blocks[lang]
        lines = block.file_lines()
        fenced = bool(lines) and lines[0] == block.line + 1
        if not fenced or not wanted or block.info.split()[:1] == ["include"]:
            return None
        at = Span(article.paths[lang], block.line, block.line)
        edits.append(Edit(at, SPAN, block.info.strip(), wanted))
    if not edits:
        return None
    return Fix(SAFE, f"mark the code block “{wanted}” in {join_langs(langs)}", tuple(edits))
