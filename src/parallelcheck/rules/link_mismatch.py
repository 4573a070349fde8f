"""Link and image targets that differ between aligned blocks."""

from __future__ import annotations

import fnmatch
import os
import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterator
from functools import reduce
from urllib.parse import unquote, urlsplit

from parallelcheck.model.aligned import AlignedArticle, AlignedBlock
from parallelcheck.model.document import Link
from parallelcheck.model.finding import Finding
from parallelcheck.model.fix import SAFE, SPAN, UNSAFE, Edit, Fix, Span
from parallelcheck.rules._common import excerpt, group_by_value, join_langs
from parallelcheck.rules._fixes import EDITABLE, fixable
from parallelcheck.rules._lines import counterpart_in
from parallelcheck.rules.base import Option, RuleContext, rule
from parallelcheck.text.links import (
    LOCAL_FRAGMENT,
    bare_urls,
    compared_target,
    is_localised,
    localisation,
    same_page_moved,
    site_path,
    text_contradiction,
)
from parallelcheck.text.regexes import compile_pattern
from parallelcheck.text.tokens import cut_spans


@rule(
    "link-mismatch",
    severity="warning",
    tags=("values",),
    fixes=("safe", "unsafe"),
    options={
        "ignore_targets": Option(
            (), "glob patterns of link targets never compared (also `links.ignore_targets`)"
        ),
        "localized_patterns": Option(
            (),
            "further localised prefixes with a `{lang}` placeholder (`/docs/{lang}-guide/`), "
            "beside `links.localized_prefixes` and language segments anywhere in a path",
        ),
    },
)
def link_mismatch(ctx: RuleContext) -> Iterator[Finding]:
    """Link targets differ between aligned blocks (localisation allowed), or contradict their text.

    Link or image targets differ between aligned blocks (or aligned headings).

    For each aligned block the targets of its links and images (nested ones included) are
    compared as sets: how often a version links to one target is style.  A URL a version
    writes bare in its text (Markdown and MDX files: GitHub-flavoured Markdown makes it a
    link) is a link to it.  A target is compared without a localised prefix (configurable,
    default ``/{lang}/``: ``/ja/tutorial/`` in the ja version equals ``/tutorial/``, and so does
    ``/en/tutorial/`` when en is the source) and without a trailing slash; a target written
    the very same way in every version (a language switcher) always agrees.  Versions are
    grouped by the targets they hold; the versions sharing the source's targets are the
    reference and each other group is one finding, saying which targets it lacks and which it
    has instead.  Blocks missing as a whole are reported by the block rules
    instead.

    Localisation is no difference: a segment naming the version's language or the source's
    anywhere in the path (``../ko/tutorial/x.md``, ``developer.mozilla.org/en-US/docs/…``, a
    region or script subtag allowed), a language subdomain (``ko.wikipedia.org``, or the
    version's region: ``cn.vite.dev`` in zh-CN), a query parameter naming the language
    (``?hl=zh-cn``), a
    Liquid/Jekyll ``{% link path %}`` or a ``{{ site.url }}`` prefix (root-relative), ``./``
    and doubled slashes.  A site's absolute URL equals a root-relative link to the same path
    in another version of the block (``https://kubernetes.io/docs/x`` = ``/docs/x``).  The
    fragment of a link to a page of the site's own (relative or root-relative) is
    compared only for being there: it is that page's heading id, translated with the page
    (``/ko/docs/x/#파드-필드-저장`` = ``/docs/x/#store-pod-fields``), and the other page is
    not at hand to resolve it — a fragment left out is still reported, a fragment changed
    into another heading of that page is not seen.  Fragments of absolute URLs (other
    sites, their localised copies included) are compared as written.  A query value of
    words apart (a tweet's text, ``?text=I'm loving @fastapi because…``; a mail's subject)
    is prose, translated with the page: compared only for being there.

    A link whose text names a token that its own target contradicts is reported in every
    version that writes it, against the versions of the row that do not: an issue number
    (``#123`` on a link to ``…/issues/132``), a version (``v2.4.2`` on a link to the
    ``v2.4.1`` release), a file name (``config.py`` on a link to ``settings.py``; a language
    infix ``README.ko.md`` does not count).

    A link to a heading of the same page (``#fragment``) is compared by the aligned section it
    leads to: when the fragment is that version's own id of a heading — its explicit id, or
    the id a site generator derives from its title (lower case, punctuation dropped, spaces
    as hyphens: ``#중첩된-json-문서``, ``#nested-json-documents``; a title met again numbered,
    the second ``## Size`` is ``#size-1``) — the translated heading's translated id is the
    same target.  So is a link into the page written with the page's own address
    (``/ja/guides/actions/#…`` in the page ``guides/actions``).

    Further localised prefixes may be given in the ``localized_patterns`` option (each with a
    ``{lang}`` placeholder, like ``links.localized_prefixes``).

    Targets matching a glob pattern of the ``ignore_targets`` option (``*.svg``,
    ``https://github.com/*/edit/*``; also read from ``links.ignore_targets``) are never
    compared, as written in each version.

    **Fix** (when the source is among the reference versions, in Markdown and MDX files, and
    the deviating versions lack as many targets as they add): each of their targets is
    changed into the source's target it stands for, on the link's line, in the version's own
    localisation — the part of the target that differs is exchanged, so ``/ja/`` or
    ``ko.example.org`` stays (``/ja/docs/old/`` becomes ``/ja/docs/new/`` where the source
    has ``/docs/new/``); a link into the page gets the version's id of the heading the
    source's leads to.  **Safe** for one changed target, **unsafe** for several (paired in
    the order they stand).  A link added or dropped, a translated fragment into another
    page, and a link text that contradicts its target have no fix: those are the
    translator's to write.
    """
    article = ctx.article
    ignored = _ignored(ctx.options["ignore_targets"])
    prefixes = (*article.link_prefixes, *ctx.options["localized_patterns"])
    patterns = {lang: localisation(lang, prefixes, article.source) for lang in article.langs}
    headings = _HeadingRows(article)
    page = article.id.strip("/")

    def in_page(target: str, lang: str) -> str:
        """A target as compared, a link into the page by the section it leads to."""
        return _in_page(_as_in_page(target, page, patterns[lang]), headings, lang)

    def findings(section, cells, row: AlignedBlock | None = None) -> Iterator[Finding]:
        """The findings of a heading or a block row of *section*: *cells* holds, per
        version, (line, links, blocks)."""
        kept = {
            lang: (line, [link for link in links if not ignored(link)], blocks)
            for lang, (line, links, blocks) in cells.items()
        }
        yield from _contradicted(
            ctx,
            section,
            {lang: (line, links) for lang, (line, links, _) in kept.items()},
            patterns,
            row,
        )
        targets = {
            lang: (
                line,
                [(in_page(link.target, lang), link.line, link.target) for link in links],
                blocks,
            )
            for lang, (line, links, blocks) in kept.items()
        }
        yield from _compare(ctx, section, targets, patterns, headings, row)

    # A heading or a row where no version has a link gives nothing (no text to contradict a
    # target, no target to differ): most rows, passed without comparing.
    for section in article.sections:
        cells = {lang: (s.line, s.links, ()) for lang, s in section.cells.items() if s is not None}
        if any(links for _, links, _ in cells.values()):
            yield from findings(section, cells)
        for row in section.rows:
            blocks = {lang: (b, b.all_links()) for lang, b in row.cells.items() if b is not None}
            if any(links for _, links in blocks.values()):
                yield from findings(
                    section,
                    {lang: (b.line, links, (b,)) for lang, (b, links) in blocks.items()},
                    row,
                )


