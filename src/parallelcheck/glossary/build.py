"""What the three format readers share: the problems of one reading, bounded reads of a
file, and building checked terms.

:class:`_Problems` raises the first problem (loading for a run) or collects them all
(``glossary lint``), and counts the terms read against :data:`MAX_TERMS`;
:func:`_read_bytes` and :func:`_decode` read a file within its bound; a
:class:`_TermBuilder` collects one term's parts, checks them (id, language tags, invisible
characters) and builds the :class:`~parallelcheck.glossary.model.Term`.

Bounds
------

At most :data:`MAX_TERMS` (200,000) terms are read in all the glossaries of a run, counted
while reading, so a vast file is refused at the term past the bound, not after it is read;
YAML files are read up to 64 MB, TBX and CSV files up to 20 MB.  Reading and linting take
time and memory in proportion to the number of terms (``bench/bench_glossary_lint.py``).

Invisible characters
--------------------

A form (``keep``, approved or forbidden) holding a control character or an invisible format
character — zero-width space, joiner and non-joiner, word joiner, byte order mark, soft
hyphen, bidirectional controls and the like — is an error naming the file, line and term id
(``glossary lint`` lists it; ``check`` stops with exit status 2).  Such a form looks exactly
like the plain spelling but never matches it: a keep term ``Deep<ZWJ>Infer`` would report
every ``DeepInfer`` with a "fix" that looks the same.  It is refused, not silently cleaned,
because the file and what the tool matches must not differ unseen.  Zero-width (non-)joiners
are accepted where writing needs them: between two letters of a joining or Indic script
(Persian ``می‌خواهم``, Devanagari, Sinhala …) and, for the joiner, inside an emoji sequence.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from parallelcheck.errors import InputError
from parallelcheck.files.safe_read import TOO_LARGE, ReadRefused, read_capped
from parallelcheck.files.safe_yaml import describe_character
from parallelcheck.glossary.model import LangTerms, Problem, Term
from parallelcheck.text.langtag import canonical_tag
from parallelcheck.text.regexes import compile_pattern

#: The most terms read in all the glossaries of one run (see "Bounds" above).
MAX_TERMS = 200_000
MAX_XML_CSV_BYTES = 20_000_000
TERM_KEYS = ("id", "keep", "note", "forbidden", "case_sensitive")

_ID = compile_pattern(r"^[A-Za-z0-9][A-Za-z0-9._:+-]*$")


# ---------------------------------------------------------------------------
# Problems: raised at once when loading, collected when linting


class _Problems:
    """Where loaders report problems: raise the first (``strict``) or collect them all.

    It is also what one reading of a set of files keeps: the terms counted against
    :data:`MAX_TERMS` and the canonical form of each language tag met (a glossary names the
    same few tags on every term).
    """

    def __init__(self, strict: bool):
        self.strict = strict
        self.found: list[Problem] = []
        self.terms = 0
        self.tags: dict[str, str | None] = {}

    def canonical_tag(self, raw: str) -> str | None:
        """:func:`~parallelcheck.text.langtag.canonical_tag`, once per distinct tag."""
        if raw not in self.tags:
            self.tags[raw] = canonical_tag(raw)
        return self.tags[raw]

    def count_term(self, path: str, line: int | None) -> bool:
        """Count one more term about to be read: False (and, the first time, a problem) past
        :data:`MAX_TERMS` — the caller then stops reading."""
        self.terms += 1
        if self.terms <= MAX_TERMS:
            return True
        if self.terms == MAX_TERMS + 1:
            self.error(
                f"more than {MAX_TERMS:,} terms in the glossaries of this run (the most that "
                "are read); this is the first term past the bound: split the glossary or keep "
                "the terms the articles use",
                path,
                line,
            )
        return False

    def error(self, message: str, path: str, line: int | None, term: str | None = None) -> None:
        if term:
            message = f"term '{term}': {message}"
        if self.strict:
            raise InputError(message, path, line)
        self.found.append(Problem(path, line, message))


class _Skip(Exception):
    """A term (or file) that cannot be read any further; its problem is already reported."""


# ---------------------------------------------------------------------------
# Reading a file


def _read_bytes(path: str, limit: int, problems: _Problems) -> bytes:
    """A glossary file's bytes: a regular file of at most *limit* bytes, read by
    :func:`~parallelcheck.files.safe_read.read_capped` (a FIFO or device is refused before it is
    opened; the size is checked while reading)."""
    try:
        return read_capped(path, limit, what="glossary file")
    except ReadRefused as refused:
        message = refused.message
        if refused.kind != TOO_LARGE:
            message = f"cannot read glossary file: {message}"
        problems.error(message, path, None)
        raise _Skip from None


def _decode(data: bytes, path: str, problems: _Problems) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        problems.error("glossary file is not UTF-8 text", path, line)
        raise _Skip from None


# ---------------------------------------------------------------------------
# Building terms (shared by the three formats)


def _clean_form(form: str) -> str:
    return " ".join(form.split())


#: Characters that show nothing (see "Invisible characters" above): controls other than the
#: whitespace forms are cleaned of, and the format characters of Unicode (category Cf) that
#: glossaries meet, with the fillers that render as blanks.
_INVISIBLE = compile_pattern(
    "[\x00-\x1f\x7f-\x9f\u00ad\u034f\u061c\u115f\u1160\u180e\u200b-\u200f"
    "\u202a-\u202e\u2060-\u2064\u2066-\u206f\u3164\ufeff\uffa0\ufff9-\ufffb"
    "\U0001d173-\U0001d17a\U000e0001\U000e0020-\U000e007f]"
)
#: Scripts whose writing needs the zero-width (non-)joiner between letters.
_JOINING_SCRIPTS = frozenset(
    "ARABIC SYRIAC NKO MANDAIC MONGOLIAN DEVANAGARI BENGALI GURMUKHI GUJARATI ORIYA TAMIL "
    "TELUGU KANNADA MALAYALAM SINHALA TIBETAN MYANMAR KHMER".split()
)


def invisible_character(form: str) -> int | None:
    """The index of the first character of ``form`` that shows nothing and has no business
    there (module documentation, "Invisible characters"), else None."""
    for found in _INVISIBLE.finditer(form):
        index = found.start()
        if found.group() in "\u200c\u200d" and _joins(form, index):
            continue
        return index
    return None


def _joins(form: str, index: int) -> bool:
    """Whether the (non-)joiner at ``form[index]`` stands where writing needs it."""
    if index == 0 or index + 1 >= len(form):
        return False
    before, after = form[index - 1], form[index + 1]

    def script(char: str) -> str | None:
        if unicodedata.category(char)[0] not in "LM":
            return None
        return unicodedata.name(char, "").split(" ", 1)[0]

    if script(before) in _JOINING_SCRIPTS and script(after) in _JOINING_SCRIPTS:
        return True
    emoji_before = unicodedata.category(before) in ("So", "Sk", "Mn", "Me")
    return form[index] == "\u200d" and emoji_before and unicodedata.category(after) == "So"


class _TermBuilder:
    """Collects one term's parts and checks them; reports problems at the term's lines."""

    def __init__(self, path: str, line: int | None, problems: _Problems):
        self.path, self.line, self.problems = path, line, problems
        self.id: str | None = None
        self.keep: str | None = None
        self.note: str | None = None
        self.forbidden: list[str] = []
        self.langs: dict[str, LangTerms] = {}
        self.lang_lines: dict[str, int | None] = {}
        self.ok = True

    def fail(self, message: str, line: int | None = None) -> None:
        self.ok = False
        self.problems.error(message, self.path, line or self.line, self.id)

    def set_id(self, value: str, line: int | None = None) -> None:
        value = value.strip()
        if not _ID.match(value):
            self.id = value or None
            self.fail(
                f"invalid term id '{value}' (letters, digits and . _ : + - only, starting with "
                "a letter or digit)",
                line,
            )
            return
        self.id = value

    def form(self, value: str, what: str, line: int | None) -> str | None:
        cleaned = _clean_form(value)
        if not cleaned:
            self.fail(f"{what} is an empty form", line)
            return None
        return cleaned if self.visible(cleaned, what, line) else None

    def visible(self, form: str, what: str, line: int | None) -> bool:
        """Whether ``form`` is free of invisible characters; if not, report the first."""
        index = invisible_character(form)
        if index is None:
            return True
        shown = f"{form[:index]}<U+{ord(form[index]):04X}>{form[index + 1 :]}"
        self.fail(
            f"{what} form '{shown}' holds the invisible character "
            f"{describe_character(form[index])}: it looks like the plain spelling but never "
            "matches it, so every plain spelling would be reported; remove it",
            line,
        )
        return False

    def add_lang(
        self,
        raw_tag: str,
        approved: Sequence[str],
        forbidden: Sequence[str],
        case_sensitive: bool,
        line: int | None,
    ) -> None:
        tag = self.problems.canonical_tag(raw_tag.strip())
        if tag is None:
            self.fail(
                f"invalid language tag '{raw_tag}' (expected a BCP 47 tag such as en, zh-Hant, "
                f"pt-BR, or one of the keys {', '.join(TERM_KEYS)})",
                line,
            )
            return
        if tag in self.langs:
            self.fail(f"language '{tag}' is given twice", line)
            return
        approved = [form for form in map(_clean_form, approved) if form]
        forbidden = [form for form in map(_clean_form, forbidden) if form]
        for form in (*approved, *forbidden):
            if not self.visible(form, f"'{raw_tag.strip()}'", line):
                return
        self.langs[tag] = LangTerms(
            tuple(dict.fromkeys(approved)), tuple(dict.fromkeys(forbidden)), case_sensitive
        )
        self.lang_lines[tag] = line

    def build(self, origin_line: int | None = None) -> Term | None:
        if self.id is None and self.ok:
            self.fail("term has no 'id'")
        if not self.ok:
            return None
        assert self.id is not None
        if self.keep is not None:
            for tag, entry in self.langs.items():
                if entry.approved:
                    self.fail(
                        f"a keep term is written as '{self.keep}' in every language; it cannot "
                        f"list approved forms for '{tag}' (only 'forbidden')",
                        self.lang_lines.get(tag),
                    )
                    return None
        elif not self.langs:
            self.fail("term has neither 'keep' nor any language")
            return None
        line = origin_line or self.line
        origin = f"{self.path}:{line}" if line else self.path
        return Term(
            id=self.id,
            keep=self.keep,
            langs=dict(self.langs),
            note=self.note,
            origin=origin,
            forbidden=tuple(dict.fromkeys(self.forbidden)),
        )


# ---------------------------------------------------------------------------
# Ids made from a term's forms (TBX entries and CSV rows that give none)


def _slug(text: str) -> str:
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")


def _derived_id(forms: Sequence[str], fallback: str) -> str:
    for form in forms:
        slug = _slug(form)
        if slug and _ID.match(slug):
            return slug
    return fallback
