"""Facts about an article's blocks and headings, computed once when a rule first asks.

An :class:`ArticleFacts` lives for one article's check: the engine makes it after alignment
and hands it to every rule in its :class:`~parallelcheck.rules.base.RuleContext`, so two rules
asking for the same fact of the same block share one computation, whichever runs first, and
nothing outlives the article.  Rules read these facts here and never compute them themselves.

Each fact has its own method, typed:

* :meth:`~ArticleFacts.numbers` — the numbers a block or heading states
  (:mod:`parallelcheck.text.numeric`), its running text's and its inline code's apart;
* :meth:`~ArticleFacts.tokens` — its untranslatable tokens (:mod:`parallelcheck.text.tokens`),
  and :meth:`~ArticleFacts.prose` the code-like words of its running text;
* :meth:`~ArticleFacts.terms` — the glossary forms and near misses of keep terms in it, found
  by the run's :class:`~parallelcheck.glossary.match.GlossaryMatcher` (handed to the facts:
  it holds what the glossary compiles to for the whole run), inline code and URLs blanked;
* :meth:`~ArticleFacts.code_form` — a code block's comparable form
  (:mod:`parallelcheck.text.listings`);
* :meth:`~ArticleFacts.running_text`, :meth:`~ArticleFacts.script_profile`,
  :meth:`~ArticleFacts.letters` — the script profile of a text (:mod:`parallelcheck.text.script`):
  of a block, or of a piece of one (a list item's own prose, a table's cells);
* :meth:`~ArticleFacts.words` — a text's lower-cased words (:mod:`parallelcheck.text.lexicon`);
* :meth:`~ArticleFacts.identify` — py3langid's guess for a running text among languages
  (:mod:`parallelcheck.text.langid`), asked once per text and languages;

A fact depends on a block's content only (its text, its inline code, the language of its
version), and is kept by that content: the same text in two versions (a code block, a table of
names) is worked out once.  A block is a :class:`~parallelcheck.model.document.Block`; a heading
is its :class:`~parallelcheck.model.document.Section` (its title and the title's inline code).
What a method returns is shared: callers never change it.

Alignment's anchors (:mod:`parallelcheck.text.landmarks`) are not among these facts: alignment
runs before an article's facts exist, reads each block's anchors once, and knows nothing of
facts (an import-linter contract); no rule reads anchors.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, TypeVar

from parallelcheck.glossary.match import AlteredTerm, GlossaryMatcher, TermHit, blank_code
from parallelcheck.model.document import Block, BlockKind, Section
from parallelcheck.text import langid
from parallelcheck.text.lexicon import NormalForms, lower_words
from parallelcheck.text.listings import CodeForm, code_form
from parallelcheck.text.numeric import NumberFact, extract_code_numbers, extract_numbers
from parallelcheck.text.script import (
    ScriptProfile,
    count_letters,
    strip_capitalised,
    strip_names,
)
from parallelcheck.text.sentences import Sentence, split_sentences
from parallelcheck.text.tokens import Tokens, blank_spans, normal_prose_code, normal_tokens

T = TypeVar("T")

__all__ = ["ArticleFacts", "StatedNumbers", "TermScan"]

#: A block, or a heading (its section).
Where = Block | Section


def _content(where: Where) -> tuple[str, tuple[str, ...]]:
    """The text and inline code a fact of a block or heading is read from."""
    if isinstance(where, Section):
        return where.title, tuple(where.code_spans)
    if not where.children:
        return where.text, tuple(where.code_spans)
    return where.text, tuple(where.all_code_spans())


def _read(
    known: dict[tuple, T],
    where: Where,
    read: Callable[[str, tuple[str, ...]], T],
    normal: NormalForms,
) -> T:
    """``read(normal text, code)`` of a block's or heading's content (its text in normal
    form, as *normal* keeps it), kept in *known* by the content."""
    content = _content(where)
    found = known.get(content)
    if found is None:
        found = known[content] = read(normal[content[0]], content[1])
    return found


class StatedNumbers(NamedTuple):
    """The numbers of a block or heading: those of its running text, with the inline code
    blanked (offsets in its text), and those of each inline code span that states one, with
    the offset where the span stands (``-1``: not found in the text)."""

    text: tuple[NumberFact, ...]
    code: tuple[tuple[int, tuple[NumberFact, ...]], ...]


#: (index, numbers) of each inline code span of a block that states a number.
_CodeNumbers = tuple[tuple[int, tuple[NumberFact, ...]], ...]


@dataclass(frozen=True)
class TermScan:
    """The glossary in a block or heading: the forms found and the near misses of keep terms,
    with offsets in its text."""

    hits: tuple[TermHit, ...]
    altered: tuple[AlteredTerm, ...]


_NO_TERMS = TermScan((), ())
_NO_NUMBERS = StatedNumbers((), ())
#: ``BlockKind.CODE``, read once: an enum member looked up on its class goes through the
#: enum type's ``__getattr__`` hook (ten times slower than a name), and every fact of every
#: block asks whether it is code.
_CODE = BlockKind.CODE


class ArticleFacts:
    """The facts of one article's blocks and headings, each computed on first use (see the
    module's docstring)."""

    def __init__(
        self, terms: GlossaryMatcher | None = None, normal_forms: NormalForms | None = None
    ) -> None:
        #: The run's glossary, compiled (``None``: no glossary).
        self.matcher = terms
        #: The normal form of each text of the article (those its alignment read too, when
        #: the engine hands it the alignment's).
        self.normal_forms = NormalForms() if normal_forms is None else normal_forms
        self._numbers: dict[tuple, StatedNumbers] = {}
        self._code_numbers: dict[str, tuple[NumberFact, ...]] = {}
        self._spans_numbers: dict[tuple[str, ...], _CodeNumbers] = {}
        self._tokens: dict[tuple, Tokens] = {}
        self._prose: dict[tuple, frozenset[str]] = {}
        self._terms: dict[tuple, TermScan] = {}
        self._skeletons: dict[tuple[str, str], CodeForm] = {}
        self._running: dict[tuple, tuple[str, int]] = {}
        self._letters: dict[str, dict[str, int]] = {}
        self._words: dict[tuple[str, int], list[str]] = {}
        self._guesses: dict[tuple[str, tuple[str, ...]], tuple[str, float]] = {}
        self._profiles: dict[tuple, ScriptProfile] = {}
        self._sentences: dict[tuple, tuple[Sentence, ...]] = {}
        self._of_article: dict[str, Any] = {}

    # -- values ---------------------------------------------------------------------------

    def numbers(self, where: Where, lang: str) -> StatedNumbers:
        """The numbers a block or heading of version *lang* states (code blocks state none)."""
        if isinstance(where, Block) and where.kind is _CODE:
            return _NO_NUMBERS
        text, spans = _content(where)
        key = (text, spans, lang)
        found = self._numbers.get(key)
        if found is None:
            blanked, code = text, ()
            if spans:
                blanked, offsets = blank_spans(text, spans)  # code's numbers are not the text's
                code = tuple((offsets[i], numbers) for i, numbers in self._code_numbers_of(spans))
            numbers = extract_numbers(blanked, lang)
            # Most blocks state no number: they share one value (never changed by callers).
            found = StatedNumbers(tuple(numbers), code) if numbers or code else _NO_NUMBERS
            self._numbers[key] = found
        return found

    def _code_numbers_of(self, spans: tuple[str, ...]) -> _CodeNumbers:
        """(its index, its numbers) of each of some inline code spans that states a number:
        the same spans stand in every version of a block (and most state none)."""
        found = self._spans_numbers.get(spans)
        if found is None:
            found = self._spans_numbers[spans] = tuple(
                (index, numbers)
                for index, span in enumerate(spans)
                if (numbers := self._span_numbers(span))
            )
        return found

    def _span_numbers(self, span: str) -> tuple[NumberFact, ...]:
        # The same inline code recurs throughout a version and in every version: it is read
        # as code, whatever the language around it, so once for all of them.
        found = self._code_numbers.get(span)
        if found is None:
            found = self._code_numbers[span] = tuple(extract_code_numbers(span))
        return found

    def tokens(self, where: Where) -> Tokens:
        """The untranslatable tokens of a block or heading (code blocks are not read)."""
        return _read(self._tokens, where, normal_tokens, self.normal_forms)

    def prose(self, where: Where) -> frozenset[str]:
        """The code-like words of the running text of a block or heading, in their compared
        form (:func:`~parallelcheck.text.tokens.prose_code`)."""
        return _read(self._prose, where, normal_prose_code, self.normal_forms)

    def code_form(self, block: Block, info: str | None = None) -> CodeForm:
        """A code block's comparable form: its code tokens and where its comments are; read
        as the language of ``info`` when given (another version's), else of its own."""
        key = (block.text, block.info if info is None else info)
        found = self._skeletons.get(key)
        if found is None:
            found = self._skeletons[key] = code_form(*key)
        return found

    # -- glossary -------------------------------------------------------------------------

    def terms(self, where: Where, lang: str) -> TermScan:
        """The glossary forms and near misses of keep terms in a block or heading of version
        *lang* (none in code blocks and in a document's title-less first section); inline
        code and URLs are blanked first, offsets are those of the text.  Only for facts
        given the run's glossary matcher."""
        if self.matcher is None:
            raise ValueError("these facts were given no glossary to find terms of")
        if isinstance(where, Section):
            if where.level == 0:
                return _NO_TERMS
        elif where.kind is _CODE:
            return _NO_TERMS
        text, spans = _content(where)
        key = (text, spans, lang)
        found = self._terms.get(key)
        if found is None:
            blanked = blank_code(text, spans)
            hits = self.matcher.find_terms(blanked, lang)
            altered = self.matcher.find_altered(blanked, lang, hits)
            found = self._terms[key] = TermScan(tuple(hits), tuple(altered))
        return found

    # -- script ---------------------------------------------------------------------------

    def running_text(
        self, text: str, code_spans: Sequence[str] = (), *, capitalised_are_names: bool = False
    ) -> tuple[str, int]:
        """*text* with inline code, URLs, numbers and name-like tokens blanked, and how many
        characters were set aside (:func:`parallelcheck.text.script.strip_untranslatable`)."""
        spans = tuple(code_spans)
        key = (text, spans, capitalised_are_names)
        found = self._running.get(key)
        if found is None:
            if capitalised_are_names:  # built on the other blanking, which is kept too
                plain_key = (text, spans, False)
                plain = self._running.get(plain_key)
                if plain is None:
                    plain = self._running[plain_key] = strip_names(text, spans)
                found = strip_capitalised(*plain)
            else:
                found = strip_names(text, spans)
            self._running[key] = found
        return found

    def script_profile(
        self, text: str, code_spans: Sequence[str] = (), *, capitalised_are_names: bool = False
    ) -> ScriptProfile:
        """The script profile of *text* (:func:`parallelcheck.text.script.script_profile`)."""
        key = (text, tuple(code_spans), capitalised_are_names)
        found = self._profiles.get(key)
        if found is None:
            running, removed = self.running_text(
                text, code_spans, capitalised_are_names=capitalised_are_names
            )
            found = self._profiles[key] = ScriptProfile(self.letters(running), removed)
        return found

    def sentences(self, text: str, code_spans: Sequence[str] = ()) -> tuple[Sentence, ...]:
        """The sentences of a block's text (:func:`parallelcheck.text.sentences.split_sentences`),
        each with its line inside the text; *code_spans* are the inline code it holds."""
        key = (text, tuple(code_spans))
        found = self._sentences.get(key)
        if found is None:
            found = self._sentences[key] = tuple(split_sentences(text, code_spans))
        return found

    def of_article(self, name: str, compute: Callable[[], T]) -> T:
        """A result about the article as a whole, computed by the first rule that asks for it
        under *name* and shared with every other rule that asks under the same name (the
        sentence rules share the prose pairs worth segmenting: ``sentence candidates``)."""
        if name not in self._of_article:
            self._of_article[name] = compute()
        return self._of_article[name]

    def short_words(self, text: str, longest: int) -> list[str]:
        """The lower-cased words of *text* of at most *longest* letters, in order
        (:func:`parallelcheck.text.lexicon.lower_words` less the longer ones): a version's
        function words, which are short, are counted from its blocks' words, and a unit of
        text is weighed by its own — the same words for a paragraph, read once, and the
        longer words, which neither reads, not counted nor looked up."""
        key = (text, longest)
        found = self._words.get(key)
        if found is None:
            found = self._words[key] = [w for w in lower_words(text) if len(w) <= longest]
        return found

    def letters(self, text: str) -> dict[str, int]:
        """Letters per script in *text* (:func:`parallelcheck.text.script.count_letters`)."""
        found = self._letters.get(text)
        if found is None:
            found = self._letters[text] = count_letters(text)
        return found

    def identify(self, text: str, langs: Sequence[str]) -> tuple[str, float]:
        """py3langid's guess for *text* among *langs* (primary subtags), with its probability
        (:func:`parallelcheck.text.langid.identify`): a unit of text judged, then asked about
        again as another version's counterpart, is put to the model once."""
        key = (text, tuple(langs))
        found = self._guesses.get(key)
        if found is None:
            found = self._guesses[key] = langid.identify(text, langs)
        return found