def _contradicted(
    ctx: RuleContext, section, links_by_lang, patterns, row: AlignedBlock | None = None
) -> Iterator[Finding]:
    """Links whose text names a token their own target contradicts
    (:func:`~parallelcheck.text.links.text_contradiction`): one finding per link text and
    target token, naming the versions that write it; the other versions of the row are the
    reference, each pointed at its link to the same page (else its block's line)."""
    found: dict[tuple[str, str], dict[str, int]] = {}
    for lang, (_, links) in links_by_lang.items():
        for link in links:
            if link.is_image or not link.text:
                continue
            said = text_contradiction(link.text, link.target, patterns[lang].tags)
            if said is not None:
                key = (link.text.strip().strip("`").strip(), said)
                target = compared_target(link.target, patterns[lang])
                found.setdefault(key, {}).setdefault(lang, (link.line, target))
    for (text, said), places in found.items():
        langs = [lang for lang in ctx.article.langs if lang in places]
        reference = [
            lang for lang in ctx.article.langs if lang in links_by_lang and lang not in places
        ]
        where = {lang: line for lang, (line, _) in places.items()}
        targets = {target for _, target in places.values()}
        for lang in reference:  # its link to the same target, else its block
            line, links = links_by_lang[lang]
            where[lang] = next(
                (
                    link.line
                    for link in links
                    if compared_target(link.target, patterns[lang]) in targets
                ),
                line,
            )
        yield ctx.finding(
            section,
            langs,
            reference,
            where,
            f"{join_langs(langs)}: the link text “{text}” is not what the link leads to "
            f"({excerpt(said, 120)})",
            {"text": text, "target": said},
            row=row,
            severity="error",  # a stated fact (an issue number, a version) is wrong
        )


