"""front-matter-mismatch: the front matter (title, description, slug, weight…) differs."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fnmatch import fnmatchcase

from parallelcheck.model.aligned import AlignedArticle
from parallelcheck.model.document import Block, BlockKind
from parallelcheck.model.finding import Finding
from parallelcheck.model.front_matter import FrontMatter, FrontMatterValue
from parallelcheck.rules._common import say
from parallelcheck.rules._values import Wording, quoted
from parallelcheck.rules.base import Option, RuleContext, rule
from parallelcheck.text.links import localised_prefix_patterns, normalise_target
from parallelcheck.text.numeric import NumberFact
from parallelcheck.text.regexes import compile_pattern
from parallelcheck.text.tokens import same_token

PROSE_KEYS = (
    "title",
    "linktitle",
    "linkTitle",
    "subtitle",
    "description",
    "summary",
    "excerpt",
    "tagline",
    "sidebar_label",
    "sidebar.label",
    "hero.title",
)
STRUCTURAL_KEYS = (
    "slug",
    "permalink",
    "url",
    "layout",
    "type",
    "content_type",
    "date",
    "weight",
    "id",
    "sidebar_position",
    "sidebar.order",
    "draft",
    "*version",
)
#: A plain count up to this is *soft* (as in ``number-mismatch``): reported only when a version
#: states another count in its place.
SMALL = 10

_NUMERONYM = compile_pattern(r"^[a-z][0-9]{1,2}[a-z]$")
_VERSION = compile_pattern(r"^[vV]?[0-9]+(?:\.[0-9]+)*$")
_ZEROS = compile_pattern(r"(?:\.0)+$")  # v4.0 is v4


@dataclass(frozen=True)
class _Difference:
    """What a version's value of one key differs in: ``kind`` ``value`` (a structural key's
    value), ``facts`` (a prose key's numbers and tokens: ``extra`` and ``lacking``) or
    ``missing`` (the key)."""

    kind: str
    extra: tuple[str, ...] = ()
    lacking: tuple[str, ...] = ()


def matches(path: str, patterns: Sequence[str]) -> bool:
    """Whether a value's path is named by one of ``patterns`` (shell-style, case-sensitive): a
    pattern with a ``.`` names a whole path (``sidebar.label``), one without names a key at any
    depth (``title`` names ``title`` and ``hero.title``; list indexes are not keys)."""
    leaf = next((part for part in reversed(path.split(".")) if not part.isdigit()), path)
    for pattern in patterns:
        if fnmatchcase(path, pattern) or ("." not in pattern and fnmatchcase(leaf, pattern)):
            return True
    return False


@rule(
    "front-matter-mismatch",
    severity="error",
    tags=("values",),
    options={
        "prose_keys": Option(
            PROSE_KEYS,
            "front matter keys whose values are translated text, compared by their numbers and "
            "tokens (a name without a dot names the key at any depth; shell-style patterns)",
        ),
        "structural_keys": Option(
            STRUCTURAL_KEYS,
            "front matter keys whose values every version must write the same",
        ),
    },
)
def front_matter_mismatch(ctx: RuleContext) -> Iterator[Finding]:
    """A version's front matter differs from the source's: a fact in a title or description, a
    structural key, a key left out, or a block that cannot be read.

    The metadata block at the top of a file — YAML between ``---`` lines (Jekyll, Hugo, Astro,
    Docusaurus, MkDocs) or TOML between ``+++`` lines (Hugo) — is read as keys and values, and
    each version's is compared with the source's (the first version's when the source has
    none):

    * *prose keys* (option ``prose_keys``: ``title``, ``description``, ``summary``,
      ``linkTitle``, ``sidebar.label``…) are translated text: they are compared by the numbers
      and untranslatable tokens they state, read as in ``number-mismatch`` and
      ``token-mismatch`` (a version, a CVE or issue id, a date, a URL — a localised ``/ja/``
      prefix is no difference; a word abbreviated with a count, ``i18n``, ``a11y``, may be
      spelled out; ``v4.0`` is ``v4``).  A translated title is not a finding; a title that
      lost its CVE id, or names another version, is an **error**.  A plain count up to ten is
      reported only when a version states another count in its place;
    * *structural keys* (option ``structural_keys``: ``slug``, ``layout``, ``type``, ``date``,
      ``weight``, ``id``, ``sidebar_position``, keys ending in ``version``…) must have the same
      value in every version (a path or URL as a link target: ``url: /ja/docs/x/`` is
      ``url: /docs/x/``): ``weight: 20`` where the source has ``weight: 30`` is an
      **error**.  A site that translates its slugs takes ``slug`` out of the list;
    * a top-level prose or structural key the source has and a version lacks (or a version
      without any front matter) is a **warning**, pointed at the line before which the key
      belongs; a nested key left out is not reported (sites fall back on a default there),
      nor is a key only a translation adds;
    * front matter that cannot be read (broken YAML or TOML, or not a mapping of keys) is an
      **error** at the line the parser names; that version's keys are not compared, and every
      other rule checks the rest of the file as usual.

    Other keys (``reviewers``, ``lastmod``, ``i18nReady``, ``tags``…) are not compared: add a
    key to either option to compare it.  Each finding points at the key's line in every
    version involved; versions that differ the same way form one finding.
    """
    article = ctx.article
    documents = article.documents
    data = {lang: documents[lang].front_matter_data for lang in article.langs if lang in documents}
    for lang, found in data.items():
        if found is not None and found.error:
            yield ctx.finding(
                None,
                [lang],
                [],
                {lang: found.error_line or 1},
                f"the front matter of {lang} cannot be read: {found.error}; none of its keys "
                "is compared",
                {"kind": "unreadable", "key": "", "reason": found.error},
            )
    if not data:
        return
    reference = article.source if article.source in data else next(iter(data))
    base = data[reference]
    if base is None or base.error:
        return
    others = [lang for lang in data if lang != reference and not _broken(data[lang])]
    yield from _compare(ctx, reference, base, {lang: data[lang] for lang in others})


def _broken(found: FrontMatter | None) -> bool:
    return found is not None and bool(found.error)


def _compare(
    ctx: RuleContext, reference: str, base: FrontMatter, others: dict[str, FrontMatter | None]
) -> Iterator[Finding]:
    prose, structural = ctx.options["prose_keys"], ctx.options["structural_keys"]
    required = tuple(p for p in (*prose, *structural) if "." not in p)
    compare = _Values(ctx, reference)
    reported = [key for key, _ in base.keys if any(fnmatchcase(key, p) for p in required)]
    bare = [lang for lang, found in others.items() if found is None]
    if bare and reported:
        yield ctx.finding(
            None,
            bare,
            [reference],
            {reference: base.line, **dict.fromkeys(bare, 1)},
            f"{say(bare, 'have')} no front matter, where {reference} has one "
            f"({', '.join(reported)})",
            {"kind": "missing", "key": "", "keys": reported},
            severity="warning",
        )
    present = {lang: found for lang, found in others.items() if found is not None}
    maps = {lang: found.value_map() for lang, found in present.items()}
    key_lines = {lang: found.key_lines() for lang, found in present.items()}
    base_lines, base_values = base.key_lines(), base.value_map()
    for key in reported:  # a top-level key some versions lack
        lacking = [lang for lang in present if key not in key_lines[lang]]
        shown = base_values.get(key)
        if not lacking or (shown is not None and not shown.text):
            continue  # (an empty value left out says the same)
        having = [reference, *(lang for lang in present if key in key_lines[lang])]
        lines = {lang: _belongs(base, key, present[lang]) for lang in lacking}
        lines.update({lang: key_lines[lang][key] for lang in having[1:]})
        lines[reference] = base_lines[key]
        value = f" ({quoted([shown.text])})" if shown is not None else ""
        yield ctx.finding(
            None,
            lacking,
            having,
            lines,
            f"{say(lacking, 'lack')} the front matter key “{key}”{value}, which "
            f"{say(having, 'have')}",
            {"kind": "missing", "key": key},
            severity="warning",
        )
    for value in base_values.values():  # (a key written twice: its last value)
        is_structural = matches(value.path, structural)
        if not is_structural and not matches(value.path, prose):
            continue
        groups: dict[_Difference, list[str]] = {}
        agreeing = [reference]
        for lang, values in maps.items():
            theirs = values.get(value.path)
            if theirs is None:
                continue
            if is_structural:
                difference = compare.unequal(value, theirs, lang)
            else:
                difference = compare.differ(value, theirs, lang)
            if difference is None:
                agreeing.append(lang)
            else:
                groups.setdefault(difference, []).append(lang)
        for difference, langs in groups.items():
            lines = {reference: value.line}
            lines.update({lang: maps[lang][value.path].line for lang in (*langs, *agreeing[1:])})
            yield ctx.finding(
                None,
                langs,
                agreeing,
                lines,
                _describe(value.path, langs, agreeing, difference),
                {
                    "kind": difference.kind,
                    "key": value.path,
                    "extra": list(difference.extra),
                    "missing": list(difference.lacking),
                },
            )


def _belongs(base: FrontMatter, key: str, theirs: FrontMatter) -> int:
    """The line before which a key the reference has belongs in another version: the line of
    the next reference key that version has, else its closing delimiter's."""
    order = [name for name, _ in base.keys]
    lines = theirs.key_lines()
    for name in order[order.index(key) + 1 :]:
        if name in lines:
            return lines[name]
    return theirs.end_line


_WORDING = Wording(changed="write", has="state", adds="state", lacks="state", end="")


def _describe(path: str, langs: list[str], agreeing: list[str], difference: _Difference) -> str:
    """A changed value (kind ``value``: one on each side) or changed facts, of a key."""
    said = _WORDING.sentence(langs, agreeing, difference.extra, difference.lacking)
    return f"front matter “{path}”: {said}"


class _Values:
    """The numbers and tokens of prose values, read through the article's facts."""

    def __init__(self, ctx: RuleContext, reference: str):
        article: AlignedArticle = ctx.article
        self.facts = ctx.facts
        self.reference = reference
        self.patterns = {
            lang: localised_prefix_patterns(lang, article.link_prefixes, article.source)
            for lang in article.langs
        }

    def target(self, text: str, lang: str) -> str:
        """A path or URL as link targets are compared (a localised ``/ja/`` prefix
        dropped); any other text as it is."""
        if "://" in text or text.startswith("/"):
            return normalise_target(text, self.patterns[lang])
        return text

    def unequal(
        self, ours: FrontMatterValue, theirs: FrontMatterValue, lang: str
    ) -> _Difference | None:
        """How a structural value of version ``lang`` differs from the reference's, or
        ``None``."""
        if ours.text == theirs.text:
            return None
        if self.target(ours.text, self.reference) == self.target(theirs.text, lang):
            return None
        return _Difference("value", (theirs.text,), (ours.text,))

    def facts_of(self, value: FrontMatterValue, lang: str) -> tuple[list[NumberFact], set[str]]:
        block = Block(BlockKind.PARAGRAPH, value.text, value.line, value.line)
        numbers = list(self.facts.numbers(block, lang).text)
        tokens = set()
        for token in self.facts.tokens(block).strong:
            if "://" in token or token.startswith("/"):
                token = self.target(token, lang)
            elif _NUMERONYM.match(token):
                continue  # i18n, a11y, k8s: a word, which a translation may spell out
            tokens.add(_ZEROS.sub("", token) if _VERSION.match(token) else token)
        return numbers, tokens

    def differ(
        self, ours: FrontMatterValue, theirs: FrontMatterValue, lang: str
    ) -> _Difference | None:
        """How ``theirs`` (version ``lang``'s) differs from the reference's ``ours`` in numbers
        and tokens, or ``None``."""
        if ours.text == theirs.text:
            return None
        our_numbers, our_tokens = self.facts_of(ours, self.reference)
        their_numbers, their_tokens = self.facts_of(theirs, lang)
        extra = [n for n in their_numbers if not _stated(n, our_numbers)]
        lacking = [n for n in our_numbers if not _stated(n, their_numbers)]
        hard_extra = [n for n in extra if not _soft(n)]
        hard_lacking = [n for n in lacking if not _soft(n)]
        soft_in = [n for n in extra if _soft(n)]
        soft_out = [n for n in lacking if _soft(n)]
        if soft_in and soft_out and any(not n.spelled for n in soft_in + soft_out):
            hard_extra += soft_in  # another count in its place
            hard_lacking += soft_out
        extra_tokens = [t for t in their_tokens if not any(same_token(t, o) for o in our_tokens)]
        lacking_tokens = [t for t in our_tokens if not any(same_token(t, o) for o in their_tokens)]
        added = _shown(hard_extra, extra_tokens)
        lost = _shown(hard_lacking, lacking_tokens)
        if not added and not lost:
            return None
        return _Difference("facts", tuple(added), tuple(lost))


def _shown(numbers: list[NumberFact], tokens: list[str]) -> list[str]:
    """The differing numbers and tokens as a finding shows them, in order; a number that is
    part of a token shown (``1.29`` of ``v1.29``) is the token's."""
    shown = set(tokens)
    shown.update(
        text
        for text in {n.text.strip() for n in numbers}
        if not any(text in token for token in tokens)
    )
    return sorted(shown)


def _stated(number: NumberFact, others: list[NumberFact]) -> bool:
    readings = set(number.readings)
    return any(not readings.isdisjoint(other.readings) for other in others)


def _soft(number: NumberFact) -> bool:
    return number.counts_up_to(SMALL)
