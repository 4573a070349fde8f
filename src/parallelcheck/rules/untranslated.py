"""untranslated: a block left in another language, or copied from another version."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from itertools import chain, compress
from operator import itemgetter

from rapidfuzz.fuzz import ratio

from parallelcheck.facts import ArticleFacts
from parallelcheck.model.aligned import AlignedArticle, AlignedBlock, AlignedSection
from parallelcheck.model.document import Block, BlockKind
from parallelcheck.model.finding import Finding
from parallelcheck.rules._common import excerpt
from parallelcheck.rules._lines import counterpart_in
from parallelcheck.rules.base import RuleContext, rule
from parallelcheck.text.langtag import primary_language
from parallelcheck.text.lexicon import URL, NormalForms, might_hold_url
from parallelcheck.text.regexes import compile_pattern
from parallelcheck.text.script import (
    LATIN,
    WEIGHT,
    ScriptProfile,
    blank_code_spans,
    block_language,
    is_latin_language,
    language_name,
    language_scripts,
    reaching,
    surely_shares,
)

#: Running-text letters below which a block is too short to judge ("Note", "See also:"); a
#: list item or a table is often a list of terms, kept as they are on purpose, and needs more.
MIN_LETTERS = 12
MIN_LETTERS_TERMS = 30
#: A unit of a version written in a non-Latin script that has no letter of that script is
#: judged however short it is, once it has this many lower-case words of running text outside
#: code and URLs ("Restart the server" in a Korean list): capitalised words, numbers and code
#: alone ("Redis 7", "FastCache CLI") are names, kept as they are.
SCRIPTLESS_WORDS = 2
#: ... one of them this long: in a title written in title case ("Agent Skills for Astro and
#: CloudCannon") only short function words are in lower case.
SCRIPTLESS_LONG_WORD = 4
_OPENING = "([{\"'“‘«"
_CLOSING = ")]}\"'”’».,;:!?"
_CODE_LIKE = compile_pattern(r"[./:=()\[\]{}<>_@#$\\|*`]|[a-z][A-Z]")
_LOWER_WORD = compile_pattern(r"(?![A-Z])[^\W\d_]{2,}(?:[-'’][^\W\d_]+)*")
#: A block with fewer running-text letters than this whose characters are mostly code, names,
#: numbers and URLs has nothing much to translate.
MIXED_LETTERS = 40
UNTRANSLATABLE_SHARE = 0.7
#: rapidfuzz ratio (0–100) from which a block is the same text as the source's; between two
#: translations only the very same text (after normalising whitespace) counts.
IDENTICAL = 95
NEARBY = 20  # source units compared with an unpaired unit: this many either side
#: Running-text letters (capitalised words counted as names) a block needs for being the same
#: text as another version's to be reported.
IDENTICAL_LETTERS = 20
#: Confidence from which a block counts as clearly in its version's language: text near the
#: source's but not equal to it is then no copy.
AT_HOME = 0.9
EXACT = 99.5
#: A version in a non-Latin script: its own script's weighted share of the letters below which
#: the text is in the other script's language.  A single native word among English terms
#: ("authentication और authorization systems") is a translation that keeps terms in English.
OWN_SHARE = 0.03
#: Two languages sharing a script (English in a de version): py3langid's probability and the
#: running-text letters needed to trust it.
LATIN_CONFIDENCE = 0.98
LATIN_LETTERS = 40
#: py3langid is asked about a block in the version's own Latin script only when the block
#: shows signs of another language of the article: none of its own version's function words
#: (the most frequent short words of a version, far rarer in the others), or more of another
#: language's than of its own version's, or as many and at least 2; and about every block of
#: a version with fewer than 4 function words of its own (too short to tell, or not in its
#: language at all).
FUNCTION_WORDS = 60
FUNCTION_WORD_LENGTH = 6
#: ... each used at least this often in its version (in a short text every word is rare) ...
FUNCTION_WORD_USES = 3
#: ... and this many times as often as in the other languages' versions.
DISTINCTIVE = 4
FOREIGN_HITS = 2
#: A text kept alike by at least half of the versions, in three languages or more, is kept on
#: purpose (a product list, a login example).
KEPT_LANGUAGES = 3
#: Flagged items of one list reported as one finding from this many on, when they are at
#: least half of its items (a list left untranslated, not an item here and there).
GROUPED_ITEMS = 3

_QUOTED = compile_pattern(
    r"“([^“”\n]{2,}?)”|\"([^\"\n]{2,}?)\"|„([^“”\n]{2,}?)[“”]|«\s?([^«»\n]{2,}?)\s?»"
    r"|「([^「」\n]{2,}?)」|『([^『』\n]{2,}?)』|‘([^‘’\n]{2,}?)’"
)
#: Block kinds as module names: read per unit, and an enum member read from its class costs
#: ten times as much on Python 3.11.
_PARAGRAPH, _LIST, _ITEM, _TABLE, _ADMONITION = (
    BlockKind.PARAGRAPH,
    BlockKind.LIST,
    BlockKind.ITEM,
    BlockKind.TABLE,
    BlockKind.ADMONITION,
)
_TERMS = frozenset({BlockKind.ITEM, BlockKind.TABLE})  # units often lists of terms
_NOT_JUDGED = frozenset({BlockKind.CODE, BlockKind.HTML, BlockKind.QUOTE})
_NOT_COUNTED = frozenset({BlockKind.CODE, BlockKind.HTML})  # no running text for words
_QUOTE_MARK = compile_pattern('[“"„«「『‘]')  # what a quotation of _QUOTED starts with
_FROM_GREEK = reaching("\u0370")  # a character past the Latin script's


class _Unit:
    """One piece of a version's block judged on its own: a paragraph, a list item, a table.

    A plain class with slots rather than a dataclass: every unit of every version of every
    row is made once (tens of thousands per corpus)."""

    __slots__ = ("block", "code_spans", "key", "noun", "parent", "signs", "text")

    def __init__(
        self,
        block: Block,
        text: str,
        code_spans: list[str],
        noun: str,
        parent: Block,
        normal_forms: NormalForms,
    ):
        self.block = block
        self.text = text
        self.code_spans = code_spans
        self.noun = noun
        self.parent = parent
        #: The text in NFKC with whitespace collapsed, for comparing (from the normal form
        #: the article's facts keep: alignment and the token rules read it too).
        self.key = _comparable(normal_forms[text])
        #: Whether the unit shows signs of another language (see :class:`_ForeignSigns`),
        #: once asked: the shortcut and the full judgement both ask.
        self.signs: bool | None = None

    @property
    def terms(self) -> bool:
        return self.block.kind in _TERMS


def _comparable(normal: str) -> str:
    """A text in normal form (:func:`~parallelcheck.text.lexicon.normalise`'s, NFKC) with its
    white space collapsed (each run one space, none at either end): the form units are
    compared in.  Every white space character but the ASCII space is a separator or a
    control, which ``str.isprintable`` rejects, so a printable normal form without two spaces
    in a row or one at either end is its own collapsed form (most units' are): it is not
    split into words and joined again."""
    if normal.isprintable() and "  " not in normal and normal[:1] != " " and normal[-1:] != " ":
        return normal
    return " ".join(normal.split())


def _units(block: Block, forms: NormalForms, inside: str = "") -> list[_Unit]:
    """The judged pieces of a block: code, HTML and quotations are never judged (nor the code
    nested in a list item); a list is judged item by item, an admonition by its body (not its
    title).  *forms* are the article's normal forms (its facts')."""
    kind = block.kind
    if kind is _PARAGRAPH and not inside:  # the commonest
        return [_Unit(block, block.text, block.all_code_spans(), "paragraph", block, forms)]
    if kind in _NOT_JUDGED:
        return []
    if kind is _LIST:
        found = []
        for child in block.children:
            if child.kind is _ITEM:
                # code nested in an item is code, not the item's prose (a tight item, the
                # commonest, nests nothing: its prose is its text)
                text = child.prose_text() if child.children else child.text
                spans = child.all_code_spans()
                found.append(_Unit(child, text, spans, "list item", block, forms))
            else:
                found.extend(_units(child, forms))
        return found
    if kind is _ADMONITION:
        found = []
        for child in block.children:
            for unit in _units(child, forms, inside=block.info or "admonition"):
                unit.parent = block
                found.append(unit)
        return found
    if kind is _TABLE:
        cells = [cell for row in block.rows for cell in row]
        return [_Unit(block, "\t".join(cells), block.all_code_spans(), "table", block, forms)]
    noun = "list item" if kind is _ITEM else kind.value
    if inside:
        noun = f"{noun} in the {inside} box"
    return [_Unit(block, block.text, block.all_code_spans(), noun, block, forms)]


# ---------------------------------------------------------------------------
# Judging one unit


@dataclass
class _Verdict:
    """What a unit's text says about its language."""

    profile: ScriptProfile
    excused: bool
    language: str = "und"
    confidence: float = 0.0
    foreign: bool = False
    #: Judged only for having no letter of its version's own script: a short unit (a term,
    #: a label), reported as a warning.
    short: bool = False

    def at_home(self, lang: str) -> bool:
        """Whether the unit is clearly in *lang*'s language."""
        return self.language == primary_language(lang) and self.confidence >= AT_HOME


#: A unit flagged: its verdict, the versions it is a copy of, and its similarity to them.
_Flagged = tuple[_Unit, _Verdict, list[str], float]


def _judge(
    facts: ArticleFacts,
    unit: _Unit,
    lang: str,
    langs: Sequence[str],
    others: Callable[[], Sequence[str]],
    signs: Callable[[_Unit, str], bool],
    named: bool = True,
) -> _Verdict:
    """Judge the language of a unit of version *lang*: ``foreign`` when it is clearly not
    *lang*'s language; ``excused`` when too short or mostly untranslatable to say.

    With *named* false the caller needs only ``foreign``: a Latin-script unit of a
    Latin-script version too short for py3langid's guess to be trusted is then not put to
    it (``language`` stays ``und``)."""
    capitalised = not is_latin_language(lang)
    text, code_spans = unit.text, unit.code_spans
    if unit.block.kind is _TABLE:
        profile = _table_profile(facts, unit, capitalised)
        code_spans = []
    elif not _QUOTE_MARK.search(text):  # the common case: the same profile, shared by rules
        profile = facts.script_profile(text, code_spans, capitalised_are_names=capitalised)
    else:
        text, in_code = blank_code_spans(text, code_spans)
        text, quoted = _drop_shared_quotes(text, others)
        code_spans = []
        profile = facts.script_profile(text, capitalised_are_names=capitalised)
        profile = ScriptProfile(profile.letters, profile.untranslatable + in_code + quoted)
    short = _excused(profile, unit)
    if short and not _lacks_own_script(profile, unit, lang):
        return _Verdict(profile, True)
    own_script = profile.dominant == LATIN and is_latin_language(lang)
    if own_script and not named and profile.total_letters < LATIN_LETTERS:
        return _Verdict(profile, False)  # a guess between Latin-script languages not trusted
    statistical = not own_script or signs(unit, lang)
    running, _ = facts.running_text(text, code_spans)  # what the identifier reads

    def language(name_foreign: bool) -> tuple[str, float]:
        return block_language(
            text,
            lang,
            languages=langs,
            code_spans=code_spans,
            profile=profile,
            statistical=statistical,
            name_foreign=name_foreign,
            running=running,
            identifier=facts.identify,
        )

    guess, confidence = language(name_foreign=False)
    verdict = _Verdict(profile, False, guess, confidence, short=short)
    if guess == "und" or guess == primary_language(lang):
        return verdict
    own = language_scripts(lang)
    if language_scripts(guess) == own or (own == (LATIN,) and is_latin_language(guess)):
        # Told apart by a statistical guess only: trust it when it is sure and has text.
        if confidence < LATIN_CONFIDENCE or profile.total_letters < LATIN_LETTERS:
            return verdict
    elif profile.share(own) >= OWN_SHARE:
        return verdict
    verdict.foreign = True
    verdict.language, verdict.confidence = language(name_foreign=True)  # for the message
    return verdict


def _clearly_at_home(
    facts: ArticleFacts, unit: _Unit, lang: str, signs: Callable[[_Unit, str], bool]
) -> bool:
    """Whether :func:`_judge` would certainly not call a unit of version *lang* foreign,
    told from the letters of its text without setting aside names and numbers (which only
    ever removes Latin letters):

    * in a version written in a non-Latin script, its own script's letters outside inline
      code and outside whatever else the judgement may set aside (:func:`_kept_for_sure`:
      quotations, URLs, e-mail addresses) are :data:`OWN_SHARE` of all the letters outside
      inline code — the judgement's own share can only be larger;
    * in a Latin-script version, the text has no letters of another script, and shows no
      sign of another Latin-script language of the article or has fewer than
      :data:`LATIN_LETTERS` letters (its running text, a part of it, has no more); a text
      of fewer characters than that has fewer letters, and is not looked at for signs.
    """
    if unit.block.kind is _TABLE:
        return False
    if is_latin_language(lang):
        text = unit.text
        if not text.isascii() and _FROM_GREEK.search(text):  # maybe letters of other scripts
            letters = facts.letters(text)
            if letters and (len(letters) > 1 or LATIN not in letters):
                return False
        # too few letters for a guess between Latin-script languages to be trusted: a text
        # shorter than that has no more letters (one per character at most), signs or not
        if len(text) < LATIN_LETTERS:
            return True
        return not signs(unit, lang) or sum(facts.letters(text).values()) < LATIN_LETTERS
    text = unit.text
    if unit.code_spans:
        text, _ = blank_code_spans(text, unit.code_spans)
    own = language_scripts(lang)
    kept = _kept_for_sure(text)
    # Most units: the own script's letters kept far above the share of all the letters,
    # told without counting the others (twice the share: no rounding of the division below
    # can matter).
    if surely_shares(kept, own, 2 * OWN_SHARE, among=text):
        return True
    total = in_own = 0.0  # weighted letters: whole numbers, so every sum is exact
    for script, count in facts.letters(text).items():
        weighted = count * WEIGHT.get(script, 1.0)
        total += weighted
        if script in own:
            in_own += weighted
    if kept is not text:  # the own letters that stay, whatever the judgement sets aside
        in_own = sum(
            count * WEIGHT.get(script, 1.0)
            for script, count in facts.letters(kept).items()
            if script in own
        )
    return bool(total) and in_own / total >= OWN_SHARE


#: A run of text without white space.
_RUN = compile_pattern(r"\S+")
#: What a URL or an e-mail address holds (:data:`~parallelcheck.text.lexicon.URL` ignores case).
_ADDRESS_MARK = compile_pattern(r"://|@|[wW]{3}\.")


def _kept_for_sure(text: str) -> str:
    """*text* less everything the judgement of a unit may set aside besides names and
    numbers (which hold Latin letters only): every quotation :data:`_QUOTED` finds, whether
    another version quotes it or not, and every run without white space that holds ``://``,
    ``www.`` (in any case) or ``@`` — :data:`~parallelcheck.text.lexicon.URL` and
    :data:`~parallelcheck.text.lexicon.EMAIL` match within such a run, wherever quotations
    were blanked before them.  The letters of other scripts left here are kept by the
    judgement too."""
    quoted = _QUOTE_MARK.search(text)
    # plain searches first (a pattern's scan costs more): a URL's, then an address's mark
    addressed = (might_hold_url(text) or "@" in text) and _ADDRESS_MARK.search(text)
    if not quoted and not addressed:
        return text
    spans: list[tuple[int, int]] = []
    if quoted:
        spans.extend(match.span() for match in _QUOTED.finditer(text))
    if addressed:
        spans.extend(
            match.span() for match in _RUN.finditer(text) if _ADDRESS_MARK.search(match.group())
        )
    if not spans:
        return text
    pieces: list[str] = []
    at = 0
    for start, end in sorted(spans):
        if start > at:
            pieces.append(text[at:start])
        at = max(at, end)
    pieces.append(text[at:])
    return " ".join(pieces)


def _excused(profile: ScriptProfile, unit: _Unit) -> bool:
    """Whether a unit is too short, or too much code and names, to judge by its letters."""
    letters = profile.total_letters
    if letters < (MIN_LETTERS_TERMS if unit.terms else MIN_LETTERS):
        return True
    return letters < MIXED_LETTERS and profile.untranslatable_share >= UNTRANSLATABLE_SHARE


def _lacks_own_script(profile: ScriptProfile, unit: _Unit, lang: str) -> bool:
    """Whether a unit of version *lang*, a language written in a non-Latin script, has no
    letter of that script but running text in another (:func:`_running_words`)."""
    own = language_scripts(lang)
    if own == (LATIN,) or not profile.total_letters or profile.share(own) > 0:
        return False
    text, _ = blank_code_spans(unit.text, unit.code_spans)
    words, code = _running_words(URL.sub(" ", text))
    return (
        len(words) >= SCRIPTLESS_WORDS
        and max(map(len, words)) >= SCRIPTLESS_LONG_WORD
        and len(words) > code
    )


def _running_words(text: str) -> tuple[list[str], int]:
    """The lower-case words of *text* and the count of its code-like pieces (a file name, a
    path, ``key: value``, ``camelCase``): a text of more code than words is a file tree or a
    signature, not prose.  Capitalised words are names in a version of a non-Latin script."""
    words: list[str] = []
    code = 0
    for chunk in text.split():
        bare = chunk.lstrip(_OPENING).rstrip(_CLOSING)
        if not bare:
            continue
        if _CODE_LIKE.search(bare):
            code += 1
        elif _LOWER_WORD.fullmatch(bare):
            words.append(bare)
    return words, code


def _drop_shared_quotes(text: str, others: Callable[[], Sequence[str]]) -> tuple[str, int]:
    """Blank quotations that another version quotes verbatim too (a cited sentence, a UI
    string): they are kept on purpose.  Returns the text and the characters blanked."""
    if not _QUOTED.search(text):
        return text, 0
    removed = 0

    def blank(match: re.Match[str]) -> str:
        nonlocal removed
        quoted = next(g for g in match.groups() if g is not None).strip()
        if any(quoted in other for other in others()):
            removed += len(quoted)
            return " "
        return match.group()

    return _QUOTED.sub(blank, text), removed


def _table_profile(facts: ArticleFacts, unit: _Unit, capitalised: bool) -> ScriptProfile:
    """A table's cells: a cell that is one Latin-script word (``str``, ``GET``, ``None``) is an
    identifier."""
    words: list[str] = []
    identifiers = 0
    for row in unit.block.rows:
        for cell in row:
            cell = cell.strip()
            if cell and len(cell.split()) == 1 and cell.isascii():
                identifiers += len(cell)
            else:
                words.append(cell)
    profile = facts.script_profile(
        "\n".join(words), unit.code_spans, capitalised_are_names=capitalised
    )
    return ScriptProfile(profile.letters, profile.untranslatable + identifiers)


def _worth_comparing(facts: ArticleFacts, unit: _Unit) -> bool:
    """Whether a unit has enough running text for its being identical to another version's to
    matter.  Capitalised words count as names here in every language (``Docker in Swarm
    Mode``, ``Dependency Injection System`` are kept as they are by many translators)."""
    if unit.block.kind is _TABLE:
        profile = _table_profile(facts, unit, True)
    else:
        profile = facts.script_profile(unit.text, unit.code_spans, capitalised_are_names=True)
    return profile.total_letters >= IDENTICAL_LETTERS and not _excused(profile, unit)


def _in_own_language(facts: ArticleFacts, unit: _Unit, lang: str, langs: Sequence[str]) -> bool:
    """Whether a unit of version *lang* is in *lang*'s language as :func:`block_language`
    guesses it among the article's *langs*.

    Text in another script than *lang*'s is not in *lang*'s language whichever language of
    that script it is, so it is not put to the statistical identifier only to be named
    (unless *lang*'s tag names another script than its primary language's: ``sr-Latn``)."""
    guess, _ = block_language(
        unit.text,
        lang,
        languages=langs,
        code_spans=unit.code_spans,
        profile=facts.script_profile(
            unit.text, unit.code_spans, capitalised_are_names=not is_latin_language(lang)
        ),
        name_foreign=language_scripts(primary_language(lang)) != language_scripts(lang),
        running=facts.running_text(unit.text, unit.code_spans)[0],
        identifier=facts.identify,
    )
    return guess == primary_language(lang)


def _same(a: str, b: str) -> float:
    """Similarity 0–100 of two normalised texts (0 when their lengths alone rule it out)."""
    shorter, longer = len(a), len(b)
    if shorter > longer:
        shorter, longer = longer, shorter
    if not shorter or shorter < 0.9 * longer:
        return 0.0
    return ratio(a, b, score_cutoff=IDENTICAL)


# ---------------------------------------------------------------------------
# The rule


@rule("untranslated", severity="error", tags=("language",), needs=("langid",))
def untranslated(ctx: RuleContext) -> Iterator[Finding]:
    """A block is in another language than its version's, or identical to another version's.

    A block of a translation is not in that translation's language, or is the very text of
    a version in another language.

    Each paragraph, list item, table and admonition body of every version but the source is
    judged on its own:

    * **Wrong language** — the language is decided from the script first (Hangul is Korean,
      Kana Japanese, Han without Kana Chinese, Cyrillic Russian …): a version written in a
      non-Latin script is in another language when its own script has less than 3 % of the
      (weighted) letters of running text.  When the block is in the version's own Latin
      script, py3langid decides, restricted to the article's languages; it is asked only
      when the block shows signs of another of them (none of its own version's function
      words — its most frequent short words, used at least 3 times and 4 times as often there
      as in the other languages' versions — or more of another version's than of its own;
      every block of a version with fewer than 4 function words of its own) and trusted when
      it is sure (probability ≥ 0.98) and the block has at least 40 letters of running text.
      A block that is the source's very text is in the source's language.
    * **Same text** — the block is identical or nearly identical (rapidfuzz ratio ≥ 95 after
      collapsing whitespace) to the source's aligned block, or the very same text as another
      translation's block that is in that translation's language.  Versions that share a
      language (``en`` and ``en-GB``, ``zh-Hans`` and ``zh-Hant``) may be identical; a block
      clearly in its own language (probability ≥ 0.9) is not near-identical by accident.

    Not judged, as translators keep them on purpose: code blocks, HTML blocks, quotations
    (quote blocks, and text in quotation marks that another version quotes verbatim),
    admonition titles, blocks with fewer than 12 letters of running text (list items and
    tables: 30), blocks with fewer than 40 whose characters are at least 70 % inline code,
    URLs, numbers and names (``CamelCase``, ``ALLCAPS``, words with digits; in a non-Latin
    version also capitalised words), table cells of one word (identifiers), and a text that
    at least half of the versions, in three languages or more, have alike (a list of product
    names every version keeps).  Being the same text as another version needs 20 letters of
    running text, capitalised words not counted.

    **Judged by script first:** in a version whose language is written in a non-Latin script
    (ja, ko, zh, ru, ar, hi …), a unit with no letter of that script is judged however short
    it is, once it has two lower-case words of running text outside code and URLs, one of
    them four letters or more, and more such words than code-like pieces (file names, paths,
    ``key: value``, ``camelCase``): ``Restart the server`` in a Korean list is in English,
    while ``Redis 7``, ``FastCache CLI``, a title in title case and a file tree are names and
    code.  Such a unit, shorter than the limits above, is a **warning** (a term or a label
    left in English); a longer one stays an error.

    A list whose items are all reported is one finding, at the list.  So are the reported
    items of a list when they are 3 or more and at least half of its items (a list left
    untranslated but for a few names): one finding at the first, naming how many of its
    items, the first and the last, with every item's line in the evidence (``items``); an
    error when any one item alone would be.  One or two items of a list are reported each
    at its own line.

    Example: ``paragraph “DeepInfer and LMDeploy are both optimized…” in ja is in English
    (looks identical to en's)``.
    """
    article = ctx.article
    signs = _ForeignSigns(article, ctx.facts)
    primaries = {lang: primary_language(lang) for lang in article.langs}
    for section in article.sections:
        for row in section.rows:
            yield from _Row(ctx, section, row, signs, primaries).findings()


class _ForeignSigns:
    """Function words of each Latin-script version, learned from the article itself, to tell
    cheaply which blocks py3langid should look at."""

    def __init__(self, article: AlignedArticle, facts: ArticleFacts):
        self.article = article
        self.facts = facts
        self._words: dict[str, frozenset[str]] | None = None
        #: word → the versions it is a function word of (one look-up per word of a unit).
        self._index: dict[str, tuple[str, ...]] = {}
        #: version → whether its own function words can tell (else every unit shows signs),
        #: and the versions of another primary language it is weighed against.
        self._rivals: dict[str, tuple[bool, tuple[str, ...]]] = {}

    def words(self) -> dict[str, frozenset[str]]:
        """Per Latin-script version: its most frequent short words that are used at least
        :data:`FUNCTION_WORD_USES` times and are at least :data:`DISTINCTIVE` times as
        frequent there as in every other language's version (a few words of a pasted
        paragraph do not make ``the`` a German word)."""
        if self._words is None:
            # every short word, in the order of the text (the longer ones are no function
            # words, and count neither in a word's share nor in its rank)
            counts: dict[str, Counter[str]] = {}
            totals: dict[str, int] = {}  # the uses of its short words
            for lang in self.article.langs:
                if not is_latin_language(lang):
                    continue
                every = counts[lang] = Counter(
                    chain.from_iterable(
                        self._block_words(block)
                        for block in self.article.documents[lang].iter_blocks()
                        if block.kind not in _NOT_COUNTED
                    )
                )
                totals[lang] = max(sum(every.values()), 1)
            self._words = {}
            for lang, every in counts.items():
                rivals = [
                    (counts[o].get, totals[o])
                    for o in counts
                    if primary_language(o) != primary_language(lang)
                ]
                self._words[lang] = frozenset(
                    word
                    for word, count in _most_frequent_short(every)
                    if all(
                        count / totals[lang] >= DISTINCTIVE * rival(word, 0) / total
                        for rival, total in rivals
                    )
                )
            index: dict[str, list[str]] = {}
            for lang, words in self._words.items():
                for word in words:
                    index.setdefault(word, []).append(lang)
            self._index = {word: tuple(langs) for word, langs in index.items()}
        return self._words

    def _block_words(self, block: Block) -> list[str]:
        """A top-level block's short words, read piece by piece (:func:`_pieces`): the
        pieces are the texts its units are weighed by, so each unit's words are read once."""
        pieces = _pieces(block)
        if len(pieces) == 1:
            return self._short_words(pieces[0])
        return [word for piece in pieces for word in self._short_words(piece)]

    def _short_words(self, text: str) -> list[str]:
        """The words of *text* a function word may be (of at most
        :data:`FUNCTION_WORD_LENGTH` letters), read once per article."""
        return self.facts.short_words(text, FUNCTION_WORD_LENGTH)

    def __call__(self, unit: _Unit, lang: str) -> bool:
        """Whether *unit* of version *lang* shows signs of another language of the article."""
        if unit.signs is None:
            unit.signs = self._shows_signs(unit, lang)
        return unit.signs

    def _rivals_of(self, lang: str) -> tuple[bool, tuple[str, ...]]:
        """Whether *lang* has enough distinctive words of its own to tell, and the versions
        of another primary language (in the order of :meth:`words`), worked out once."""
        found = self._rivals.get(lang)
        if found is None:
            table = self.words()
            own = table.get(lang, frozenset())
            telling = len(own) >= FOREIGN_HITS * 2
            primary = primary_language(lang)
            others = tuple(other for other in table if primary_language(other) != primary)
            found = self._rivals[lang] = (telling, others)
        return found

    def _shows_signs(self, unit: _Unit, lang: str) -> bool:
        telling, others = self._rivals_of(lang)
        if not telling:
            return True  # no distinctive words of its own: the version may be all foreign
        hits = self._holders_of_words(unit.text)
        own_hits = hits.count(lang)
        if not own_hits:
            return True  # running text in a language uses its function words
        for other in others:
            found = hits.count(other)
            if found > own_hits or (found >= FOREIGN_HITS and found == own_hits):
                return True
        return False

    def _holders_of_words(self, text: str) -> list[str]:
        """The versions each word of *text* is a function word of, one entry per word and
        version: a version's hits are how often it occurs here.  Gathered by iterators that
        run in C (most words of a unit are no function word of any version, and a version
        holds a word at most once), so that only the few versions are counted in Python."""
        found = map(self._index.get, self._short_words(text))
        return list(chain.from_iterable(filter(None, found)))


_SPLIT = frozenset({BlockKind.LIST, BlockKind.ADMONITION})  # containers read by piece


def _pieces(block: Block) -> list[str]:
    """*block*'s text as the pieces its units are: a list's or an admonition's text is its
    own text (an admonition's title), then each child's, one per line, and is taken apart
    into those pieces (a nested list or admonition further; an item whole); any other text
    stays whole.  The words of the pieces in turn are the text's
    (:func:`~parallelcheck.text.lexicon.lower_words`: a line break ends every word), and
    the texts of the units within are among them: every paragraph of an admonition was
    read a second time, as a unit (1,397 texts, 163,000 characters of every third FastAPI
    article), when the admonition was read whole."""
    children = block.children
    if not children or block.kind not in _SPLIT:
        return [block.text]
    text, tail = block.text, "\n".join(child.text for child in children)
    if text == tail:
        pieces = []
    elif text.endswith("\n" + tail):
        pieces = [text[: len(text) - len(tail) - 1]]
    else:
        return [text]
    for child in children:
        pieces.extend(_pieces(child))
    return pieces


def _most_frequent_short(counts: Counter[str]) -> list[tuple[str, int]]:
    """The :data:`FUNCTION_WORDS` most frequent words of *counts* of at most
    :data:`FUNCTION_WORD_LENGTH` letters, less those used fewer than
    :data:`FUNCTION_WORD_USES` times — ``Counter.most_common``'s ranking of the short words
    (ties in the counts' order) less the rarely used ones, which rank below every other: so
    only the words used that often are looked at one by one."""
    frequent = compress(counts.items(), map(FUNCTION_WORD_USES.__le__, counts.values()))
    short = [(word, count) for word, count in frequent if len(word) <= FUNCTION_WORD_LENGTH]
    return sorted(short, key=itemgetter(1), reverse=True)[:FUNCTION_WORDS]


class _Row:
    """One aligned row: every version's units, and what each translation's units are."""

    def __init__(
        self,
        ctx: RuleContext,
        section: AlignedSection,
        row: AlignedBlock,
        signs: Callable[[_Unit, str], bool],
        primaries: dict[str, str],
    ):
        self.ctx = ctx
        self.article = article = ctx.article
        self.signs = signs
        #: Each version's primary language subtag (``zh-Hant`` → ``zh``), worked out once.
        self.primaries = primaries
        self.section = section
        self.row = row
        self.present = [lang for lang in article.langs if row.cells.get(lang) is not None]
        self.units: dict[str, list[_Unit]] = {}
        #: The versions with a unit of each text (compared form).
        self.holders: dict[str, set[str]] = {}
        holders = self.holders
        forms = ctx.facts.normal_forms
        for lang in self.present:
            found = _units(row.cells[lang], forms)  # type: ignore[arg-type]
            for extra in row.extra.get(lang, ()):
                found.extend(_units(extra, forms))
            for unit in found:
                holding = holders.get(unit.key)
                if holding is None:  # most texts: no empty set made for each unit
                    holders[unit.key] = {lang}
                else:
                    holding.add(lang)
            self.units[lang] = found
        self._at_home: dict[int, bool] = {}
        self._by_key: dict[str, dict[str, _Unit]] = {}
        self._index: dict[str, dict[int, int]] = {}
        self._other_texts: dict[str, list[str]] = {}

    def kept_on_purpose(self, key: str) -> bool:
        holders = self.holders.get(key, ())
        if len(holders) < KEPT_LANGUAGES:
            return False  # too few versions to be in three languages
        languages = {self.primaries[lang] for lang in holders}
        return len(languages) >= KEPT_LANGUAGES and 2 * len(holders) >= len(self.present)

    def source_unit(self, lang: str, index: int) -> _Unit | None:
        source = self.units.get(self.article.source)
        if not source:
            return None
        if len(source) == len(self.units[lang]):
            return source[index]
        return None

    def other_texts(self, lang: str) -> list[str]:
        """The other versions' unit texts, gathered once per version and only when asked for
        (to tell the quotations a version shares with another)."""
        texts = self._other_texts.get(lang)
        if texts is None:
            texts = self._other_texts[lang] = [
                u.text for other in self.present if other != lang for u in self.units[other]
            ]
        return texts

    def findings(self) -> Iterator[Finding]:
        source = self.article.source
        source_units = self.units.get(source)
        holders = self.holders
        facts = self.ctx.facts
        for lang in self.present:
            if lang == source:
                continue
            units = self.units[lang]
            # The source's units pair with this version's when they are as many.
            paired = source_units if source_units and len(source_units) == len(units) else None
            primary = self.primaries[lang]
            against_source = source_units is not None and self.primaries[source] != primary
            flagged: list[_Flagged] = []
            for index, unit in enumerate(units):
                key = unit.key
                if not key:
                    continue
                holding = holders[key]
                if len(holding) >= KEPT_LANGUAGES and self.kept_on_purpose(key):
                    continue
                score = 0.0
                if against_source:
                    score = self.source_score(unit, paired, index)
                identical: list[str] = []
                similarity = 0.0
                # a copy: near the source's text or another version's very text, and with
                # running text enough to matter (the other versions are judged only then)
                if (score >= IDENTICAL or len(holding) > 1) and _worth_comparing(facts, unit):
                    identical, similarity = self.identical(unit, lang, score, primary, holding)
                if not identical and _clearly_at_home(facts, unit, lang, self.signs):
                    continue  # the common case, decided without the full judgement
                verdict = _judge(
                    facts,
                    unit,
                    lang,
                    self.article.langs,
                    partial(self.other_texts, lang),
                    self.signs,
                    named=bool(identical),
                )
                if identical and similarity < EXACT and verdict.at_home(lang):
                    identical, similarity = [], 0.0
                if verdict.foreign or identical:
                    flagged.append((unit, verdict, identical, similarity))
            if flagged:  # seldom: no generator made for every version of every row
                yield from self.report(lang, flagged)

    def source_score(self, unit: _Unit, paired: list[_Unit] | None, index: int) -> float:
        """The similarity of *unit*, the *index*-th of its version's, to the source's unit
        paired with it (*paired*: the source's units, when they pair with its version's), or
        without one to the best of the source's units near the same place (a window keeps
        this linear in the number of units; a 20,000-item list stays fast)."""
        if paired is not None:  # the common case: one candidate, no generator
            return _same(unit.key, paired[index].key)
        candidates = self.units[self.article.source][max(0, index - NEARBY) : index + NEARBY + 1]
        return max((_same(unit.key, c.key) for c in candidates), default=0.0)

    def identical(
        self, unit: _Unit, lang: str, score: float, primary: str, holding: set[str]
    ) -> tuple[list[str], float]:
        """The versions in another language with the same text, and the best similarity.

        Against the source, near-identical text counts (*score*: :meth:`source_score`, when
        the source is in another language than *lang*, whose *primary* language subtag is
        given); against another translation only the very same text (*holding*: the
        versions with a unit of the same text), and only when that translation's unit is in
        its own language (two translations that both kept the English text copy the source,
        not each other; es and pt share many sentences almost letter for letter).
        """
        source = self.article.source
        found: list[str] = []
        best = 0.0
        if score >= IDENTICAL:
            found.append(source)
            best = score
        if len(holding) < 2:
            return found, best  # only this version has the text
        for other in sorted(holding, key=self.present.index):
            if other in (lang, source) or self.primaries[other] == primary:
                continue
            if self.at_home(other, unit.key):
                found.append(other)
                best = 100.0
        return found, best

    def first_with_key(self, lang: str, key: str) -> _Unit | None:
        """``lang``'s first unit with this key (a table made once per version and row)."""
        by_key = self._by_key.get(lang)
        if by_key is None:
            by_key = self._by_key[lang] = {}
            for candidate in self.units[lang]:
                by_key.setdefault(candidate.key, candidate)
        return by_key.get(key)

    def index_of(self, lang: str, unit: _Unit) -> int | None:
        """Where ``unit`` stands among ``lang``'s units (a table made once per version and
        row, so that reporting every item of a long list stays linear)."""
        index = self._index.get(lang)
        if index is None:
            index = self._index[lang] = {id(u): i for i, u in enumerate(self.units[lang])}
        return index.get(id(unit))

    def at_home(self, lang: str, key: str) -> bool:
        """Whether ``lang``'s (first) unit with this key is in ``lang``'s own language."""
        unit = self.first_with_key(lang, key)
        if unit is None:
            return False
        if id(unit) not in self._at_home:
            self._at_home[id(unit)] = _in_own_language(
                self.ctx.facts, unit, lang, self.article.langs
            )
        return self._at_home[id(unit)]

    def report(self, lang: str, flagged: list[_Flagged]) -> Iterator[Finding]:
        parent = flagged[0][0].parent
        sizes = Counter(id(u.parent) for u in self.units[lang])  # units of each container
        whole = (
            len(flagged) > 1
            and parent.kind is _LIST
            and all(unit.parent is parent for unit, *_ in flagged)
            and len(flagged) == sizes[id(parent)]
        )
        if whole:
            unit, verdict, identical, similarity = flagged[0]
            said = f"list ({len(flagged)} items) “{excerpt(parent.text)}” in {lang}"
            yield self.finding(lang, parent.line, said, verdict, identical, similarity)
            return
        groups = _item_groups(flagged, sizes)
        for unit, verdict, identical, similarity in flagged:
            group = groups.get(id(unit.parent))
            if group is None:
                said = f"{unit.noun} “{excerpt(unit.text)}” in {lang}"
                yield self.finding(
                    lang, unit.block.line, said, verdict, identical, similarity, unit
                )
            elif group[0][0] is unit:
                yield self.group_finding(lang, group, sizes[id(unit.parent)])

    def group_finding(self, lang: str, group: list[_Flagged], items: int) -> Finding:
        """One finding for the flagged items of one list of *items* items
        (:func:`_item_groups`), at the first: the language most of them are in, the versions
        all of them are copies of, an error when any one alone would be, and every item's
        line in the evidence."""
        first, last = group[0][0], group[-1][0]
        verdicts = [verdict for _, verdict, _, _ in group]
        languages = Counter(v.language for v in verdicts if v.foreign)
        common = languages.most_common(1)[0][0] if languages else None
        verdict = next((v for v in verdicts if v.foreign and v.language == common), verdicts[0])
        identical = [other for other in group[0][2] if all(other in entry[2] for entry in group)]
        similarity = min(entry[3] for entry in group) if identical else 0.0
        said = (
            f"{len(group)} of the {items} items of a list in {lang}, from "
            f"“{excerpt(first.text, 40)}” to “{excerpt(last.text, 40)}”,"
        )
        error = any(not (v.foreign and v.short and not ident) for _, v, ident, _ in group)
        return self.finding(
            lang,
            first.block.line,
            said,
            verdict,
            identical,
            similarity,
            first,
            plural=True,
            severity="error" if error else "warning",
            items=[unit.block.line for unit, *_ in group],
        )

    def finding(
        self,
        lang: str,
        line: int,
        said: str,
        verdict: _Verdict,
        identical: list[str],
        similarity: float,
        unit: _Unit | None = None,
        *,
        plural: bool = False,
        severity: str | None = None,
        items: list[int] | None = None,
    ) -> Finding:
        """The finding for ``said`` (what is reported, ``plural``: several items of a list)
        of version ``lang`` at ``line``; ``severity`` replaces the verdict's; ``items`` are
        the lines of the items a finding of several reports."""
        language = verdict.language if verdict.foreign else None
        if language is None and self.article.source in identical:
            language = primary_language(self.article.source)  # the source's very text
        verb = "are" if plural else "is"
        if language is not None:
            message = f"{said} {verb} in {language_name(language)}"
            if identical:
                looks = "they look" if plural else "looks"
                message += f" ({looks} identical to {_possessive(identical)})"
        else:
            message = f"{said} {verb} the same text as {_possessive(identical)} (not translated)"
        references = identical or self.reference(lang)
        lines = {lang: line}
        for other in references:
            if self.row.cells.get(other) is not None:
                lines[other] = self.counterpart_line(lang, line, unit, other)
        evidence: dict = {}
        if verdict.foreign:
            evidence["language"] = verdict.language
            evidence["confidence"] = round(verdict.confidence, 3)
        if identical:
            evidence["identical_to"] = list(identical)
            evidence["similarity"] = round(similarity, 1)
        if items is not None:
            evidence["items"] = items
        if severity is None:
            severity = "warning" if verdict.foreign and verdict.short and not identical else None
        return self.ctx.finding(
            self.section, [lang], references, lines, message, evidence, self.row, severity
        )

    def counterpart_line(self, lang: str, line: int, unit: _Unit | None, other: str) -> int:
        """Where in version ``other`` the unit of ``lang`` at ``line`` belongs: the source's
        unit paired with it, the unit of ``other`` with the same text, else the same item or
        row of the aligned block (:func:`~parallelcheck.rules._lines.counterpart_in`)."""
        row = self.row
        theirs = row.cells[other]
        assert theirs is not None
        if unit is not None:
            index = self.index_of(lang, unit)
            paired = self.source_unit(lang, index) if index is not None else None
            if other == self.article.source and paired is not None:
                return paired.block.line
            same = self.first_with_key(other, unit.key)
            if same is not None:
                return same.block.line
        ours = [row.cells[lang], *row.extra.get(lang, [])]
        return counterpart_in(ours, line, [theirs, *row.extra.get(other, [])], theirs.line)

    def reference(self, lang: str) -> list[str]:
        source = self.article.source
        if source != lang and self.row.cells.get(source) is not None:
            return [source]
        return [other for other in self.present if other != lang]


def _item_groups(flagged: list[_Flagged], sizes: Counter[int]) -> dict[int, list[_Flagged]]:
    """The flagged items of a version reported together, by their list (its ``id``; *sizes*:
    the units of each): those of a list with :data:`GROUPED_ITEMS` flagged items or more, at
    least half of its items (a list left untranslated but for a few names, not a stray
    item)."""
    by_list: dict[int, list[_Flagged]] = {}
    for entry in flagged:
        parent = entry[0].parent
        if parent.kind is _LIST and entry[0].noun == "list item":
            by_list.setdefault(id(parent), []).append(entry)
    return {
        key: entries
        for key, entries in by_list.items()
        if len(entries) >= GROUPED_ITEMS and 2 * len(entries) >= sizes[key]
    }


def _possessive(langs: Sequence[str]) -> str:
    return ", ".join(f"{lang}'s" for lang in langs)