def _ignored(patterns: tuple[str, ...]) -> Callable[[Link], bool]:
    """Whether a link's target matches one of the glob *patterns* (case-sensitive)."""
    if not patterns:
        return lambda link: False
    # made of the input: compiled by re, never kept (see parallelcheck.text.regexes)
    matcher = re.compile("|".join(fnmatch.translate(pattern) for pattern in patterns))
    return lambda link: matcher.match(link.target) is not None


def _compare(
    ctx: RuleContext,
    section,
    targets_by_lang,
    patterns,
    headings: _HeadingRows,
    row: AlignedBlock | None = None,
) -> Iterator[Finding]:
    """The findings of one heading or block row: versions grouped by the set of targets
    they link to (how often a version links to one target is style), each group that is
    not the source's one finding.  A target a version writes as a bare URL in its text
    (which GitHub-flavoured Markdown and MDX make a link) is not one it lacks or adds."""
    article = ctx.article
    if len(targets_by_lang) < 2 or not any(cell[1] for cell in targets_by_lang.values()):
        return
    written = [[target for target, _, _ in cell[1]] for cell in targets_by_lang.values()]
    if all(targets == written[0] for targets in written):
        return  # the very same targets everywhere (the commonest): they always agree
    raw = {lang: Counter(t for t, _, _ in cell[1]) for lang, cell in targets_by_lang.items()}
    everywhere = reduce(lambda a, b: a & b, raw.values())  # the very same target in all
    compared = _site_relative(
        {
            lang: _compared(cell[1], everywhere, patterns[lang])
            for lang, cell in targets_by_lang.items()
        }
    )
    sets = {lang: tuple(sorted({t for t, _, _ in found})) for lang, found in compared.items()}
    reference, deviating = group_by_value(article, sets)
    bare = _BareUrls(article, targets_by_lang, patterns)
    for langs, targets in deviating:
        ours, theirs = set(targets), set(sets[reference[0]])
        lacking = sorted(t for t in theirs - ours if not all(bare.writes(la, t) for la in langs))
        adding = sorted(t for t in ours - theirs if not bare.writes(reference[0], t))
        if not lacking and not adding:
            continue
        lines = _places(targets_by_lang, compared, langs, reference, set(lacking), set(adding))
        who, others = join_langs(langs), join_langs(reference)
        one, one_other = len(langs) == 1, len(reference) == 1
        links, other_links = ("links" if one else "link"), ("links" if one_other else "link")
        ours_found = [*targets_by_lang[langs[0]][1], *compared[langs[0]]]
        theirs_found = [*targets_by_lang[reference[0]][1], *compared[reference[0]]]
        theirs_shown = _show(lacking, theirs_found, ours_found, headings, article, reference[0])
        ours_shown = _show(adding, ours_found, theirs_found, headings, article, langs[0])
        moved = _moved_pages(lacking, adding)
        if lacking and adding:
            text = f"{who} {links} to {ours_shown} where {others} {other_links} to {theirs_shown}"
            if moved:
                text += f": the same page{'s' * (len(lacking) > 1)} of {moved} at another address"
        elif lacking:
            has = "has" if one_other else "have"
            text = f"{who} lack{'s' * one} the link to {theirs_shown} that {others} {has}"
        else:
            has = "does" if one_other else "do"
            text = f"{who} add{'s' * one} a link to {ours_shown} that {others} {has} not have"
        yield ctx.finding(
            section,
            langs,
            reference,
            lines,
            text,
            {"missing": lacking, "extra": adding},
            row=row,
            severity="info" if moved else None,
            fix=None if moved else _fix(ctx, langs, reference, compared, lacking, adding, patterns),
        )


