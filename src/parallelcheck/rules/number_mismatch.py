"""number-mismatch: the numbers stated in aligned blocks differ after normalisation."""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from parallelcheck.facts import ArticleFacts
from parallelcheck.model.document import Block, Section
from parallelcheck.model.finding import Finding
from parallelcheck.rules._values import (
    Difference,
    ValueComparison,
    Wording,
    compare_values,
    quoted,
)
from parallelcheck.rules.base import RuleContext, rule
from parallelcheck.text.numeric import NumberFact

SMALL = 10
_NO_KEYS: frozenset[str] = frozenset()


class _Number(NamedTuple):
    """A number and whether it stands in inline code (a named tuple: one is made for every
    number of every block, and a tuple is made several times quicker than a frozen
    dataclass)."""

    fact: NumberFact
    in_code: bool


class _NumberComparison(ValueComparison[_Number]):
    def __init__(self, facts: ArticleFacts):
        self.facts = facts
        self.misgrouped: set[str] = set()  # the values shown that are digits grouped wrongly

    def values(self, where: Block | Section, lang: str) -> list[tuple[_Number, int]]:
        stated = self.facts.numbers(where, lang)
        found = [(_Number(fact, False), fact.start) for fact in stated.text]
        if not stated.code:
            return found  # the text's numbers come in the order they stand
        found = [
            (_Number(fact, True), max(offset, 0)) for offset, facts in stated.code for fact in facts
        ] + found
        return sorted(found, key=lambda pair: pair[1])

    def decides(self, value: _Number) -> bool:
        """Whether a number left unmatched may be reported: one of running text that
        :func:`_decides` (a number in inline code never is)."""
        return not value.in_code and _decides(value.fact)

    def decisive_keys(self, where: Block | Section, lang: str) -> frozenset[str]:
        """The readings of the numbers of *where* that decide (read without making its
        values): its running text's (:func:`_decides`), never its inline code's."""
        stated = self.facts.numbers(where, lang).text
        if not stated:
            return _NO_KEYS  # most blocks
        return frozenset(key for fact in stated if _decides(fact) for key in fact.readings)

    def matches(self, a: _Number, b: _Number) -> bool:
        return not set(a.fact.readings).isdisjoint(b.fact.readings)

    keys_decide = True  # two numbers match when they share a reading

    def keys(self, value: _Number) -> tuple[str, ...]:
        return value.fact.readings

    def show(self, value: _Number) -> str:
        shown = value.fact.text.strip()
        if value.fact.malformed:
            self.misgrouped.add(shown)
        return shown

    def describe(self, langs, agreeing, difference: Difference, count) -> str:
        """The finding's message; a value grouped wrongly (``100,0000``) is named as such."""
        said = _WORDING.sentence(langs, agreeing, difference.extra, difference.lacking)
        wrong = [v for v in (*difference.extra, *difference.lacking) if v in self.misgrouped]
        if wrong:
            said += (
                f" ({quoted(wrong)}: digits grouped the way no convention groups them;"
                " thousands are grouped in threes)"
            )
        return said

    def prune(
        self, extra: list, lacking: list, ours: list, theirs: list, versions: tuple[str, str]
    ) -> tuple[list, list]:
        """Soft values are reported only as part of a substitution (see the rule's policy)."""
        if not extra and not lacking:
            return extra, lacking
        hard_extra = [pair for pair in extra if not is_soft(pair[0])]
        hard_lacking = [pair for pair in lacking if not is_soft(pair[0])]
        swapped_in = [pair for pair in extra if _countable(pair[0])]
        swapped_out = [pair for pair in lacking if _countable(pair[0])]
        if _substitution(swapped_in, swapped_out, ours, theirs):
            return hard_extra + swapped_in, hard_lacking + swapped_out
        return hard_extra, hard_lacking

    def may_differ(self, extra: list, lacking: list, ours: list, theirs: list) -> bool:
        """Whether the lists hold a hard value, or countable ones a substitution of which
        :meth:`prune` would keep (what the section's pools leave of them is a part)."""
        if any(not is_soft(pair[0]) for pair in (*extra, *lacking)):
            return True
        swapped_in = [pair for pair in extra if _countable(pair[0])]
        swapped_out = [pair for pair in lacking if _countable(pair[0])]
        return _substitution(swapped_in, swapped_out, ours, theirs)


def _substitution(swapped_in: list, swapped_out: list, ours: list, theirs: list) -> bool:
    """Whether soft counts taken in and out are a substitution (see the rule's policy): some
    on each side, one of them written in digits, the two blocks holding as many counts."""
    return (
        bool(swapped_in and swapped_out)
        and any(not pair[0].fact.spelled for pair in (*swapped_in, *swapped_out))
        and sum(_countable(v) for v, _ in ours) == sum(_countable(v) for v, _ in theirs)
    )


