"""token-mismatch: untranslatable tokens that differ between aligned blocks."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import NamedTuple

from rapidfuzz.fuzz import ratio

from parallelcheck.facts import ArticleFacts
from parallelcheck.model.aligned import AlignedArticle
from parallelcheck.model.document import Block, BlockKind, Section
from parallelcheck.model.finding import Finding
from parallelcheck.rules._severity import token_severity
from parallelcheck.rules._values import (
    Difference,
    ValueComparison,
    ValuePool,
    Wording,
    compare_values,
)
from parallelcheck.rules.base import RuleContext, rule
from parallelcheck.text.lexicon import LETTER_RUN
from parallelcheck.text.links import compared_target, localisation
from parallelcheck.text.regexes import compile_pattern
from parallelcheck.text.tokens import (
    DIRECT_SEARCH,
    SameTokenIndex,
    Tokens,
    alias_form,
    cut_spans,
    first_offsets,
    same_token,
    token_form,
)

NEAR_VARIANT = 80
_NO_KEYS: frozenset[str] = frozenset()


def _localised(token: str) -> bool:
    """Whether a token is a URL or path, compared as a link target of its version (its form
    depends on the version: :meth:`_TokenComparison.token`)."""
    return "/" in token and " " not in token


def _any_localised(tokens: frozenset[str]) -> bool:
    """Whether some of *tokens* is a URL or path (:func:`_localised`).  Most sets of a block's
    tokens hold no ``/`` at all: one search of them joined tells so (joining adds none), and
    only a set holding one is looked at token by token."""
    return "/" in "\n".join(tokens) and any(_localised(token) for token in tokens)


class _Token(NamedTuple):
    """A token as written, whether it is strong, the form it is compared in
    (:func:`~parallelcheck.text.tokens.token_form`) and whether it is *quiet*: a code-like
    word of running text, never reported, there only for matching inline code another
    version writes as plain text (a named tuple: one is made for every token of every
    block, and a tuple is made several times quicker than a frozen dataclass)."""

    text: str
    strong: bool
    form: str
    quiet: bool = False
    #: The form of a URL or path as written, when its compared form drops a language segment
    #: (``docs/de/x.md`` names the German file in every version: the same token).
    written: str = ""
    #: Another form the token stands for (:func:`~parallelcheck.text.tokens.alias_form`:
    #: ``4.0`` for ``v4.0``, ``meta`` for ``<meta>``).
    alias: str = ""


@dataclass
class _TokenPool(ValuePool[_Token]):
    """Tokens with an index telling whether any of them is the same token as another."""

    index: SameTokenIndex


class _TokenComparison(ValueComparison[_Token]):
    itemwise = True  # a token changed in one list item or table row, whatever the others say

    def __init__(self, article: AlignedArticle, facts: ArticleFacts):
        self.article = article
        self.facts = facts
        #: Per version, the words its running text writes in small letters (see
        #: :meth:`vocabulary`), read when a difference first asks.
        self.words: dict[str, frozenset[str]] = {}
        self.patterns = {
            lang: localisation(lang, article.link_prefixes, article.source)
            for lang in article.langs
        }
        self.made: dict[tuple, _Token] = {}
        self.keys_by_tokens: dict[Tokens, frozenset[str]] = {}
        self.keys_by_version: dict[tuple[Tokens, str], frozenset[str]] = {}

    def token(self, text: str, strong: bool, lang: str) -> _Token:
        """The token *text* of version *lang* as compared (the same in every block: made
        once per article, and for every version at once but for a URL or path)."""
        localised = _localised(text)
        key = (text, strong, lang) if localised else (text, strong)
        found = self.made.get(key)
        if found is None:
            token, written = text, ""
            if localised:  # a URL or path: as a link target
                compared = compared_target(text, self.patterns[lang])
                if compared != text:
                    written, token = token_form(text), compared
            form = token_form(token)
            found = self.made[key] = _Token(token, strong, form, False, written, alias_form(form))
        return found

    def values(self, where: Block | Section, lang: str) -> list[tuple[_Token, int]]:
        """The tokens of *where* (:meth:`deciding_values`), and quiet ones that only match
        others: the code-like words of its running text, and the URLs its links lead to (a
        URL another version writes in its text is the same URL; the links themselves are
        ``link-mismatch``'s to compare)."""
        found = self.deciding_values(where, lang)
        prose = self.facts.prose(where)
        if prose:
            found.extend((_Token(form, False, form, True), 0) for form in sorted(prose))
        links = where.all_links() if isinstance(where, Block) else where.links
        for link in links:
            if "://" in link.target:
                found.append((self.token(link.target.strip(), True, lang)._replace(quiet=True), 0))
        return found

    def deciding_values(self, where: Block | Section, lang: str) -> list[tuple[_Token, int]]:
        """The tokens of *where* at their first offsets, but the quiet ones (the code-like
        words of running text, the slowest search of token reading)."""
        tokens = self.facts.tokens(where)
        if not tokens.strong and not tokens.names:
            return []  # most blocks
        text = where.title if isinstance(where, Section) else where.text
        offsets = first_offsets(text, tokens.strong | tokens.names)
        return [
            (self.token(token, strong, lang), max(offsets[token], 0))
            for strong, group in ((True, tokens.strong), (False, tokens.names))
            for token in sorted(group)
        ]

    def decisive_keys(self, where: Block | Section, lang: str) -> frozenset[str]:
        """The keys of the tokens of *where* but the quiet ones (read without the offsets
        :meth:`values` finds, and without the code-like words of running text).

        Worked out once per set of tokens: a few thousand sets recur in the tens of
        thousands of blocks of a site (``{"FastAPI"}`` in every version), and a set's keys
        are the same in every version unless a token is a URL or path (:meth:`token`), whose
        keys are then worked out once per version."""
        tokens = self.facts.tokens(where)
        if not tokens.strong and not tokens.names:
            return _NO_KEYS  # most blocks
        found = self.keys_by_tokens.get(tokens)
        if found is None:
            found = self.keys_by_version.get((tokens, lang))
            if found is None:
                texts = tokens.strong | tokens.names
                if _any_localised(texts):
                    found = self.keys_by_version[tokens, lang] = self._keys_of(texts, lang)
                else:
                    found = self.keys_by_tokens[tokens] = self._keys_of(texts, lang)
        return found

    def keys_before(self, where: Block | Section, lang: str, size: int) -> frozenset[str]:
        """The keys of the tokens of *where* whose first place is before offset *size* (or
        found nowhere: placed at 0), as :meth:`deciding_values` places them — without making
        the values."""
        tokens = self.facts.tokens(where)
        if not tokens.strong and not tokens.names:
            return _NO_KEYS
        text = where.title if isinstance(where, Section) else where.text
        offsets = first_offsets(text, tokens.strong | tokens.names)
        return self._keys_of((token for token, at in offsets.items() if at < size), lang)

    def _keys_of(self, texts: Iterable[str], lang: str) -> frozenset[str]:
        """The keys of some tokens of version *lang*, as written (see :meth:`decisive_keys`:
        whether a token is strong or not, its keys are the same)."""
        found: set[str] = set()
        for text in texts:
            found.update(self.keys(self.token(text, True, lang)))
        return frozenset(found)

    def decides(self, value: _Token) -> bool:
        return not value.quiet  # running text: never reported

    def prune(
        self, extra: list, lacking: list, ours: list, theirs: list, versions: tuple[str, str]
    ) -> tuple[list, list]:
        """Drop each token a version writes where the other writes the same example with
        its words translated (:func:`_translated_example`), and that one."""
        if not extra or not lacking:
            return extra, lacking
        mine, others = (self.vocabulary(lang) for lang in versions)
        kept_lacking = list(lacking)
        kept_extra = []
        for pair in extra:
            match = next(
                (
                    other
                    for other in kept_lacking
                    if _translated_example(other[0].text, pair[0].text, others, mine)
                ),
                None,
            )
            if match is None:
                kept_extra.append(pair)
            else:
                kept_lacking.remove(match)
        return kept_extra, kept_lacking

    def vocabulary(self, lang: str) -> frozenset[str]:
        """The words version *lang*'s running text writes in small letters (code left out):
        the words of its language, which an example translated into it is written in."""
        found = self.words.get(lang)
        if found is None:
            document = self.article.documents.get(lang)
            found = self.words[lang] = (
                frozenset() if document is None else _prose_words(document.iter_blocks())
            )
        return found

    def occurrences(self, block: Block, lang: str) -> list[tuple[_Token, int]] | None:
        """Each token of a table at every place it stands (a token is read once per block,
        at its first place); ``None`` for a table too large to search token by token."""
        pairs = self.values(block, lang)
        text = block.text
        if len(pairs) * len(text) > DIRECT_SEARCH:
            return None
        found = []
        for token, offset in pairs:
            at = text.find(token.text) if not token.quiet else -1
            if at < 0:
                found.append((token, offset))
            while at >= 0:
                found.append((token, at))
                at = text.find(token.text, at + len(token.text))
        return found

    def matches(self, a: _Token, b: _Token) -> bool:
        return any(same_token(x, y) for x in self.keys(a) for y in self.keys(b))

    def pool(self, values: Iterable[_Token]) -> _TokenPool:
        values = list(values)
        forms = {key for value in values for key in self.keys(value)}
        return _TokenPool(values, set(forms), SameTokenIndex(forms))

    def matches_any(self, value: _Token, pool: ValuePool[_Token]) -> bool:
        if isinstance(pool, _TokenPool):
            return any(pool.index.holds_same(key) for key in self.keys(value))
        return super().matches_any(value, pool)

    def keys(self, value: _Token) -> tuple[str, ...]:
        """The same form is the same token (strong or not); a localised path also matches
        as written, and a token also matches what it stands for (its alias: the number of
        ``v4.0``, the element of ``<meta>``)."""
        if value.written or value.alias:
            return tuple(key for key in (value.form, value.written, value.alias) if key)
        return (value.form,)

    def show(self, value: _Token) -> str:
        return value.text

    def reportable(self, left, ours, theirs):
        """Strong tokens, and names that the other side writes as a near variant (quiet
        tokens never, nor a name left out)."""
        their_forms = {t.form for t, _ in theirs if not t.quiet}
        our_forms = {t.form for t, _ in ours}
        theirs_only = their_forms - our_forms
        kept = []
        for token, line in left:
            if token.quiet:
                continue  # running text: never reported
            if token.strong:
                kept.append((token, line))
            elif any(_near(token.form, other) for other in theirs_only):
                kept.append((token, line))  # a name changed into a near variant
        return kept


#: A word of small letters of running text, two letters or more.
_SMALL_WORD = compile_pattern(r"(?<![^\W\d_])[^\W\d_]{2,}(?![^\W\d_])")


def _prose_words(blocks: Iterable[Block]) -> frozenset[str]:
    """The words some blocks' running text writes in small letters, their inline code and
    code blocks left out (containers' children are in their text)."""
    found: set[str] = set()
    for block in blocks:
        if block.kind is BlockKind.CODE:
            continue
        spans = block.all_code_spans() if block.children else block.code_spans
        text = cut_spans(block.text, spans) if spans else block.text
        found.update(word for word in _SMALL_WORD.findall(text) if word.islower())
    return frozenset(found)


def _translated_example(theirs: str, ours: str, their_words, our_words) -> bool:
    """Whether token *ours* is the example *theirs* with words translated: the same
    characters but letters (``/pages/folder/index.astro`` and ``/pages/dossier/index.astro``,
    ``IMAGE_PATH`` and ``CAMINHO_IMAGEM``, ``<h1>Home Page</h1>`` and ``<h1>홈 페이지</h1>``),
    two runs of letters or more (a single word is an identifier: `` `title` `` is a property's
    name), and every run that differs a word of each side's running text — written in small
    letters there, in the language of that side only — or, on ours, a word of another
    script than Latin.  A changed identifier (``RouteInfo`` for ``SSRManifest``), a typo
    (``bulid``) or an English word the source's text uses too (``config`` for ``route``) is
    no translation.

    The runs are compared as two collections, in whatever order each side writes them: a
    translation puts its words in its language's order, and a run both sides write is the
    same word wherever it stands (fr ``CHEMIN_IMAGE`` for ``IMAGE_PATH``: ``chemin`` for
    ``path``, ``IMAGE`` kept).  The same runs in another order (``PATH_IMAGE``) translate
    nothing: a changed name.  A run ours writes in another script may replace any run
    (``<h1>홈 페이지</h1>`` for ``<h1>Home Page</h1>``, whose ``Home`` is capitalised only);
    every other replaced run is a word of the other side's text."""
    if LETTER_RUN.sub("a", theirs) != LETTER_RUN.sub("a", ours):
        return False
    their_runs, our_runs = LETTER_RUN.findall(theirs), LETTER_RUN.findall(ours)
    if len(their_runs) < 2:
        return False
    their_counts, our_counts = Counter(their_runs), Counter(our_runs)
    their_changed = list((their_counts - our_counts).elements())  # runs only theirs write
    our_changed = list((our_counts - their_counts).elements())
    if not our_changed:
        return False  # the same runs (in the same order or another): no word translated
    other_script = 0
    for run in our_changed:
        if not run.isascii() and not any("a" <= ch <= "z" for ch in run.lower()):
            other_script += 1  # another script than Latin: translated
            continue
        mine = run.lower()
        if mine not in our_words or mine in their_words:
            return False
    # Each replaced run is a word of the other side's text, but for as many as ours wrote
    # in another script: whatever those translate (a capitalised title's word) is translated.
    unknown = sum(run.lower() not in their_words for run in their_changed)
    return unknown <= other_script


def _near(a: str, b: str) -> bool:
    """Whether name *a* is a near variant of name *b* (a misspelling of it), not the same
    name with a case ending written onto it (:func:`_declined`)."""
    if _declined(a, b):
        return False
    return a.lower() == b.lower() or ratio(a, b) >= NEAR_VARIANT


#: The longest case ending a name takes (pl ``JavaScriptem``).
_ENDING_LETTERS = 3


def _declined(a: str, b: str) -> bool:
    """Whether one name is the other with one to three small letters written after it: a
    case ending of a language that declines names (pl ``na GitHubie``, ``JavaScriptu`` for
    ``GitHub``, ``JavaScript``), not a misspelling.  Only for a name with a capital (a
    product name, an acronym): a word of small letters in inline code is a command or an
    identifier, and ``pipx`` is another program than ``pip``."""
    short, long = (a, b) if len(a) < len(b) else (b, a)
    ending = long[len(short) :]
    return (
        0 < len(ending) <= _ENDING_LETTERS
        and long.startswith(short)
        and not short.islower()
        and ending.isalpha()
        and ending.islower()
    )


_WORDING = Wording(changed="write", has="write", adds="add", lacks="have")


def _describe(langs, agreeing, difference: Difference, _count) -> str:
    return _WORDING.sentence(langs, agreeing, difference.extra, difference.lacking)


@rule("token-mismatch", severity="warning", tags=("values",))
def token_mismatch(ctx: RuleContext) -> Iterator[Finding]:
    """Untranslatable tokens (versions, ids, inline code, URLs, paths) differ.

    Untranslatable tokens differ between aligned blocks or headings.

    Strong tokens must appear in every version exactly as in the reference: inline code, URLs
    and paths in running text (``/v1/chat/completions``), version strings and ids mixing
    letters and digits (``V4.1``, ``3.11.7``, ``SM100``, ``H200``, ``p99``, ``Apache-2.0``) and
    ``key=value`` settings (``nextn=3``).  ``V4`` where the others write ``V4.1``, or
    ``SM10`` for ``SM100``, is reported with both values.

    Product names (``DeepInfer``, ``vLLM``) and acronyms (``AWQ``) are reported only when a
    version writes a near variant instead (``Deepinfer``, ``TurboMlnd``) — translations may
    leave a repeated name out; a name with a case ending of up to three small letters (pl
    ``na GitHubie``, ``JavaScriptu``) is the same name.  Tokens are compared as sets per
    aligned block; a block that agrees as a whole is compared item by item too: in a list
    whose items every version has, each item with its counterpart, and in a table with as
    many rows in every version, each row, so a version changed in one item is reported at
    that item's line even when another item of the block states the same version.  A token
    the other version states elsewhere in the same aligned section (outside the block, for
    an item) is not reported missing.

    Inline code is compared by its form: outer quotes and an empty call do not count
    (`` `"gzip"` `` = ``gzip``, `` `fetch()` `` = ``fetch``), and placeholders are compared
    by kind and position, not by text, so a translated placeholder is no difference while a
    changed command around it is: ``{{branch_name}}`` = ``{{브랜치_이름}}``, ``<file>`` =
    ``<fichier>``, a bracketed word of capitals ``https://[YOUR-SITE]/graphql`` =
    ``https://[VOTRE-SITE]/graphql``, and in a command ``$VAR`` and a bracketed option form
    ``[-o|--output]``.  An example whose words a translation translated, keeping its other
    characters (``/pages/folder/index.astro`` = ``/pages/dossier/index.astro``,
    ``IMAGE_PATH`` = ``CAMINHO_IMAGEM``, ``<h1>Home Page</h1>`` = ``<h1>홈 페이지</h1>``), is no
    difference when each word it changed is one the version's own running text writes in
    small letters and the source's text does not (or a word of another script), and the word
    it replaced one of the source's text; a single word (`` `title` ``) is an identifier and
    stays compared.  A version written with a ``v`` is its number (``Astro v4.0`` = ``w
    wersji 4.0``), a lone tag its element (`` `<meta>` `` = `` `meta` ``), and a URL one
    version writes in its text is the same token as another's link to it. A string literal
    of prose inside inline code is translated with the page, as a code block's is (``{
    search: 'user input' }`` = ``{ search: 'ユーザーの入力内容' }``, ``alt="a helpful description"``
    = ``alt="une description utile"``); a string that is a value (``"/api/users"``,
    ``'nav.home'``) counts as written.  Inline code one version writes as plain prose (``«
    gzip »``, ``„rick“``, ``fetch()``, ``fastapi.security``, ``application/json``,
    ``define:vars``) counts as written.  URLs and paths are compared like link targets (see
    ``link-mismatch``: a language segment or subdomain is no difference).  See
    :mod:`parallelcheck.text.tokens` for the exact token forms.

    Severity by what differs: an **error** when a token written or lacking is a fact — a
    checksum, a version (``3.11.7``, ``V4.1``; not a plain decimal), a CVE or GHSA id, an
    issue id (``#123``) or a URL; a **warning** for any other token (inline code, a path, a
    product name).  A severity configured for the rule applies to all its findings.
    """
    article = ctx.article
    for found in compare_values(ctx, _TokenComparison(article, ctx.facts), _describe):
        yield found.with_severity(token_severity(found.evidence))