def _moved_pages(lacking: list[str], adding: list[str]) -> str:
    """The host when every target lacked and every one added pair up as one page of a site
    that moved (:func:`~parallelcheck.text.links.same_page_moved`), else ``""``."""
    if not lacking or len(lacking) != len(adding):
        return ""
    left = list(adding)
    for target in lacking:
        other = next((t for t in left if same_page_moved(target, t)), None)
        if other is None:
            return ""
        left.remove(other)
    return _host(lacking[0])


class _BareUrls:
    """The URLs each version of a row writes bare in its text, outside inline code, in
    their compared form: GitHub-flavoured Markdown and MDX make such a URL a link
    (``Visit https://astro.new`` links as ``[…](https://astro.new)`` does).  Only for
    Markdown and MDX files, read when a difference first asks."""

    def __init__(self, article: AlignedArticle, cells: dict, patterns: dict):
        self.article = article
        self.cells = cells
        self.patterns = patterns
        self.found: dict[str, frozenset[str]] = {}

    def writes(self, lang: str, target: str) -> bool:
        """Whether version *lang* writes the compared *target* as a bare URL."""
        if "://" not in target:
            return False
        found = self.found.get(lang)
        if found is None:
            found = self.found[lang] = self._read(lang)
        return target in found

    def _read(self, lang: str) -> frozenset[str]:
        if os.path.splitext(self.article.paths[lang])[1].lower() not in EDITABLE:
            return frozenset()
        found = set()
        for block in self.cells[lang][2]:
            spans = block.all_code_spans() if block.children else block.code_spans
            text = cut_spans(block.text, spans) if spans else block.text
            found.update(compared_target(url, self.patterns[lang]) for url in bare_urls(text))
        return frozenset(found)


def _as_in_page(target: str, page: str, where) -> str:
    """A link to a heading of the page itself written with the page's address
    (``/ja/guides/actions/#フォーム入力エラーの表示`` in the page ``guides/actions``) as the
    link into the page it is (``#フォーム入力エラーの表示``); any other target as it is.  The
    address is the article's id, after a root-relative path or a host, its language
    segments, trailing slash and Markdown or HTML extension left out."""
    address, hash_, fragment = target.partition("#")
    if not hash_ or not fragment or not address or not page:
        return target
    compared = compared_target(address, where)
    path = site_path(compared) or compared
    if not path.startswith("/"):
        return target
    path = path.rstrip("/")
    stem, dot, extension = path.rpartition(".")
    if dot and extension.lower() in _PAGE_EXTENSIONS:
        path = stem
    return "#" + fragment if path == "/" + page or path.endswith("/" + page) else target


#: Extensions a link to a page may end with.
_PAGE_EXTENSIONS = frozenset({"md", "mdx", "markdown", "html", "htm"})


def _fix(ctx: RuleContext, langs, reference, compared, lacking, adding, patterns) -> Fix | None:
    """The fix of the versions ``langs`` that link elsewhere than the source: each target of
    theirs the source lacks made the source's target it stands for, in the version's own
    localisation (:func:`_retargeted`), on the link's line.  Only when as many targets are
    lacking as added; the version's and the source's are paired in the order they stand.
    Safe for one pair whose new target is the source's as written, or a link of the site's
    own in the version's localisation; unsafe for several pairs (the pairing by order is a
    guess) or for another site's URL kept in the version's localisation (that site may
    localise its pages otherwise).  None when a target cannot be written so, or would be
    written as it stands (the same ``#id`` leading to another heading: the headings are
    what differs)."""
    article = ctx.article
    editable = fixable(article, langs, reference)
    if not editable or not lacking or len(lacking) != len(adding):
        return None
    source = article.source
    wanted = _taken(compared[source], lacking)
    edits, safe = [], len(lacking) == 1
    for lang in editable:
        for (form, line, written), (theirs, _, their_written) in zip(
            _taken(compared[lang], adding), wanted, strict=True
        ):
            made = _retargeted(
                written,
                form,
                theirs,
                their_written,
                patterns[lang],
                patterns[source],
                article,
                lang,
            )
            if made is None:
                return None
            target, sure = made
            if target == written:
                return None  # the same target leads elsewhere: the page's headings differ
            safe = safe and sure
            edits.append(Edit(Span(article.paths[lang], line, line), SPAN, written, target))
    shown = _listed([new for new in dict.fromkeys(edit.new for edit in edits)])
    return Fix(
        SAFE if safe else UNSAFE,
        f"link to {shown} in {join_langs(editable)}, as {source} does",
        tuple(edits),
    )