def _decides(fact: NumberFact) -> bool:
    """Whether a number of running text may be reported when the other side does not match
    it: a hard one, or a soft count written in digits — not a weak word ("double") nor a count
    up to ten written in words ("two", "一個").

    A soft value is reported only in a substitution (:meth:`_NumberComparison.prune`), and a
    substitution holds a count written in digits; inline code and weak words are soft and no
    count.  So values that do not decide, left unmatched alone, are never reported, and two
    versions whose deciding numbers share their readings have nothing to report
    (:meth:`~parallelcheck.rules._values.ValueComparison.decides`): their rows are settled by
    their keys.  On every third article of the FastAPI corpus, rows of a translation that
    writes a count in words where the source writes none ("一個" for "a") no longer differ
    by their keys: 89 of the rule's 2,053 row tests find keys that differ, where 683 of
    2,345 did (and the values of those rows were made and compared to find nothing)."""
    return not fact.weak and not (fact.spelled and fact.counts_up_to(SMALL))


def _countable(number: _Number) -> bool:
    """A soft count outside inline code (not a weak word such as "double")."""
    return is_soft(number) and not number.in_code and not number.fact.weak


def is_soft(number: _Number) -> bool:
    """Inline code, weak words ("double", "twice") and plain counts up to ten ("one of",
    "2つ", "兩個", "두 가지")."""
    return number.in_code or number.fact.weak or number.fact.counts_up_to(SMALL)


_WORDING = Wording(changed="say", has="state", adds="state", lacks="state")


@rule("number-mismatch", severity="error", tags=("values",))
def number_mismatch(ctx: RuleContext) -> Iterator[Finding]:
    """The numbers in aligned blocks differ after normalisation.

    The numbers stated in aligned blocks (or headings) differ after normalisation.

    Numbers are read from paragraphs, list items, table cells and headings in every
    language's way of writing them (see :mod:`parallelcheck.text.numeric`): digits with any
    locale's separators ("131,072", "1.000,5", "1 000,5"; an ambiguous "131.072" keeps both
    readings; "1,00,000" in Indian-numbering languages), full-width digits, percentages,
    multipliers ("1.8×", "1.8 倍", "1.8배"), numbers written as words or numerals ("ten",
    "十篇", "열 가지", "百萬", "백만", "120 万"), fractions, and dates and times as each
    language writes them, from the Unicode CLDR month and weekday names and date patterns
    ("2026-10-20", "October 20, 2026", "20 października 2026", "в апреле 2023 года",
    "ngày 20 tháng 10 năm 2026", "2026年10月20日", "2026년 10월 20일"; see
    :mod:`parallelcheck.text.dates`): a date is compared as a date, so the same day written
    in two languages matches and a day's shift is reported.  A time is compared with its
    zone, in UTC ("09:00 UTC" = "18:00 JST"; "09:00 JST" ≠ "09:00 UTC"); Unix ``date`` and
    RFC 2822 output are read in every language.  Two values match when one of their readings
    agrees.

    Not numbers: digits in identifiers ("x86_64", "Base32"), the name of a numeral system
    ("base 32", "16진수", "16進数"), and a numeral inside a word (十分 "very").  Code blocks
    state no numbers here (``code-mismatch`` compares them); numbers in inline code are read
    as code, whatever the language around them ("138,7" in a diff hunk is "138,7", never
    138.7).  Digits grouped the way no convention groups them ("100,0000"; "1,00,000" outside
    Indian numbering) match nothing but the same text, and the finding says so.

    Policy for small numbers: a plain count up to ten — written in words ("one of", "two
    engines", "兩個", "두 가지") or in digits ("1つ", "2 minute") —, any number inside inline
    code, and multiplier words that may mean something else ("double", "twice", "doppelt",
    "вдвое": "double quotes" is no 2×) are *soft*.  They match numbers of the other versions
    but are never reported for being added or left out: translations add and drop such
    counts freely ("either engine" /
    "任何一個引擎" / "두 엔진", "version 2" / "v2", "3 or 4 lines" / "三四行"), and "a couple"
    is not a number at all.  A soft count is reported only as a *substitution*: a version
    states a different count where the others state theirs — the two blocks hold the same
    number of counts, and at least one of the differing two is written in digits ("5つ" where
    the others say "two engines"; but not "一種" against "3 or 4 lines").  Every larger
    number, and every percentage, multiplier, date and time, must appear in every version.

    Each version is compared with the source (see :mod:`parallelcheck.rules._values`); a value
    the other version states elsewhere in the same aligned section is not reported missing.
    """
    comparison = _NumberComparison(ctx.facts)
    yield from compare_values(ctx, comparison, comparison.describe)
