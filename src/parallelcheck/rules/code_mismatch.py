"""Code blocks: missing, changed, with comments added or dropped, or a different info string."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import NamedTuple

from parallelcheck.model.aligned import AlignedBlock, AlignedSection
from parallelcheck.model.document import Block, BlockKind
from parallelcheck.model.finding import Finding
from parallelcheck.model.fix import Fix
from parallelcheck.rules._common import excerpt, group_by_value, join_langs, say
from parallelcheck.rules._fixes import code_fix, fixable, info_fix, is_directive
from parallelcheck.rules._missing_blocks import missing_block_findings, nested_rows
from parallelcheck.rules.base import RuleContext, rule
from parallelcheck.text.listings import CodeForm, renamed_directive, renaming
from parallelcheck.text.regexes import compile_pattern


@rule("code-mismatch", severity="error", tags=("values",), fixes=("safe", "unsafe"))
def code_mismatch(ctx: RuleContext) -> Iterator[Finding]:
    """A code block is missing, or its code differs (comments, prose strings, markup text
    and diagram labels may be translated), or it gained or lost a comment.

    A code block (fenced, indented, or an include directive such as
    ``{* ../src/app.py hl[3] *}``) is missing from some versions, or aligned code blocks differ.

    Code is read by its fence's language — Python, shell and console, JavaScript and
    TypeScript, Go, Rust, the C family and Java, SQL, YAML, TOML, INI, JSON, Dockerfile, CSS,
    HTML/XML/JSX/Astro/Vue/Svelte, Markdown and ``mermaid`` diagrams — so comments and strings
    are found the way that language writes them, and ``#`` in a URL, ``--`` in an option or
    ``//`` in a shell command are code.  A block without a known language is read
    conservatively: ``#`` and ``//`` start a comment only at the start of a line (and a block
    whose lines start with a ``$`` prompt is read as a console; JavaScript or TypeScript
    holding JSX elements, a React component tagged ``js``, is read as JSX).  Every version is
    read as the source's language, so a dropped or changed tag is reported once, as the info
    string's.

    The code is compared token by token, white space aside.  May be translated: comments; a
    string literal that is prose (``"Hello world"``, not ``"item_id"``, a path or a URL), but
    never in a shell command or a Dockerfile, whose strings are arguments; in markup the text
    between tags and prose attribute values (``alt="…"``); in Markdown its prose and
    front-matter values; in a ``mermaid`` diagram its labels (edge labels ``|…|`` too).  A
    placeholder (``<file>``, ``{{branch_name}}``, ``$VAR`` in a command) is compared by its
    kind and place, so ``<fichier>`` for ``<file>`` is not reported; a language tag in a
    string (``lang="fr"`` for ``lang="en"``) is compared as a language tag.  The finding is at
    the first line where the code differs in each version, and is an **error**: the reader
    would run other code.

    Code that is the same but for names renamed consistently (``monImage`` for ``myImage``
    wherever it stands, also as a word of its own in a path: ``import UnComposant from
    './UnComposant.astro'``) is a translated example, and is not reported unless the version
    still writes one of the names it renamed elsewhere — in another code block, in inline
    code, in a heading's inline code — where the example no longer has it: then a
    **warning** naming the names.  A **warning** too when a version has a comment the
    reference does not have, or lacks one it has (at the comment's line: the example runs the
    same, its explanation differs; a comment rewrapped over more or fewer lines is not
    reported); when JavaScript or TypeScript code (also Astro's, Vue's and Svelte's) differs
    only in the semicolons ending its statements, which that language may leave out; and
    when only the info string (``python``, ``console`` …) differs (the code is the same, its
    highlighting is not).  Info strings are compared by their words (``hl_lines="9  14"``
    and ``hl_lines="9 14"`` are alike); a text marker (``ins="…"``, ``mark="…"``,
    ``del="…"``) whose text stands in its own block's code was translated with the code,
    and only that it is there counts.  A ``title="…"`` in an info string that is prose
    (``title="MCP Configuration"``) is the translator's to translate and is not compared; a
    title that names a file (``title="src/main.py"``) is — unless the version renamed it with
    its example (``src/mon-appli.js``) and names the file it renamed nowhere else in its
    code or inline code, as for names.

    An include or template directive (``info`` ``include`` / ``directive``) is compared by its
    normalised text — its target file and options — so a changed file or highlighted range is
    reported and a different spacing of the same include is not.  The same arguments under
    another directive name (Hugo's ``codenew`` and ``code_sample`` for one file: a renamed
    shortcode the site may still define) are a **warning**.  The versions sharing the
    source's code are the reference.

    **Fixes** (when the source is among the reference versions, in Markdown and MDX files):
    code that differs becomes the source's code with the version's own comments, prose
    strings and markup text put back where they stood — **safe** when every one of them
    finds its place and none of the source's is left in their stead, **unsafe** otherwise,
    and when the names were renamed consistently (a translated example may mean it); an
    include or template directive is copied from the source as it is written there
    (**safe**); a different info string is replaced by the source's on the opening fence
    (**safe**); a code block missing from a version is copied from the source after the
    block before it, with a ``<!-- parallelcheck: translation needed (en) -->`` line before
    it (in MDX ``{/* parallelcheck: translation needed (en) */}``; an indented code block is
    written fenced: indented, it would run into an indented code block right after it)
    (**unsafe**: its comments are the source's, its place the alignment's guess).  A
    comment added or dropped has no fix: comments are the translator's.
    """
    article = ctx.article
    yield from missing_block_findings(ctx, {BlockKind.CODE}, insert=True)
    for section in article.sections:
        for row in nested_rows(section.rows):  # nested rows too: code in a tip, a tab
            blocks = {
                lang: b
                for lang, b in row.cells.items()
                if b is not None and b.kind is BlockKind.CODE
            }
            if len(blocks) < 2:
                continue
            # The very same code, or info string, in every version (the commonest) has
            # nothing to compare: each version's is read alike.
            if len({b.text for b in blocks.values()}) > 1:
                # Every version read as the source's language: a dropped or changed tag is
                # reported once, as the tag's, not again as changed code.
                source = blocks.get(article.source)
                info = source.info if source is not None else None
                forms = {lang: ctx.facts.code_form(b, info) for lang, b in blocks.items()}
                yield from _code_findings(ctx, section, row, blocks, forms)
            if len({b.info for b in blocks.values()}) > 1:
                yield from _info_findings(ctx, section, row, blocks)


def _code_findings(
    ctx: RuleContext,
    section: AlignedSection,
    row: AlignedBlock,
    blocks: dict[str, Block],
    forms: dict[str, CodeForm],
) -> Iterator[Finding]:
    reference, deviating = _group(ctx, forms)
    theirs = reference[0]
    for langs in deviating:
        ours = langs[0]
        mine = other = forms[ours].first_difference(forms[theirs])
        where = {lang: _line(blocks[lang], forms[lang], mine) for lang in langs}
        where.update({lang: _line(blocks[lang], forms[lang], other) for lang in reference})
        renamed = renaming(forms[ours], forms[theirs])
        still: list[str] = []
        if renamed is not None:
            # a version that translated its example throughout is fine: only those that
            # still write a renamed name elsewhere on the page are reported
            elsewhere = {lang: _written_elsewhere(ctx, lang, renamed) for lang in langs}
            langs = [lang for lang in langs if elsewhere[lang]]
            if not langs:
                continue
            still = [old for old in renamed if any(old in elsewhere[lang] for lang in langs)]
            where = {lang: line for lang, line in where.items() if lang in langs + reference}
        editable = fixable(ctx.article, langs, reference)
        fix = None
        if editable:
            own = forms.get(ctx.article.source)
            fix = code_fix(ctx.article, editable, blocks, renamed is not None, own)
        if renamed is not None:
            written = _as_written(blocks[ours], forms[ours], blocks[theirs], forms[theirs], renamed)
            yield _renamed(ctx, section, row, langs, reference, where, written, still, fix)
            continue
        directive = _directive_renamed(blocks[ours], blocks[theirs], forms[ours], forms[theirs])
        if directive is not None:
            names = f"“{directive[0]}” where {say(reference, 'have')} “{directive[1]}”"
            yield ctx.finding(
                section,
                langs,
                reference,
                where,
                f"the directive in {join_langs(langs)} is {names}, with the same arguments "
                "(another name for the same include or template: the content is the same if "
                "the site still defines both)",
                {"kind": "directive-name", "found": directive[0], "expected": directive[1]},
                row=row,
                severity="warning",
                fix=fix,
            )
            continue
        if _only_semicolons(forms[ours], forms[theirs], blocks[theirs].info):
            yield ctx.finding(
                section,
                langs,
                reference,
                where,
                f"the code in {join_langs(langs)} differs from {join_langs(reference)} only "
                "in the semicolons ending its statements (the code runs the same)",
                {"kind": "semicolons"},
                row=row,
                severity="warning",
                fix=fix,
            )
            continue
        message = (
            f"the code in {join_langs(langs)} differs from {join_langs(reference)}: "
            f"“{_shown(blocks[ours], forms[ours], mine)}” where {say(reference, 'have')} "
            f"“{_shown(blocks[theirs], forms[theirs], other)}”"
        )
        evidence = {
            "kind": "code",
            "found": _token(forms[ours], mine),
            "expected": _token(forms[theirs], other),
        }
        yield ctx.finding(section, langs, reference, where, message, evidence, row=row, fix=fix)
    # Comments: among the versions whose code is the reference's.
    same = {lang: forms[lang] for lang in reference}
    places, moved = group_by_value(ctx.article, {k: f.comment_positions() for k, f in same.items()})
    for langs, positions in moved:
        reference_positions = set(forms[places[0]].comment_positions())
        added = sorted(set(positions) - reference_positions)
        dropped = sorted(reference_positions - set(positions))
        where = {}
        for lang in langs:
            where[lang] = _comment_line(blocks[lang], forms[lang], (added or dropped)[0])
        for lang in places:
            where[lang] = _comment_line(blocks[lang], forms[lang], (added or dropped)[0])
        if added:
            what = f"has a comment at line {where[langs[0]]} that {say(places, 'lack')}"
        else:
            what = f"lacks the comment at line {where[places[0]]} of {join_langs(places)}"
        extra = len(added) + len(dropped) - 1
        more = f" ({extra} more comment{'s' if extra > 1 else ''} differ)" if extra > 0 else ""
        yield ctx.finding(
            section,
            langs,
            places,
            where,
            f"the code in {join_langs(langs)} {what}{more}",
            {"kind": "comment", "added": len(added), "dropped": len(dropped)},
            row=row,
            severity="warning",
        )


#: A name as it stands in code: letters, digits, ``_`` and ``$``.
_NAME = compile_pattern(r"[^\W\d]\w*|\$\w+")


class _CodeNames(NamedTuple):
    """What a version writes as code: the names in it, its inline code spans, and all of it
    (code blocks and inline code)."""

    names: frozenset[str]
    spans: frozenset[str]
    text: str

    def name(self, renamed: str) -> bool:
        """Whether this code names *renamed*: an identifier as a name of it; a string of
        words (``"poodle"``) as a string or an inline code span of its own, not inside other
        words (``"log"`` is not named by ``console.log``); anything else (a path such as
        ``'/my-repo'`` or a title's ``src/my-app.js``) wherever it is written."""
        if renamed[:1] in _QUOTES:
            bare = renamed[1:-1]
            if _WORDS.fullmatch(bare):
                return bare in self.spans or any(f"{q}{bare}{q}" in self.text for q in _QUOTES)
            return bare in self.text
        return renamed in self.names if _NAME.fullmatch(renamed) else renamed in self.text


_QUOTES = "\"'`"
#: A string of words and spaces alone (example data: ``"observación de aves"``).
_WORDS = compile_pattern(r"[^\W\d_]+(?: [^\W\d_]+)*")


def _written_elsewhere(ctx: RuleContext, lang: str, renamed: dict[str, str]) -> list[str]:
    """The names an example of version *lang* renamed (*renamed*: the reference's name → its
    own) that the version still writes in its code blocks, inline code or headings' inline
    code: the rest of the page then names what the example no longer does.  None for a
    version that has translated an example throughout, which is fine."""
    code = ctx.facts.of_article("code of each version", lambda: _code_of_versions(ctx))
    own = code.get(lang)
    return [old for old in renamed if own is not None and own.name(old)]


def _code_of_versions(ctx: RuleContext) -> dict[str, _CodeNames]:
    """Per version, its code blocks, inline code and headings' inline code (:class:`_CodeNames`)."""
    spans: dict[str, list[str]] = {}
    listings: dict[str, list[str]] = {}
    for aligned in ctx.article.sections:
        for lang, section in aligned.cells.items():
            if section is not None:
                inline = spans.setdefault(lang, [])
                inline.extend(section.code_spans)
                for block in section.blocks:
                    _add_code(block, inline, listings.setdefault(lang, []))
    code = {}
    for lang, inline in spans.items():
        text = "\n".join([*inline, *listings.get(lang, ())])
        code[lang] = _CodeNames(frozenset(_NAME.findall(text)), frozenset(inline), text)
    return code


def _add_code(block: Block, inline: list[str], listings: list[str]) -> None:
    """*block*'s inline code (and its children's) into *inline*, its code into *listings*."""
    if block.kind is BlockKind.CODE:
        listings.append(block.text)
    inline.extend(block.code_spans)
    for child in block.children:
        _add_code(child, inline, listings)


#: Languages that end a statement at the end of its line without a semicolon (JavaScript's
#: automatic semicolon insertion, and the languages whose scripts are JavaScript).
_OPTIONAL_SEMICOLONS = frozenset(
    {"js", "javascript", "jsx", "mjs", "cjs", "ts", "typescript", "tsx", "astro", "vue", "svelte"}
)


def _only_semicolons(ours: CodeForm, theirs: CodeForm, info: str) -> bool:
    """Whether two blocks of a language with optional semicolons differ in semicolons alone."""
    words = info.split(maxsplit=1)
    if not words or words[0].lower() not in _OPTIONAL_SEMICOLONS:
        return False
    return [t for t in ours.tokens if t != ";"] == [t for t in theirs.tokens if t != ";"]


def _directive_renamed(
    ours: Block, theirs: Block, our_form: CodeForm, their_form: CodeForm
) -> tuple[str, str] | None:
    """The two names when both blocks are include or template directives that differ in
    their name alone (:func:`~parallelcheck.text.listings.renamed_directive`)."""
    if not (is_directive(ours) and is_directive(theirs)):
        return None
    return renamed_directive(our_form, their_form)


def _as_written(
    ours: Block, our_form: CodeForm, theirs: Block, their_form: CodeForm, renamed: dict[str, str]
) -> dict[str, str]:
    """The names *renamed* maps (theirs → ours, as :func:`renaming` gives them) as the two
    blocks write them where each first stands: a translated string's form is ``""``, its
    text is what a translator reads (``"observación de aves"`` for ``"birdwatching"``)."""
    written: dict[str, str] = {}
    seen: set[str] = set()
    for index, token in enumerate(their_form.tokens):
        if token in renamed and token not in seen:
            seen.add(token)
            written[their_form.written(theirs.text, index)] = our_form.written(ours.text, index)
    return written


def _renamed(
    ctx: RuleContext,
    section: AlignedSection,
    row: AlignedBlock,
    langs: list[str],
    reference: list[str],
    where: dict[str, int],
    renamed: dict[str, str],
    still: list[str],
    fix: Fix | None,
) -> Finding:
    names = ", ".join(f"“{new}” for “{old}”" for old, new in list(renamed.items())[:3])
    more = f" and {len(renamed) - 3} more" if len(renamed) > 3 else ""
    kept = ", ".join(f"“{name}”" for name in still[:3]) + (" …" if len(still) > 3 else "")
    return ctx.finding(
        section,
        langs,
        reference,
        where,
        f"the code in {join_langs(langs)} renames what {say(reference, 'call')} "
        f"otherwise, consistently: {names}{more}, but {join_langs(langs)} still "
        f"{'writes' if len(langs) == 1 else 'write'} {kept} elsewhere on the page: rename "
        "it there too, or keep the name here",
        {"kind": "renamed", "names": dict(renamed), "still_written": still},
        row=row,
        severity="warning",
        fix=fix,
    )


def _info_findings(
    ctx: RuleContext, section: AlignedSection, row: AlignedBlock, blocks: dict[str, Block]
) -> Iterator[Finding]:
    infos = {lang: b.info.strip() for lang, b in blocks.items()}
    compared = {lang: _compared_info(info, blocks[lang].text) for lang, info in infos.items()}
    reference, deviating = group_by_value(ctx.article, compared)
    for langs, _ in deviating:
        info, theirs = infos[langs[0]], infos[reference[0]]
        file_renamed = _renamed_file_title(info, theirs)
        if file_renamed is not None:  # an example's file renamed with it (src/mon-appli.js)
            langs = [lang for lang in langs if _written_elsewhere(ctx, lang, file_renamed)]
            if not langs:
                continue  # and named nowhere else: a translated example
        editable = fixable(ctx.article, langs, reference)
        yield ctx.finding(
            section,
            langs,
            reference,
            {lang: b.line for lang, b in blocks.items() if lang in langs or lang in reference},
            f"code block is marked “{info or '(none)'}” in {join_langs(langs)} but "
            f"“{theirs or '(none)'}” in {join_langs(reference)}",
            {"kind": "info-string"},
            row=row,
            severity="warning",
            fix=info_fix(ctx.article, editable, blocks) if editable else None,
        )


#: A text marker of an info string (Expressive Code's ``ins="…"``, ``del="…"``,
#: ``mark="…"``): its text, quotes inside it unescaped by the reader, runs to a quote before
#: a space or the end.
_TEXT_MARKER = compile_pattern(r"""\b(ins|del|mark)=["'](.*?)["'](?=\s|$)""")
#: A ``title`` attribute of an info string (``json title="MCP Configuration"``).
_TITLE = compile_pattern(r"""\btitle=(?:"([^"]*)"|'([^']*)')""")
#: A title that names a file (no space; a dot or a slash), compared as written.
_FILE_TITLE = compile_pattern(r"[^\s]*[./][^\s]*")


def _renamed_file_title(ours: str, theirs: str) -> dict[str, str] | None:
    """``{their title: our title}`` when two info strings differ in the file their titles
    name and in nothing else, else ``None`` (also when one title is prose: a file's name
    replaced by words is a change)."""
    our_title, their_title = _TITLE.search(ours), _TITLE.search(theirs)
    if our_title is None or their_title is None:
        return None
    files = _title_of(their_title), _title_of(our_title)
    if not all(_FILE_TITLE.fullmatch(name) for name in files):
        return None
    if _TITLE.sub("", ours).split() != _TITLE.sub("", theirs).split():
        return None
    return {files[0]: files[1]}


def _title_of(match: re.Match[str]) -> str:
    return match.group(1) if match.group(1) is not None else match.group(2)


def _compared_info(info: str, code: str) -> str:
    """An info string as versions are compared by it: its words (the runs of space between
    them count for nothing: ``hl_lines="9  14"`` marks the lines ``hl_lines="9 14"`` marks);
    a title that is prose (words, not a file's name) is the translator's to translate, so
    only that it is there counts; and a marker of text in the block's *code*
    (``ins="= \\"Hallo\\""``, ``mark="…"``, ``del="…"``) that finds its text there is
    translated with the code, so only that it is there counts too (one whose text the code
    lacks is compared as written)."""

    def prose_blanked(match: re.Match[str]) -> str:
        return match.group() if _FILE_TITLE.fullmatch(_title_of(match)) else "title=…"

    def found_blanked(match: re.Match[str]) -> str:
        return f"{match[1]}=…" if match[2] and match[2] in code else match.group()

    compared = _TITLE.sub(prose_blanked, " ".join(info.split()))
    return _TEXT_MARKER.sub(found_blanked, compared) if "=" in compared else compared


def _group(ctx: RuleContext, forms: dict[str, CodeForm]) -> tuple[list[str], list[list[str]]]:
    """The reference group — the versions whose code matches the source's (or else the
    largest group's, earlier versions winning ties) — and the other groups, each of versions
    whose code matches (:meth:`CodeForm.matches`)."""
    langs = [lang for lang in ctx.article.langs if lang in forms]
    groups: list[list[str]] = []
    for lang in langs:
        group = next((g for g in groups if forms[g[0]].matches(forms[lang])), None)
        if group is None:
            groups.append([lang])
        else:
            group.append(lang)
    source = ctx.article.source
    first = next((g for g in groups if source in g), None) or max(groups, key=len)
    reference = [lang for lang in langs if forms[lang].matches(forms[first[0]])]
    others = [[lang for lang in g if lang not in reference] for g in groups]
    return reference, [g for g in others if g]


def _token(form: CodeForm, index: int) -> str:
    return form.tokens[index] if index < len(form.tokens) else ""


def _line(block: Block, form: CodeForm, token: int) -> int:
    """The file line of token ``token`` of a block (its last token's past the end; the
    block's first line when it has none)."""
    if not form.token_lines:
        return block.line
    offset = form.token_lines[min(token, len(form.token_lines) - 1)]
    return _file_line(block, offset)


def _comment_line(block: Block, form: CodeForm, position: int) -> int:
    """The file line of the first comment at ``position`` among a block's tokens, or where
    such a comment would stand."""
    for place, line in form.comments:
        if place == position:
            return _file_line(block, line)
    if position < len(form.token_lines):
        return _file_line(block, form.token_lines[position])
    return _line(block, form, position)


def _file_line(block: Block, offset: int) -> int:
    lines = block.file_lines()
    if is_directive(block) or not lines:
        return block.line  # normalised directives: not the file's lines
    return lines[min(offset, len(lines) - 1)]


def _shown(block: Block, form: CodeForm, token: int) -> str:
    """The code from a little before token ``token`` to the end of its line (past the
    shorter's end: its last line, marked as the end)."""
    if not form.token_starts:
        return "(nothing)"
    end = token >= len(form.token_starts)
    start = form.token_starts[min(token, len(form.token_starts) - 1)]
    text = block.text
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", start)
    line_end = len(text) if line_end < 0 else line_end
    if end:  # up to the last token: not a comment after it
        line_end = min(line_end, start + len(form.tokens[-1]))
    begin = max(line_start, start - 30)
    shown = ("…" if begin > line_start else "") + text[begin:line_end].strip()
    return excerpt(shown, 70) + (" (and no more code)" if end else "")