def _taken(found: list[tuple[str, int, str]], forms: list[str]) -> list[tuple[str, int, str]]:
    """The links of ``found`` whose compared target is one of ``forms`` (as many of each as
    it holds), in the order they stand."""
    left = Counter(forms)
    taken = []
    for link in found:
        if left[link[0]]:
            left[link[0]] -= 1
            taken.append(link)
    return taken


_IN_PAGE = compile_pattern(r"#\(section (\d+)\)")


def _led_to(form: str, article: AlignedArticle) -> dict | None:
    """The cells of the aligned section a compared in-page form (:func:`_in_page`) leads
    to; ``None`` for any other target — also for one a page writes that way itself
    (``<#(section 99)>``) past the article's sections."""
    heading = _IN_PAGE.fullmatch(form)
    if heading is None or not 0 < int(heading[1]) <= len(article.sections):
        return None
    return article.sections[int(heading[1]) - 1].cells


def _retargeted(
    written, form, theirs, their_written, own, source, article, lang
) -> tuple[str, bool] | None:
    """The target that stands in the version (localisation ``own``) where the source writes
    ``their_written`` (compared: ``theirs``) and the version writes ``written`` (``form``),
    and whether it is sure:

    * a link to a heading of the page: the version's explicit id of that heading, when it
      has one and it is the source's (a changed id is ``heading-id``'s to fix first);
    * a target the version localises (``/ja/docs/old/``): the part of ``written`` that makes
      the difference exchanged for the source's (``/ja/docs/new/``), so the localised prefix
      or host stays, and so does the version's own fragment into another page of the site (a
      translated heading id) — sure for the site's own pages, not for another site's URL;
    * else the source's target as written — sure unless the version's host is a subdomain
      of the source's (``cn.vite.dev`` for ``vite.dev``: a localised copy, perhaps).

    ``None`` when none of these compares as the source's, or when the source has a fragment
    into one of the site's pages that the version lacks (the version's own id of it is not
    known)."""
    cells = _led_to(theirs, article)
    if cells is not None:
        cell, origin = cells.get(lang), cells.get(article.source)
        if cell is None or not cell.anchor or (origin and origin.anchor not in (None, cell.anchor)):
            return None
        return f"#{cell.anchor}", True
    if theirs.endswith(LOCAL_FRAGMENT) != form.endswith(LOCAL_FRAGMENT):
        return None
    wanted = compared_target(their_written, source)

    def same(candidate: str) -> bool:
        compared = compared_target(candidate, own)
        return compared == wanted or site_path(compared) == wanted

    if not is_localised(written, own) and same(their_written):
        fragment = written.partition("#")[2]
        sure = not _subdomain_of(written, their_written)
        if not fragment or fragment == their_written.partition("#")[2]:
            return their_written, sure
        if not form.endswith(LOCAL_FRAGMENT):  # a fragment compared as written
            return their_written, sure
    candidate = _exchanged(written, form, theirs)
    if candidate is None or not same(candidate):
        return None
    return candidate, site_path(candidate) is None and "://" not in candidate


def _subdomain_of(written: str, their_written: str) -> bool:
    """Whether ``written``'s host is a subdomain of ``their_written``'s."""
    mine, theirs = _host(written), _host(their_written)
    return bool(theirs) and mine.endswith("." + theirs)


def _host(target: str) -> str:
    try:
        return urlsplit(target.strip()).hostname or ""
    except ValueError:  # not a URL (an unclosed "[" in its host)
        return ""


def _exchanged(written: str, form: str, theirs: str) -> str | None:
    """``written`` with the part that makes its compared form ``form`` differ from
    ``theirs`` exchanged for ``theirs``'s (found with as much context around it as makes it
    stand once in ``written``); ``None`` when it cannot be found."""
    if form.endswith(LOCAL_FRAGMENT):  # the pages differ; the fragments are each their own
        form, theirs = form[: -len(LOCAL_FRAGMENT)], theirs[: -len(LOCAL_FRAGMENT)]
    start = _shared_length(form, theirs)
    end = _shared_length(form[start:][::-1], theirs[start:][::-1])
    mine, new = form[start : len(form) - end], theirs[start : len(theirs) - end]
    for reach in range(16):
        left = form[max(0, start - reach) : start]
        right = form[len(form) - end : len(form) - end + reach]
        needle = left + mine + right
        if needle and written.count(needle) == 1:
            return written.replace(needle, left + new + right)
        if start - reach <= 0 and end - reach <= 0:
            break
    return None


def _shared_length(a: str, b: str) -> int:
    """How many characters ``a`` and ``b`` have in common at their start."""
    return next(
        (i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b))
    )


def _site_relative(compared: dict[str, list[tuple[str, int, str]]]) -> dict:
    """``compared`` (each target with its line and as written) with each absolute http(s)
    target written root-relative when some version of the row links to that root-relative
    page (``https://kubernetes.io/docs/x`` in one version, ``/docs/x`` in another: a site's
    own page written both ways), and a fragment compared for presence only (``X#…``) in
    every version when one version's link to that page has its fragment so (a translated
    heading id)."""
    local = {
        t[: -len(LOCAL_FRAGMENT)]
        for found in compared.values()
        for t, _, _ in found
        if t.endswith(LOCAL_FRAGMENT)
    }
    if local:
        compared = {
            lang: [
                (page + LOCAL_FRAGMENT if hash_ and page in local else target, line, written)
                for target, line, written in found
                for page, hash_, _ in [target.partition("#")]
            ]
            for lang, found in compared.items()
        }
    relative = {t for found in compared.values() for t, _, _ in found if t.startswith("/")}
    if not relative:
        return compared
    changed = {}
    for lang, found in compared.items():
        rewritten = []
        for target, line, written in found:
            path = site_path(target)
            if path is not None:
                page, hash_, _ = path.partition("#")
                for form in (path, page + LOCAL_FRAGMENT if hash_ else page):
                    if form in relative:
                        target = form
                        break
            rewritten.append((target, line, written))
        changed[lang] = rewritten
    return changed


def _compared(links, everywhere: Counter, patterns) -> list[tuple[str, int, str]]:
    """(normalised target, line, target as written) of a version's links, without those
    written the very same way in every version (as many of each as all share, the first
    ones)."""
    shared = Counter(everywhere)
    found = []
    for target, line, written in links:
        if shared[target]:
            shared[target] -= 1
            continue
        found.append((compared_target(target, patterns), line, written))
    return found


def _places(cells, compared, langs, reference, lacking: set, adding: set) -> dict[str, int]:
    """Each version's line: a deviating version's first added link, else where the first link
    it lacks belongs; a reference version's first link the deviating ones lack, else where
    their first added link belongs (the same item or row of the aligned block, else the
    block's first line)."""
    first = langs[0]
    lines = {}
    for group, own, missing, origin in (
        (langs, adding, lacking, reference[0]),
        (reference, lacking, adding, first),
    ):
        for lang in group:
            found = next((line for target, line, _ in compared[lang] if target in own), None)
            if found is None:
                there = next(
                    (line for target, line, _ in compared[origin] if target in missing), None
                )
                default = cells[lang][0]
                found = (
                    default
                    if there is None
                    else counterpart_in(cells[origin][2], there, cells[lang][2], default)
                )
            lines[lang] = found
    return lines


#: A run of hyphens in a heading id.
_HYPHENS = compile_pattern(r"-{2,}")


def heading_id(title: str) -> str:
    """The id a site generator derives from a heading's title (GitHub's, Starlight's and
    MkDocs' convention): lower case, characters other than letters, combining marks (the
    vowel signs of ``स्लॉट्स``), digits, ``_``, ``-`` and spaces dropped, each space a
    hyphen."""
    text = unicodedata.normalize("NFC", title).strip().lower()
    return "".join(ch for ch in text if _in_id(ch)).replace(" ", "-")


def _in_id(ch: str) -> bool:
    """Whether a heading id keeps a character of the title (see :func:`heading_id`)."""
    return ch.isalnum() or ch in "_- " or unicodedata.category(ch).startswith("M")


def _heading_rows(article: AlignedArticle) -> dict[str, dict[str, int | None]]:
    """Per version, each heading id it defines → the aligned section's row: a heading's
    explicit id, and the id derived from its title (:func:`heading_id`) numbered as site
    generators number a title met again in the page (the second ``## Size`` is ``size-1``,
    GitHub's, Astro's, Hugo's and Docusaurus' convention; ``size_1`` too, MkDocs'), in the
    version's own order of headings; an id holding ``--`` also without it, since a title's
    no-break space (fr ``Nom réservé : …``, which generators drop) reads as a space.  An
    explicit id two headings share leads to no one row: ``None``."""
    rows: dict[str, dict[str, int | None]] = {}
    for lang in article.langs:
        headings = sorted(
            (cell.line, index, cell)
            for index, section in enumerate(article.sections)
            if (cell := section.cells.get(lang)) is not None and cell.title
        )
        explicit = Counter(cell.anchor for _, _, cell in headings if cell.anchor)
        ids: dict[str, int | None] = {
            name: index if explicit[name] == 1 else None
            for _, index, cell in headings
            if (name := cell.anchor)
        }
        taken = set(explicit)
        for _, index, cell in headings:
            base = heading_id(cell.title)
            if not base:
                continue
            name, again = base, 0
            while name in taken:
                again += 1
                name = f"{base}-{again}"
            taken.add(name)
            ids.setdefault(name, index)
            if again:
                ids.setdefault(f"{base}_{again}", index)
            if "--" in name:  # a no-break space the reader made a space (fr ``réservé :``)
                ids.setdefault(_HYPHENS.sub("-", name), index)
        rows[lang] = ids
    return rows


class _HeadingRows:
    """:func:`_heading_rows` of an article, worked out when a link into the page first asks
    (an article whose blocks hold no such link never needs them)."""

    __slots__ = ("_article", "_rows")

    def __init__(self, article: AlignedArticle):
        self._article = article
        self._rows: dict[str, dict[str, int | None]] | None = None

    def of(self, lang: str) -> dict[str, int | None]:
        if self._rows is None:
            self._rows = _heading_rows(self._article)
        return self._rows[lang]

    def names_a_heading(self, fragment: str, lang: str) -> bool:
        """Whether the ``#fragment`` is the id of a heading of version *lang*."""
        return _fragment_id(fragment) in self.of(lang)


def _fragment_id(fragment: str) -> str:
    """The heading id a ``#fragment`` names, as :func:`_heading_rows` keys it."""
    return unicodedata.normalize("NFC", unquote(fragment[1:])).lower()


def _in_page(target: str, headings: _HeadingRows, lang: str) -> str:
    """*target* as compared: a ``#fragment`` naming a heading of its own version (*lang*)
    stands for the aligned section it leads to."""
    if target.startswith("#") and len(target) > 1:
        row = headings.of(lang).get(_fragment_id(target))
        if row is not None:
            return f"#(section {row + 1})"
    return target


def _show(
    targets: list[str],
    found: list[tuple[str, int, str]],
    others: list[tuple[str, int, str]],
    headings: _HeadingRows,
    article: AlignedArticle,
    lang: str,
) -> str:
    """Compared targets of version *lang* (its links ``found``: target as compared — into
    the page, and further by localisation —, line, target as written; ``others``: those of
    the versions it is compared with) as a message
    names them: as the version writes them (``https://cn.vite.dev/…``, not as compared),
    and a link to a heading of the page with the heading's title (``#astro-pages (“Astro
    pages”)``).  Of two links of the version leading to one heading, the one written as no
    link of the others is (the difference) is named; a ``#fragment`` naming no heading of
    the version's page says so."""
    theirs = {target for _, _, target in others}
    shown = []
    for target in targets:
        cells = _led_to(target, article)
        if cells is not None:
            written = [w for form, _, w in found if form == target] or [target]
            cell = cells.get(lang)
            title = f" (“{excerpt(cell.title, 60)}”)" if cell is not None and cell.title else ""
            target = next((w for w in written if w not in theirs), written[0]) + title
        elif (
            target.startswith("#")
            and len(target) > 1
            and not headings.names_a_heading(target, lang)
        ):
            target += " (no heading of the page has that id)"
        else:  # as the version writes it (its language, its fragment)
            target = next((w for form, _, w in found if form == target), target)
        shown.append(target)
    return _listed(shown)


def _listed(targets: list[str]) -> str:
    shown = ", ".join(excerpt(t, 160) for t in targets[:3])
    return shown + (f" and {len(targets) - 3} more" if len(targets) > 3 else "")
