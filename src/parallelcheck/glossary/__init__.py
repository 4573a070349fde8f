"""Glossaries: the terms each language version must use, read from YAML, TBX or CSV.

The model
---------

A :class:`Glossary` is a tuple of :class:`Term` objects.  A term is either

* a *keep* term (``keep: DeepInfer``): written exactly like this, case and all, in every
  language version; or
* a translated term with, per language tag, a :class:`LangTerms`: the approved forms (the first
  is the preferred one), the forbidden forms, and whether matching is case-sensitive.

``forbidden`` may also be given on the term itself: those forms are forbidden in every language.
Every term records its ``origin`` (``file:line``) for messages; it takes no part in comparing
glossaries, so a glossary imported from TBX and read back from YAML compares equal.

Formats (the file's extension decides)
--------------------------------------

``.yaml`` / ``.yml``
    CONTRACT §4.  Read with PyYAML's safe loader through :mod:`parallelcheck.files.safe_yaml`:
    control characters, nesting deeper than 100 levels, more than 4,000,000 nodes and aliases
    that would expand the document beyond its size are refused at their line; files over
    64 MB are refused outright.  Keys are taken as written (``no:`` is Norwegian, not false),
    duplicate keys are errors.

``.tbx``
    TBX 2008 (``martif/text/body/termEntry/langSet/tig/term``, also ``ntig/termGrp/term``) and
    TBX v3 (``tbx/text/body/conceptEntry/langSec/termSec/term``), namespaces ignored.  A term's
    ``termNote type="administrativeStatus"`` (or, in TBX v3 DCT style, an
    ``administrativeStatus`` element) decides its status: ``preferredTerm-admn-sts`` and
    ``admittedTerm-admn-sts`` (also ``standardizedTerm``, ``legalTerm``, ``regulatedTerm``)
    are approved — preferred ones first — and ``deprecatedTerm-admn-sts`` /
    ``supersededTerm-admn-sts`` (also ``notRecommended``/``obsolete``) are forbidden; a term
    without a status is approved.  The entry's ``id`` is the term id (else one is made from its
    first English or first term); a ``note`` or ``descrip`` of type ``definition``/``note`` is
    the note.  TBX has no "keep as is" notion: every entry is a translated term.  XML is parsed
    with ``defusedxml``: entity declarations and external references are refused.

``.csv``
    A header row of language tags, plus the optional columns ``id``, ``note``, ``keep`` and
    ``case_sensitive``; then one term per row.  A cell holds the forms of one language
    separated by ``|`` (``PD 分離|PD分離``); a form with a leading ``!`` is forbidden
    (``PD 分離|!PD 分离``).  ``\\|`` is a literal bar and a leading ``\\!`` a literal ``!``.
    Quoting is strict: a quote that is never closed (it would swallow the rest of the file
    into one cell) or text after a closing quote is an error at the row where it starts.
    Without an ``id`` column (or with the cell empty) the id is made from the row's first
    Latin-script form (``PD disaggregation`` → ``pd-disaggregation``), else ``row-N``.  A row
    with ``keep`` set is a keep term; its language cells may only hold forbidden forms.

Language tags are canonicalised with :func:`parallelcheck.text.langtag.canonical_tag`.  A term's
language entry applies to a version whose tag is the same, or more specific (``zh`` applies to
``zh-Hant``), or the same Chinese script by region (``zh-Hant`` ↔ ``zh-TW``/``zh-HK``/``zh-MO``,
``zh-Hans`` ↔ ``zh-CN``/``zh-SG``, and a plain ``zh`` version counts as Simplified — it never
takes a ``zh-Hant`` entry); a bare version tag (``pt``) takes the one entry of that
language when there is exactly one.

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

Errors and lint
---------------

Anything that makes a file unreadable or a term meaningless raises
:class:`~parallelcheck.errors.InputError` naming the file, the line and the term id (exit
status 2).  :func:`lint` checks a loaded glossary for contradictions — see its documentation for
what is an error and what a warning; :func:`load_glossaries` refuses a glossary with lint errors,
since its findings could not be trusted.
"""

from __future__ import annotations

import bisect
import csv
import hashlib
import io
import os
import re
import unicodedata
import xml.sax
import xml.sax.handler
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

import yaml

from parallelcheck.errors import InputError
from parallelcheck.files.safe_read import TOO_LARGE, ReadRefused, read_capped
from parallelcheck.files.safe_yaml import collector_paused, compose, describe_character
from parallelcheck.text.langtag import canonical_tag, primary_language

#: The most terms read in all the glossaries of one run (see "Bounds" above).
MAX_TERMS = 200_000
MAX_YAML_BYTES = 64_000_000
#: YAML nodes (scalars, lists, mappings) one glossary file may hold: 20 per term at the bound.
MAX_YAML_NODES = 20 * MAX_TERMS
MAX_XML_CSV_BYTES = 20_000_000
EXTENSIONS = (".yaml", ".yml", ".tbx", ".csv")
TERM_KEYS = ("id", "keep", "note", "forbidden", "case_sensitive")
LANG_KEYS = ("term", "forbidden", "case_sensitive")

APPROVED_STATUSES = {
    "preferredterm-admn-sts": 0,
    "preferred": 0,
    "standardizedterm-admn-sts": 0,
    "admittedterm-admn-sts": 1,
    "admitted": 1,
    "legalterm-admn-sts": 1,
    "regulatedterm-admn-sts": 1,
}
FORBIDDEN_STATUSES = frozenset(
    {
        "deprecatedterm-admn-sts",
        "deprecated",
        "supersededterm-admn-sts",
        "superseded",
        "notrecommended",
        "obsolete",
    }
)

_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._:+-]*$")


# ---------------------------------------------------------------------------
# The model


@dataclass(frozen=True)
class LangTerms:
    """The forms of a term in one language: approved (first preferred) and forbidden."""

    approved: tuple[str, ...] = ()
    forbidden: tuple[str, ...] = ()
    case_sensitive: bool = False


@dataclass(frozen=True)
class Term:
    """One glossary entry (see the module documentation)."""

    id: str
    keep: str | None = None
    langs: Mapping[str, LangTerms] = field(default_factory=dict)
    note: str | None = None
    origin: str = field(default="", compare=False)
    forbidden: tuple[str, ...] = ()

    @property
    def path(self) -> str:
        return self.origin.rsplit(":", 1)[0]

    @property
    def line(self) -> int | None:
        tail = self.origin.rsplit(":", 1)[-1]
        return int(tail) if tail.isdigit() else None

    def entry(self, lang: str) -> LangTerms | None:
        """The forms that apply to a version in ``lang`` (None: the term says nothing there).

        A keep term applies everywhere: its one approved form is ``keep``, case-sensitive.
        Forms forbidden on the term itself are added to every language.
        """
        if self.keep is not None:
            own = self.langs.get(_resolve_tag(self.langs, lang) or "")
            forbidden = (*self.forbidden, *(own.forbidden if own else ()))
            return LangTerms((self.keep,), tuple(dict.fromkeys(forbidden)), True)
        tag = _resolve_tag(self.langs, lang)
        if tag is None:
            return None
        own = self.langs[tag]
        if not self.forbidden:
            return own
        forbidden = tuple(dict.fromkeys((*own.forbidden, *self.forbidden)))
        return LangTerms(own.approved, forbidden, own.case_sensitive)

    def suggestion(self, lang: str) -> str | None:
        """The form to write instead of a forbidden one: the keep form or preferred form."""
        entry = self.entry(lang)
        return entry.approved[0] if entry and entry.approved else None


@dataclass(frozen=True)
class Glossary:
    """Every term of the glossaries of a run, in the order read.

    Plain frozen data, so it can be sent to worker processes; compiled matchers are cached
    elsewhere (:mod:`parallelcheck.glossary.match`), keyed by ``fingerprint`` — a digest of the
    terms
    that survives pickling, so a worker compiles each language once, not once per article.
    """

    terms: tuple[Term, ...] = ()
    sources: tuple[str, ...] = field(default=(), compare=False)
    fingerprint: str = field(default="", compare=False)

    @classmethod
    def of(cls, terms: Sequence[Term], sources: Sequence[str] = ()) -> Glossary:
        """A glossary with its fingerprint computed."""
        terms = tuple(terms)
        digest = hashlib.sha256(repr(terms).encode("utf-8")).hexdigest()[:32]
        return cls(terms, tuple(sources), digest)

    def __bool__(self) -> bool:
        return bool(self.terms)

    def __len__(self) -> int:
        return len(self.terms)

    def by_id(self) -> dict[str, Term]:
        return {term.id: term for term in self.terms}

    def languages(self) -> set[str]:
        """Every language tag some term lists (keep terms list none)."""
        return {lang for term in self.terms for lang in term.langs}

    def applies_to(self, lang: str) -> bool:
        """Whether any term has forms for a version in ``lang``."""
        return any(term.entry(lang) is not None for term in self.terms)


_ZH_REGIONS = {"TW": "Hant", "HK": "Hant", "MO": "Hant", "CN": "Hans", "SG": "Hans", "MY": "Hans"}


def _zh_script(tag: str) -> str | None:
    parts = tag.split("-")
    if parts[0] != "zh":
        return None
    for part in parts[1:]:
        if part in ("Hant", "Hans"):
            return part
    for part in parts[1:]:
        if part in _ZH_REGIONS:
            return _ZH_REGIONS[part]
    return "Hans"  # plain zh is written in Simplified characters by convention


def _resolve_tag(langs: Mapping[str, LangTerms], lang: str) -> str | None:
    """The tag of ``langs`` that applies to a version in ``lang`` (module documentation)."""
    if lang in langs:
        return lang
    lower = lang.lower()
    best = None
    for tag in langs:
        if lower.startswith(tag.lower() + "-") and (best is None or len(tag) > len(best)):
            best = tag
    if best is not None:
        return best
    script = _zh_script(lang)
    if script is not None:
        for tag in sorted(langs):
            if _zh_script(tag) == script:
                return tag
        return None
    primary = primary_language(lang)
    same = [tag for tag in langs if primary_language(tag) == primary]
    if "-" not in lang and len(same) == 1:
        return same[0]
    return None


# ---------------------------------------------------------------------------
# Problems: raised at once when loading, collected when linting


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a glossary, at ``path:line``."""

    path: str
    line: int | None
    message: str
    severity: str = "error"

    def describe(self) -> str:
        where = self.path if self.line is None else f"{self.path}:{self.line}"
        kind = "warning: " if self.severity == "warning" else ""
        return f"{where}: {kind}{self.message}"


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
# Files and folders


def glossary_files(paths: Iterable[str]) -> list[str]:
    """The glossary files named by ``paths``: files as given, folders' *.yaml/*.yml/*.tbx/*.csv
    in sorted order.  Paths that do not exist are an :class:`InputError`."""
    files: list[str] = []
    seen: set[str] = set()
    for path in paths:
        if os.path.isdir(path):
            names = sorted(
                name
                for name in os.listdir(path)
                if name.lower().endswith(EXTENSIONS) and not name.startswith(".")
            )
            found = [os.path.join(path, name) for name in names]
            found = [f for f in found if os.path.isfile(f)]
        elif os.path.isfile(path):
            if not path.lower().endswith(EXTENSIONS):
                raise InputError(
                    "unknown glossary format (expected a .yaml, .yml, .tbx or .csv file)", path
                )
            found = [path]
        else:
            raise InputError("glossary path does not exist", path)
        for name in found:
            key = os.path.realpath(name)
            if key not in seen:
                seen.add(key)
                files.append(name)
    return files


def load_glossaries(paths: Iterable[str]) -> Glossary:
    """Read every glossary file under ``paths`` into one :class:`Glossary`.

    Raises :class:`InputError` (exit 2) for the first unreadable or malformed file or term and
    for the first lint error (see :func:`lint`).
    """
    problems = _Problems(strict=True)
    terms: list[Term] = []
    files = glossary_files(paths)
    with collector_paused():
        for path in files:
            terms.extend(_load_file(path, problems))
    glossary = Glossary.of(terms, files)
    for problem in lint(glossary, shadowing=False):
        if problem.severity == "error":
            raise InputError(problem.message, problem.path, problem.line)
    return glossary


def load_file(path: str) -> Glossary:
    """One glossary file, whatever its format (no lint)."""
    with collector_paused():
        return Glossary.of(_load_file(path, _Problems(strict=True)), (path,))


def _load_file(path: str, problems: _Problems) -> list[Term]:
    lower = path.lower()
    try:
        if lower.endswith((".yaml", ".yml")):
            return _load_yaml(path, problems)
        if lower.endswith(".tbx"):
            return _load_tbx(path, problems)
        if lower.endswith(".csv"):
            return _load_csv(path, problems)
    except _Skip:
        return []
    problems.error("unknown glossary format (expected .yaml, .yml, .tbx or .csv)", path, None)
    return []


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
_INVISIBLE = re.compile(
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
# YAML (CONTRACT §4)


def _line(node: yaml.Node) -> int:
    return node.start_mark.line + 1


def _kind(node: yaml.Node) -> str:
    if isinstance(node, yaml.MappingNode):
        return "a mapping"
    if isinstance(node, yaml.SequenceNode):
        return "a list"
    if not node.value.strip() or (not node.style and node.value in _NULLS):
        return "an empty value"
    return "a scalar"


_NULLS = ("", "~", "null", "Null", "NULL")


def _scalar_text(node: yaml.Node) -> str | None:
    """A scalar's text as written (``yes`` stays ``yes``); None for an empty value, a plain
    null or anything that is not a scalar."""
    if not isinstance(node, yaml.ScalarNode) or not node.value.strip():
        return None
    if not node.style and node.value in _NULLS:  # plain style: None, or '' from libyaml
        return None
    return node.value


def _bool(node: yaml.Node) -> bool | None:
    if isinstance(node, yaml.ScalarNode):
        value = node.value.strip().lower()
        if value in ("true", "yes", "on"):
            return True
        if value in ("false", "no", "off"):
            return False
    return None


def _compose(text: str, path: str, problems: _Problems) -> yaml.Node | None:
    """The node tree of a glossary file, bounded (see :mod:`parallelcheck.files.safe_yaml`)."""
    try:
        return compose(
            text, path, max_nodes=MAX_YAML_NODES, refuse_tags=True, libyaml=True, resolve=False
        )
    except InputError as error:
        problems.error(error.message, path, error.line)
        raise _Skip from None


def _mapping_items(
    node: yaml.MappingNode, builder: _TermBuilder | None, path: str, problems: _Problems
):
    """(key text, key line, value node) of a mapping; duplicate or non-text keys are errors."""
    seen: dict[str, int] = {}
    for key_node, value_node in node.value:
        key = _scalar_text(key_node)
        line = _line(key_node)
        if key is None:
            message = "mapping keys must be plain text"
            if builder is not None:
                builder.fail(message, line)
                continue
            problems.error(message, path, line)
            continue
        if key in seen:
            message = f"duplicate key '{key}' (first given on line {seen[key]})"
            if builder is not None:
                builder.fail(message, line)
                continue
            problems.error(message, path, line)
            continue
        seen[key] = line
        yield key, line, value_node


def _load_yaml(path: str, problems: _Problems) -> list[Term]:
    text = _decode(_read_bytes(path, MAX_YAML_BYTES, problems), path, problems)
    return _yaml_terms(text, path, problems)


def _yaml_terms(text: str, path: str, problems: _Problems) -> list[Term]:
    """The terms of a YAML glossary's text; ``path`` is the name its messages give."""
    root = _compose(text, path, problems)
    if root is None:
        return []  # an empty file: no terms
    if not isinstance(root, yaml.MappingNode):
        problems.error(
            f"a glossary must be a mapping with a 'terms' list, not {_kind(root)}",
            path,
            _line(root),
        )
        return []
    terms_node = None
    for key, line, value in _mapping_items(root, None, path, problems):
        if key == "terms":
            terms_node = value
        else:
            problems.error(f"unknown key '{key}' (a glossary file has only 'terms')", path, line)
    if terms_node is None:
        problems.error("a glossary must have a 'terms' list", path, _line(root))
        return []
    if isinstance(terms_node, yaml.ScalarNode) and _scalar_text(terms_node) is None:
        return []  # terms: (empty)
    if not isinstance(terms_node, yaml.SequenceNode):
        problems.error(f"'terms' must be a list, not {_kind(terms_node)}", path, _line(terms_node))
        return []
    terms = []
    for item in terms_node.value:
        if not problems.count_term(path, _line(item)):
            break
        term = _yaml_term(item, path, problems)
        if term is not None:
            terms.append(term)
    return terms


def _yaml_term(node: yaml.Node, path: str, problems: _Problems) -> Term | None:
    builder = _TermBuilder(path, _line(node), problems)
    if not isinstance(node, yaml.MappingNode):
        builder.fail(f"each term must be a mapping (id, keep, languages…), not {_kind(node)}")
        return None
    for key_node, value_node in node.value:  # the id first, so every message can name it
        if _scalar_text(key_node) == "id" and _scalar_text(value_node):
            builder.id = _scalar_text(value_node)
            break
    items = list(_mapping_items(node, builder, path, problems))
    for key, line, value in items:
        if key == "id":
            text = _scalar_text(value)
            if text is None:
                builder.fail(f"'id' must be a non-empty string, not {_kind(value)}", line)
            else:
                builder.set_id(text, line)
    case_default = False
    for key, line, value in items:
        if key == "case_sensitive":
            flag = _bool(value)
            if flag is None:
                builder.fail("'case_sensitive' must be true or false", line)
            else:
                case_default = flag
    for key, line, value in items:
        if key in ("id", "case_sensitive"):
            continue
        if key == "keep":
            text = _scalar_text(value)
            if text is None:
                builder.fail(f"'keep' must be a non-empty string, not {_kind(value)}", line)
            else:
                builder.keep = builder.form(text, "'keep'", line)
        elif key == "note":
            if not isinstance(value, yaml.ScalarNode):
                builder.fail(f"'note' must be a string, not {_kind(value)}", line)
            else:
                builder.note = value.value.strip() or None
        elif key == "forbidden":
            builder.forbidden.extend(_yaml_forms(value, builder, "'forbidden'", line))
        elif key == "term":
            builder.fail(
                "'term' belongs inside a language mapping (for example  ja: {term: …, "
                "forbidden: […]})",
                line,
            )
        else:
            _yaml_lang(key, line, value, builder, case_default, path, problems)
    return builder.build()


def _yaml_forms(node: yaml.Node, builder: _TermBuilder, what: str, line: int) -> list[str]:
    """A string or a list of strings, as cleaned forms."""
    if isinstance(node, yaml.ScalarNode):
        text = _scalar_text(node)
        if text is None:
            builder.fail(f"{what} must be a string or a list of strings, not an empty value", line)
            return []
        form = builder.form(text, what, line)
        return [form] if form else []
    if not isinstance(node, yaml.SequenceNode):
        builder.fail(f"{what} must be a string or a list of strings, not {_kind(node)}", line)
        return []
    forms = []
    for index, item in enumerate(node.value, 1):
        text = _scalar_text(item)
        if text is None:
            builder.fail(
                f"{what} must be a list of strings; item {index} is {_kind(item)}", _line(item)
            )
            continue
        form = builder.form(text, what, _line(item))
        if form:
            forms.append(form)
    if not forms and builder.ok:
        builder.fail(f"{what} is an empty list", line)
    return forms


def _yaml_lang(key, line, value, builder, case_default, path, problems) -> None:
    what = f"'{key}'"
    approved: list[str] = []
    forbidden: list[str] = []
    case_sensitive = case_default
    if isinstance(value, yaml.MappingNode):
        has_term = False
        for inner, inner_line, inner_value in _mapping_items(value, builder, path, problems):
            if inner == "term":
                has_term = True
                approved = _yaml_forms(inner_value, builder, f"'{key}.term'", inner_line)
            elif inner == "forbidden":
                forbidden = _yaml_forms(inner_value, builder, f"'{key}.forbidden'", inner_line)
            elif inner == "case_sensitive":
                flag = _bool(inner_value)
                if flag is None:
                    builder.fail(f"'{key}.case_sensitive' must be true or false", inner_line)
                else:
                    case_sensitive = flag
            else:
                builder.fail(
                    f"unknown key '{inner}' in language '{key}' (expected one of: "
                    f"{', '.join(LANG_KEYS)})",
                    inner_line,
                )
        if not has_term and not forbidden and builder.ok:
            builder.fail(f"language '{key}' gives neither 'term' nor 'forbidden'", line)
            return
    else:
        approved = _yaml_forms(value, builder, what, line)
    builder.add_lang(key, approved, forbidden, case_sensitive, line)


# ---------------------------------------------------------------------------
# TBX 2008 and TBX v3


@dataclass
class _Element:
    name: str
    attrs: dict[str, str]
    line: int
    children: list[_Element] = field(default_factory=list)
    text: str = ""

    def find(self, *names: str) -> Iterator[_Element]:
        for child in self.children:
            if child.name in names:
                yield child


def _local(name: str) -> str:
    return name.rsplit(":", 1)[-1]


class _TreeHandler(xml.sax.handler.ContentHandler):
    """Builds a small element tree with line numbers (namespace prefixes dropped)."""

    def __init__(self):
        super().__init__()
        self.root: _Element | None = None
        self.stack: list[_Element] = []
        self.locator = None

    def setDocumentLocator(self, locator):
        self.locator = locator

    def startElement(self, name, attrs):
        line = self.locator.getLineNumber() if self.locator else 0
        values = {}
        for key in attrs.getNames():
            local = "lang" if key in ("xml:lang", "lang") else _local(key)
            values[local] = attrs.getValue(key)
        element = _Element(_local(name), values, line)
        if self.stack:
            self.stack[-1].children.append(element)
        else:
            self.root = element
        self.stack.append(element)

    def endElement(self, name):
        self.stack.pop()

    def characters(self, content):
        if self.stack:
            self.stack[-1].text += content


_EXTERNAL_DOCTYPE = re.compile(
    rb"<!DOCTYPE\s+[\w:.-]+\s+(?:SYSTEM\s+(?:\"[^\"]*\"|'[^']*')|PUBLIC\s+"
    rb"(?:\"[^\"]*\"|'[^']*')\s+(?:\"[^\"]*\"|'[^']*'))\s*>"
)


def _parse_xml(data: bytes, path: str, problems: _Problems) -> _Element:
    import defusedxml
    import defusedxml.sax

    # TBX files name their DTD (``<!DOCTYPE martif SYSTEM "TBXcoreStructV02.dtd">``); it is
    # never fetched.  Such a declaration is blanked (line numbers kept) so that external
    # references stay forbidden; a DOCTYPE with an internal subset is left to defusedxml.
    data = _EXTERNAL_DOCTYPE.sub(lambda m: b"\n" * m.group().count(b"\n"), data, count=1)
    handler = _TreeHandler()
    try:
        defusedxml.sax.parseString(
            data, handler, forbid_dtd=False, forbid_entities=True, forbid_external=True
        )
    except xml.sax.SAXParseException as exc:
        problems.error(f"invalid XML: {exc.getMessage()}", path, exc.getLineNumber())
        raise _Skip from None
    except defusedxml.DefusedXmlException as exc:
        line = handler.locator.getLineNumber() if handler.locator else None
        problems.error(
            f"refusing unsafe XML ({type(exc).__name__}: entity declarations and external "
            "references are not read)",
            path,
            line,
        )
        raise _Skip from None
    if handler.root is None:
        problems.error("empty XML document", path, None)
        raise _Skip
    return handler.root


def _text_of(element: _Element) -> str:
    parts = [element.text]
    for child in element.children:
        parts.append(_text_of(child))
    return "".join(parts)


def _slug(text: str) -> str:
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")


def _load_tbx(path: str, problems: _Problems) -> list[Term]:
    root = _parse_xml(_read_bytes(path, MAX_XML_CSV_BYTES, problems), path, problems)
    if root.name == "martif":
        entry_names, lang_names = ("termEntry",), ("langSet",)
    elif root.name == "tbx":
        entry_names, lang_names = ("conceptEntry",), ("langSec",)
    else:
        problems.error(
            f"not a TBX file: the root element is <{root.name}>, expected <martif> (TBX 2008) "
            "or <tbx> (TBX v3)",
            path,
            root.line,
        )
        return []
    entries = [
        entry
        for text in root.find("text")
        for body in text.find("body")
        for entry in body.find(*entry_names)
    ]
    terms = []
    for entry in entries:
        if not problems.count_term(path, entry.line):
            break
        term = _tbx_entry(entry, lang_names, path, problems)
        if term is not None:
            terms.append(term)
    return terms


def _tbx_status(holder: _Element, builder: _TermBuilder) -> str | None:
    """'approved', 'forbidden' (or None after a reported problem) for a tig/termSec."""
    for element in _walk(holder):
        value = None
        if element.name == "administrativeStatus" or (
            element.name == "termNote" and element.attrs.get("type") == "administrativeStatus"
        ):
            value = _text_of(element).strip()
        if value is None:
            continue
        key = value.lower()
        if key in APPROVED_STATUSES:
            return f"approved{APPROVED_STATUSES[key]}"
        if key in FORBIDDEN_STATUSES:
            return "forbidden"
        builder.fail(
            f"unknown administrativeStatus '{value}' (expected preferredTerm-admn-sts, "
            "admittedTerm-admn-sts, deprecatedTerm-admn-sts or supersededTerm-admn-sts)",
            element.line,
        )
        return None
    return "approved1"


def _walk(element: _Element) -> Iterator[_Element]:
    for child in element.children:
        yield child
        yield from _walk(child)


def _tbx_entry(entry: _Element, lang_names, path: str, problems: _Problems) -> Term | None:
    builder = _TermBuilder(path, entry.line, problems)
    raw_id = entry.attrs.get("id", "").strip()
    if raw_id:
        builder.set_id(raw_id, entry.line)
    else:  # made from the first English term (else the first term) so messages can name it
        lang_sets = sorted(
            entry.find(*lang_names),
            key=lambda e: 0 if primary_language(e.attrs.get("lang") or "x") == "en" else 1,
        )
        texts = [
            _clean_form(_text_of(element))
            for lang_set in lang_sets
            for element in _walk(lang_set)
            if element.name == "term"
        ]
        builder.id = _derived_id(texts, f"entry-{entry.line}")
    for child in entry.children:
        if child.name == "note" or (
            child.name == "descrip" and child.attrs.get("type") in ("definition", "note")
        ):
            note = " ".join(_text_of(child).split())
            if note and builder.note is None:
                builder.note = note
    for lang_set in entry.find(*lang_names):
        tag = lang_set.attrs.get("lang")
        if tag is None:
            builder.fail(f"<{lang_set.name}> has no xml:lang", lang_set.line)
            continue
        forms: list[tuple[int, str]] = []
        forbidden: list[str] = []
        for holder in _walk(lang_set):
            if holder.name not in ("tig", "termGrp", "termSec"):
                continue
            term_elements = list(holder.find("term"))
            if not term_elements:
                continue
            text = _clean_form(_text_of(term_elements[0]))
            status = _tbx_status(holder, builder)
            if not text:
                builder.fail("empty <term>", term_elements[0].line)
            elif status == "forbidden":
                forbidden.append(text)
            elif status is not None:
                forms.append((int(status[-1]), text))
        if forms or forbidden:
            approved = [form for _, form in sorted(forms, key=lambda pair: pair[0])]
            builder.add_lang(tag, approved, forbidden, False, lang_set.line)
    return builder.build()


def _derived_id(forms: Sequence[str], fallback: str) -> str:
    for form in forms:
        slug = _slug(form)
        if slug and _ID.match(slug):
            return slug
    return fallback


# ---------------------------------------------------------------------------
# CSV

_CSV_COLUMNS = ("id", "note", "keep", "case_sensitive")


def _split_cell(cell: str) -> tuple[list[str], list[str]]:
    """``a|b|!c`` → approved [a, b], forbidden [c]; ``\\|`` is a literal bar and a leading
    ``\\!`` a literal ``!``."""
    parts = [part.replace("\x00", "|") for part in cell.replace("\\|", "\x00").split("|")]
    approved, forbidden = [], []
    for part in parts:
        part = part.strip()
        if part.startswith("\\!"):
            approved.append(part[1:])
        elif part.startswith("!"):
            if part[1:].strip():
                forbidden.append(part[1:].strip())
        elif part:
            approved.append(part)
    return approved, forbidden


def _load_csv(path: str, problems: _Problems) -> list[Term]:
    text = _decode(_read_bytes(path, MAX_XML_CSV_BYTES, problems), path, problems)
    try:
        rows = _csv_rows(text)
        header_line, header = next(rows, (1, []))
    except _CsvError as exc:
        problems.error(exc.message, path, exc.line)
        return []
    columns: list[str] = []
    for cell in header:
        name = cell.strip()
        if name.lower() in _CSV_COLUMNS:
            columns.append(name.lower())
            continue
        tag = canonical_tag(name)
        if tag is None:
            problems.error(
                f"unknown column '{name}' (expected id, note, keep, case_sensitive or a "
                "language tag such as en, zh-Hant)",
                path,
                header_line,
            )
            return []
        columns.append(tag)
    for name in set(columns):
        if columns.count(name) > 1:
            problems.error(f"column '{name}' is given twice", path, header_line)
            return []
    if "keep" not in columns and not any(c not in _CSV_COLUMNS for c in columns):
        problems.error("the header names no language column (nor keep)", path, header_line)
        return []
    terms = []
    try:
        for line, row in rows:
            if not any(cell.strip() for cell in row):
                continue
            if not problems.count_term(path, line):
                break
            term = _csv_term(row, columns, line, path, problems)
            if term is not None:
                terms.append(term)
    except _CsvError as exc:
        problems.error(exc.message, path, exc.line)
    return terms


class _CsvError(Exception):
    """A row the CSV reader refused, with the line where the row starts."""

    def __init__(self, message: str, line: int):
        super().__init__(message)
        self.message, self.line = message, line


def _csv_rows(text: str) -> Iterator[tuple[int, list[str]]]:
    """(line where the row starts, cells) of each row, read strictly: a quote never closed,
    or text after a closing quote, is a :class:`_CsvError` at the row's first line."""
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    previous = 0
    while True:
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            message = str(exc)
            if "unexpected end of data" in message or "EOF" in message:
                message = (
                    "a quoted cell opened in this row is never closed (the quote would take "
                    "the rest of the file into one cell)"
                )
            elif "expected after" in message:
                message = f"text after a closing quote ({message}); double a quote inside quotes"
            raise _CsvError(f"invalid CSV: {message}", previous + 1) from None
        yield previous + 1, row
        previous = reader.line_num


def _csv_term(row, columns, line, path, problems) -> Term | None:
    builder = _TermBuilder(path, line, problems)
    values = dict(zip(columns, row, strict=False))
    if len(row) > len(columns):
        builder.id = values.get("id", "").strip() or None
        builder.fail(f"row has {len(row)} cells but the header names {len(columns)} columns")
        return None
    if values.get("id", "").strip():
        builder.set_id(values["id"], line)
    else:
        forms = [
            form
            for column in columns
            if column not in _CSV_COLUMNS
            for form in _split_cell(values.get(column, ""))[0]
        ]
        ordered = [f for f in forms if f.isascii()] + forms
        builder.id = _derived_id([values.get("keep", ""), *ordered], f"row-{line}")
    builder.note = values.get("note", "").strip() or None
    keep = values.get("keep", "").strip()
    if keep:
        builder.keep = builder.form(keep, "'keep'", line)
    case_sensitive = False
    flag = values.get("case_sensitive", "").strip().lower()
    if flag in ("true", "yes", "1"):
        case_sensitive = True
    elif flag not in ("", "false", "no", "0"):
        builder.fail(f"case_sensitive must be true or false, not '{flag}'")
    for column in columns:
        if column in _CSV_COLUMNS:
            continue
        cell = values.get(column, "")
        if not cell.strip():
            continue
        approved, forbidden = _split_cell(cell)
        builder.add_lang(column, approved, forbidden, case_sensitive, line)
    return builder.build()


# ---------------------------------------------------------------------------
# Writing YAML (for ``glossary import``)


def to_yaml(glossary: Glossary) -> str:
    """The glossary in the CONTRACT §4 form: strings where one form says it all, lists for
    several approved forms, mappings where forbidden forms or case sensitivity are needed."""
    items = []
    for term in glossary.terms:
        item: dict[str, object] = {"id": term.id}
        if term.keep is not None:
            item["keep"] = term.keep
        if term.forbidden:
            item["forbidden"] = list(term.forbidden)
        for tag, entry in term.langs.items():
            approved: object = (
                entry.approved[0] if len(entry.approved) == 1 else list(entry.approved)
            )
            if entry.forbidden or entry.case_sensitive or not entry.approved:
                value: dict[str, object] = {}
                if entry.approved:
                    value["term"] = approved
                if entry.forbidden:
                    value["forbidden"] = list(entry.forbidden)
                if entry.case_sensitive:
                    value["case_sensitive"] = True
                item[tag] = value
            else:
                item[tag] = approved
        if term.note:
            item["note"] = term.note
        items.append(item)
    with collector_paused():
        return yaml.dump(
            {"terms": items},
            Dumper=_DUMPER,
            allow_unicode=True,
            sort_keys=False,
            width=100,
            default_flow_style=None,
        )


#: libyaml's emitter when PyYAML has it: the same text, four times faster.
_DUMPER: type = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


def import_glossary(source: str) -> tuple[Glossary, str]:
    """Read a TBX, CSV (or YAML) glossary and give it with its YAML text.

    Whatever ``check --glossary`` reads is converted, up to :data:`MAX_TERMS` terms.  The YAML
    text is read back (from memory) before it is returned: if it would not load as the same
    glossary, which would be a bug, an :class:`InputError` naming ``source`` says so instead
    of writing it.
    """
    glossary = load_file(source)
    text = to_yaml(glossary)
    shown = f"{source} (converted to YAML)"
    try:
        with collector_paused():
            again = _yaml_terms(text, shown, _Problems(strict=True))
    except InputError as error:
        raise InputError(
            f"the converted glossary does not read back ({error.describe()}); this is a bug",
            source,
        ) from None
    if tuple(again) != glossary.terms:
        raise InputError("the converted glossary does not read back the same (a bug)", source)
    return glossary, text


# ---------------------------------------------------------------------------
# Lint

_SEPARATORS = re.compile(r"[\s\-\u2010\u2011\u2012\u2013\u00ad]+")
_LATIN_CLASS = "A-Za-z0-9\u00c0-\u024f"
#: A space (separators are single spaces by then) not between two Latin characters.
_LONE_SPACE = re.compile(f"(?<![{_LATIN_CLASS}]) | (?![{_LATIN_CLASS}])")


def match_key(form: str, case_sensitive: bool = False) -> str:
    """The form as matching sees it: NFKC, case folded unless case-sensitive, hyphens and
    spaces as one space, and no space next to a non-Latin character (``PD 分離`` = ``PD分離``)."""
    text = form if form.isascii() else unicodedata.normalize("NFKC", form)
    if not case_sensitive:
        text = text.casefold()
    if text.isalnum():  # one word: no separator to fold (most forms)
        return text
    text = _SEPARATORS.sub(" ", text).strip()
    return _LONE_SPACE.sub("", text) if " " in text else text


def lint(glossary: Glossary, *, shadowing: bool = True) -> list[Problem]:
    """Contradictions in a glossary, as :class:`Problem` objects in file order.

    Errors (``glossary lint`` exits 2; ``check`` refuses the glossary):

    * two terms with the same id;
    * a form both approved and forbidden for the same term and language (after matching's
      normalisation: case unless case-sensitive, hyphen = space, full/half width);
    * one form approved for two terms in the same language — a match could not tell which
      term it is (keep terms count as approved in every language);
    * a form forbidden for one term and approved for another in the same language — text that
      follows the glossary would be reported.

    Warnings (printed, exit 0):

    * *shadowing* that makes counts differ between languages: matches never overlap and the
      longest form wins, so ``KV cache`` inside ``KV cache 量化`` counts for the longer term
      only.  That is harmless when the shorter term nests inside the longer one in every
      language both have; when it nests in some languages but not others, the shorter term
      is counted once more in the latter (and ``term-missing`` may report the former).
      Only checked with ``shadowing=True`` (the lint command); see :func:`_shadowing` for
      how the pairs of terms are found without comparing every pair.
    """
    found: list[Problem] = []

    def report(term: Term, message: str, severity: str = "error") -> None:
        found.append(Problem(term.path, term.line, f"term '{term.id}': {message}", severity))

    first: dict[str, Term] = {}
    for term in glossary.terms:
        if term.id in first:
            report(term, f"duplicate term id (first defined at {first[term.id].origin})")
        else:
            first[term.id] = term
    langs = sorted(glossary.languages())
    for term in glossary.terms:
        scopes = list(term.langs) if term.keep is None else ["*", *term.langs]
        for tag in scopes:
            entry = term.entry("und" if tag == "*" else tag)
            if entry is None or not entry.forbidden:
                continue
            where = "every language" if tag == "*" else tag
            seen = {match_key(form, entry.case_sensitive) for form in entry.approved}
            for form in entry.forbidden:
                key = match_key(form, entry.case_sensitive)
                if key in seen:
                    report(term, f"'{form}' is both approved and forbidden in {where}")
    # Forms compared across terms: folded (case-insensitively) unless both sides are
    # case-sensitive; a keep form ("*") is in every language.
    approved_by: dict[str, list[tuple[str, str, bool, Term, str]]] = {}

    def owner_of(term: Term, tag: str, key: str, exact: bool) -> tuple[Term, str] | None:
        """Another term with an approved form this form could not be told from, and where."""
        for other_tag, other_key, other_exact, other, _ in approved_by.get(key.casefold(), []):
            if other.id == term.id or not _same_scope(tag, other_tag):
                continue
            if exact and other_exact and key != other_key:
                continue
            return other, "every language" if "*" in (tag, other_tag) else tag
        return None

    for term in glossary.terms:
        for tag, key, form, exact in _approved_keys(term, langs):
            clash = owner_of(term, tag, key, exact)
            if clash:
                other, where = clash
                report(
                    term,
                    f"'{form}' is also an approved form of term '{other.id}' ({other.origin}) "
                    f"in {where}: a match could not tell the two apart",
                )
            approved_by.setdefault(key.casefold(), []).append((tag, key, exact, term, form))
    for term in glossary.terms:
        for tag, key, form, exact in _forbidden_keys(term, langs):
            clash = owner_of(term, tag, key, exact)
            if clash:
                owner, where = clash
                report(
                    term,
                    f"forbidden form '{form}' is an approved form of term '{owner.id}' "
                    f"({owner.origin}) in {where}",
                )
    if shadowing:
        found.extend(_shadowing(glossary, langs))
    return found


def _same_scope(tag: str, other: str) -> bool:
    return tag == other or "*" in (tag, other)


def _approved_keys(term: Term, langs: Sequence[str]):
    """(language or "*", match key, form, case-sensitive) of every approved form."""
    if term.keep is not None:
        yield "*", match_key(term.keep, True), term.keep, True
        return
    for tag in langs:
        entry = term.langs.get(tag)
        if entry is None:
            continue
        for form in entry.approved:
            yield tag, match_key(form, entry.case_sensitive), form, entry.case_sensitive


def _forbidden_keys(term: Term, langs: Sequence[str]):
    """(language or "*", match key, form, case-sensitive) of every forbidden form."""
    for form in term.forbidden:
        yield "*", match_key(form, term.keep is not None), form, term.keep is not None
    for tag, entry in term.langs.items():
        sensitive = entry.case_sensitive or term.keep is not None
        for form in entry.forbidden:
            yield tag, match_key(form, sensitive), form, sensitive


def _shadowing(glossary: Glossary, langs: Sequence[str]) -> list[Problem]:
    """The shadowing warnings of :func:`lint`, in the order of (outer term, inner term).

    A pair of terms is looked at when, in some language, a form of the inner term without
    spaces or hyphens is part of a form of the outer one.  Such pairs are found through an
    index (:func:`_containing_pairs`), not by comparing every pair, so the time grows with
    the terms and their containments, not with their square.  For each pair found, whether
    the inner form is *matched* inside the outer one in each language is
    :func:`parallelcheck.glossary.match.form_contains`; most answers are certain from the text alone
    (:func:`_contains_for_sure`), and the matcher only runs for the others.
    """
    from parallelcheck.glossary.match import form_contains

    terms = glossary.terms
    entries = {tag: [term.entry(tag) for term in terms] for tag in langs}
    texts = _FormTexts()
    # A term all of whose forms are matched only where their loose keys occur is looked for
    # only where its Latin forms may start (a word start): a match cannot start elsewhere.
    # A term with a dotless or dotted capital I (matched by i) has every position indexed.
    plain = [True] * len(terms)
    odd = [False] * len(terms)
    for tag in langs:
        for index, entry in enumerate(entries[tag]):
            for form in entry.approved if entry is not None else ():
                info = texts[form]
                plain[index] = plain[index] and info.plain_in(entry.case_sensitive)
                odd[index] = odd[index] or info.dotted_i
    # The forms of each term in each language, and the pairs of terms (inner × size + outer,
    # positions in ``terms``) whose loose keys are contained in each language.
    size = len(terms)
    forms_at = {
        tag: [None if e is None else tuple(texts[form] for form in e.approved) for e in column]
        for tag, column in entries.items()
    }
    contained: dict[str, set[int]] = {}
    for tag in langs:
        # Keys by term id: a repeated id (itself an error) takes its last term's forms.
        by_id = {term.id: forms for term, forms in zip(terms, forms_at[tag], strict=True) if forms}
        owned = [by_id.get(term.id, ()) for term in terms]
        contained[tag] = _containing_pairs(owned, plain, odd)
    pairs = set().union(*contained.values())

    def contains(long: _FormText, short: _FormText, tag: str, case_sensitive: bool) -> bool:
        sure = _contains_for_sure(long, short, case_sensitive)
        if sure is None:
            return form_contains(long.form, short.form, tag, case_sensitive)
        return sure

    found: list[tuple[tuple[int, int], Problem]] = []
    # Inner term first: the matcher compiles each inner form once while its pairs are looked at.
    for code in sorted(pairs):
        inner_index, outer_index = divmod(code, size)
        outer, inner = terms[outer_index], terms[inner_index]
        if inner.id == outer.id or (inner.keep is not None and outer.keep is not None):
            continue
        inside: list[str] = []
        outside: list[str] = []
        for tag in langs:  # sorted, so inside and outside are too
            shorts, longs = forms_at[tag][inner_index], forms_at[tag][outer_index]
            if shorts is None or longs is None:
                continue
            sensitive = entries[tag][inner_index].case_sensitive  # type: ignore[union-attr]
            if code not in contained[tag] and all(
                short.needs_loose(long, sensitive) for short in shorts for long in longs
            ):
                outside.append(tag)  # no form of one is part of a form of the other here
            elif any(contains(long, short, tag, sensitive) for short in shorts for long in longs):
                inside.append(tag)
            else:
                outside.append(tag)
        if inside and outside:
            problem = Problem(
                inner.path,
                inner.line,
                f"term '{inner.id}': its form is part of term '{outer.id}' "
                f"({outer.origin}) in {', '.join(inside)} but not in "
                f"{', '.join(outside)}: longest-match counting will differ between "
                "these languages",
                "warning",
            )
            found.append(((outer_index, inner_index), problem))
    return [problem for _, problem in sorted(found, key=lambda item: item[0])]


#: What ``\s`` matches (``str.isspace``) and the hyphens of :data:`_SEPARATORS`, deleted.
_NO_SEPARATORS = str.maketrans(
    "",
    "",
    "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006"
    "\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000-\u2010\u2011\u2012\u2013\u00ad",
)


def _loose_key(form: str) -> str:
    """``match_key(form)`` without its spaces: what the pairs of :func:`_shadowing` are
    found by."""
    if form.isascii():
        return form.lower().translate(_NO_SEPARATORS)
    return unicodedata.normalize("NFKC", form).casefold().translate(_NO_SEPARATORS)


def _containing_pairs(
    forms: Sequence[Sequence[_FormText]], plain: Sequence[bool], odd: Sequence[bool]
) -> set[int]:
    """``inner × len(forms) + outer`` for every two positions of ``forms`` where the loose key
    (:func:`_loose_key`) of a form of the inner is part of that of a form of the outer — for
    a ``plain`` inner's form that starts with a Latin letter or digit, only at a word start
    of the outer form (unless the outer is ``odd``: everywhere).  An empty key is part of
    every key.

    Every suffix of every key is listed with its owner and sorted, in three lists: those
    starting at a Latin word start, inside a Latin word, or elsewhere; the keys holding a
    given key are then the owners of the suffixes that start with it, a contiguous run found
    by bisection.  The list of suffixes inside words is only made when some form needs it.
    """
    needles: dict[tuple[str, bool], list[int]] = {}
    for owner, owned in enumerate(forms):
        for form in owned:
            anywhere = not (plain[owner] and form.latin_start)
            needles.setdefault((form.loose, anywhere), []).append(owner)
    inside_needed = any(anywhere and _LATIN_KEY.match(key) for key, anywhere in needles)
    # Each suffix carries its owner after a NUL, which sorts before every character, so one
    # string sort orders them; a key holding a NUL (never read from a file) is found by a
    # plain scan instead.
    lists: dict[str, list[str]] = {kind: [] for kind in "WIO"}
    odd_keys: list[tuple[str, int]] = []
    for owner, owned in enumerate(forms):
        for form in owned:
            key = form.loose
            if "\x00" in key:
                odd_keys.append((key, owner))
                continue
            tail = "\x00" + chr(owner + 0x100)
            for kind, starts in form.starts(inside_needed and not odd[owner], odd[owner]):
                lists[kind].extend([key[start:] + tail for start in starts])
    for suffixes in lists.values():
        suffixes.sort()
    size = len(forms)
    pairs: set[int] = set()
    for (needle, anywhere), inners in needles.items():
        if not needle:
            kinds = "WIO"
        elif _LATIN_KEY.match(needle):
            kinds = "WI" if anywhere else "W"
        else:
            kinds = "O"
        outers: set[int] = {owner for key, owner in odd_keys if needle in key}
        if "\x00" in needle:
            kinds = ""  # only a key holding a NUL can hold it
        for kind in kinds:
            suffixes = lists[kind]
            end = bisect.bisect_left(suffixes, needle)
            while end < len(suffixes) and suffixes[end].startswith(needle):
                outers.add(ord(suffixes[end][-1]) - 0x100)
                end += 1
        if len(outers) == 1 and len(inners) == 1 and inners[0] in outers:
            continue  # only the key itself
        pairs.update(inner * size + outer for inner in inners for outer in outers if outer != inner)
    return pairs


#: A key's character that is a Latin letter or digit (where word starts matter).
_LATIN_KEY = re.compile(f"[{_LATIN_CLASS}]")


class _FormText:
    """What :func:`_contains_for_sure` needs of one form, worked out once per lint."""

    __slots__ = ("ascii", "caseless", "first", "form", "hangul_end", "hangul_start", "keys")
    __slots__ += ("latin_end", "latin_start", "low", "norm", "plain", "text", "text_low")
    __slots__ += ("dotted_i", "loose")

    def __init__(self, form: str):
        self.form = form
        self.ascii = form.isascii()
        self.norm = form if self.ascii else unicodedata.normalize("NFKC", form)
        self.text = " ".join(self.norm.split())  # as the matcher compiles it
        self.low, self.text_low = self.norm.lower(), self.text.lower()
        first = _FIRST_WORD.match(self.text)
        self.first = first.group() if first else ""
        head, tail = self.text[:1], self.text[-1:]
        if self.ascii:
            self.caseless = False  # only asked of forms beyond ASCII
            self.latin_start, self.latin_end = head.isalnum(), tail.isalnum()
            self.hangul_start = self.hangul_end = False
        else:
            self.caseless = _is_caseless(self.first)
            self.latin_start = bool(_SCRIPT_LATIN.match(head))
            self.latin_end = bool(_SCRIPT_LATIN.match(tail))
            self.hangul_start = bool(_SCRIPT_HANGUL.match(head))
            self.hangul_end = bool(_SCRIPT_HANGUL.match(tail))
        self.keys: dict[bool, str] = {}
        # Matched only where its loose key is part of the other's, when it cannot take the
        # English plural that changes letters (-y → -ies) and its case folds plainly.
        self.plain = tail not in ("y", "Y") and (self.ascii or _is_caseless(self.text))
        self.loose = self.low.translate(_NO_SEPARATORS) if self.ascii else _loose_key(form)
        self.dotted_i = not self.ascii and ("\u0131" in self.norm or "\u0130" in self.norm)

    def plain_in(self, case_sensitive: bool) -> bool:
        """Whether the form is only matched where its loose key occurs (see ``plain``)."""
        return self.text[-1:] not in ("y", "Y") if case_sensitive else self.plain

    def starts(self, inside_too: bool, everywhere: bool) -> list[tuple[str, Sequence[int]]]:
        """The positions of the loose key where a suffix is indexed, by list: ``W`` where a
        Latin letter or digit starts a word (for an ASCII form; beyond ASCII, or
        ``everywhere``, every Latin position), ``I`` where one follows another in a word
        (only with ``inside_too``), ``O`` every other position and the key's end."""
        key = self.loose
        if not _LATIN_KEY.search(key):
            return [("O", range(len(key) + 1))]
        if everywhere or not self.ascii:
            latin = [i for i in range(len(key)) if _LATIN_KEY.match(key, i)]
            other = sorted(set(range(len(key) + 1)) - set(latin))
            return [("W", latin), ("O", other)]
        if key.isalnum():  # words of letters and digits: most forms
            words: list[int] = []
            offset = 0
            for word in _SEPARATORS.split(self.norm):
                if word:
                    words.append(offset)
                offset += len(word)
            found: list[tuple[str, Sequence[int]]] = [("W", words), ("O", [len(key)])]
            if inside_too:
                found.append(("I", sorted(set(range(len(key))) - set(words))))
            return found
        kinds: dict[str, list[int]] = {"W": [], "I": [], "O": []}
        position, previous = 0, ""
        for char in self.norm:  # ASCII with other signs (c++, node.js): character by character
            if char.isspace() or char == "-":  # not in the key
                previous = char
                continue
            kind = ("I" if previous.isalnum() else "W") if char.isalnum() else "O"
            kinds[kind].append(position)
            previous, position = char, position + 1
        kinds["O"].append(position)
        if not inside_too:
            del kinds["I"]
        return list(kinds.items())

    def needs_loose(self, outer: _FormText, case_sensitive: bool) -> bool:
        """Whether this form can only be matched inside ``outer`` where its loose key
        (:func:`_loose_key`) is part of the outer's: then the index alone says no."""
        if case_sensitive:
            return self.text[-1:] not in ("y", "Y")
        return self.plain and (outer.ascii or not self.ascii)

    def key(self, case_sensitive: bool) -> str:
        """:func:`match_key` of the form."""
        if case_sensitive not in self.keys:
            self.keys[case_sensitive] = match_key(self.norm, case_sensitive)
        return self.keys[case_sensitive]


#: Scripts without case (kana, CJK, Hangul), with spaces: no case folding can touch them.
_CASELESS_RUN = re.compile("[ \u3000-\u30ff\u3400-\u9fff\uac00-\ud7a3\u1100-\u11ff\u3130-\u318f]*")


def _is_caseless(text: str) -> bool:
    """Whether no character of ``text`` has case (so case-insensitive matching is exact)."""
    if _CASELESS_RUN.fullmatch(text):
        return True
    return all(char == char.lower() == char.upper() == char.casefold() for char in text)


class _FormTexts(dict):
    """:class:`_FormText` of each form met, made when first asked for."""

    def __missing__(self, form: str) -> _FormText:
        self[form] = info = _FormText(form)
        return info


_SCRIPT_LATIN = re.compile(f"[{_LATIN_CLASS}]")
_SCRIPT_HANGUL = re.compile("[\uac00-\ud7a3\u1100-\u11ff\u3130-\u318f]")
_FORM_SEPARATOR = re.compile("[ \t\n\r\u00a0\\-\u2010\u2011\u2012\u2013\u00ad]")
#: Characters next to which a Latin-script form's word boundary certainly holds, whatever
#: the case folding: ASCII that is no letter or digit, separators, kana, CJK, Hangul.
_FIRST_WORD = re.compile("[^ \t\n\r\u00a0\\-\u2010\u2011\u2012\u2013\u00ad]+")
_NOT_LATIN = re.compile(
    "[\x00-\x2f\x3a-\x40\x5b-\x60\x7b-\x7f\u00a0\u00ad\u2010-\u2013\u3000-\u30ff"
    "\u3400-\u9fff\uac00-\ud7a3\uff01-\uff0f]"
)


def _contains_for_sure(outer: _FormText, inner: _FormText, case_sensitive: bool) -> bool | None:
    """Whether :func:`parallelcheck.glossary.match.form_contains` (``short`` matched inside
    ``long``)
    is certainly true or certainly false, judged from the text alone; None when only the
    matcher can tell.

    True: the form's text occurs literally (or, all ASCII, but for case) where its word
    boundaries certainly hold (:func:`_bounded`).  False: the same forms as matching sees
    them, or no place where a match could start — the start of the form's first word, which
    the matcher needs literally but for case and the last letter an English inflection may
    change, occurs nowhere (or, for one ASCII word, see :func:`_ascii_word_may_match`).
    """
    if outer.loose == inner.loose and outer.key(case_sensitive) == inner.key(case_sensitive):
        return False  # (equal match keys have equal loose keys: most pairs need neither)
    text, norm = inner.text, outer.norm
    if not text or not inner.first or _FORM_SEPARATOR.match(text[0]):
        return None
    folded = not case_sensitive and inner.ascii and outer.ascii
    haystack, needle = (outer.low, inner.text_low) if folded else (norm, text)
    start = haystack.find(needle)
    while start >= 0:
        if _bounded(outer, inner, haystack, start, start + len(needle), folded):
            return True
        start = haystack.find(needle, start + 1)
    if folded and inner.latin_start and inner.latin_end and inner.first == text:
        return _ascii_word_may_match(haystack, needle)
    stem = inner.first
    if len(stem) == len(text) and re.search(r"[A-Za-z]{2,}$", stem):
        stem = stem[:-1]  # policy is matched as policies too
    if case_sensitive or (not folded and inner.caseless):
        return None if stem in norm else False
    if folded:
        return None if stem.lower() in haystack else False
    return None


def _bounded(
    outer: _FormText, inner: _FormText, haystack: str, start: int, end: int, folded: bool
) -> bool:
    """Whether the inner form, found literally at ``haystack[start:end]`` (the outer form's
    text, lowered when ``folded``), is certainly matched there: no Latin letter or digit
    touches a Latin end, no Hangul precedes a Hangul start and, when the form ends in Hangul
    (the matcher then refuses a match followed by Hangul that is no Korean ending, and
    searches on *past* it), no Hangul follows and no match can start earlier and overlap."""
    norm = outer.norm
    before = norm[start - 1] if start else ""
    after = norm[end] if end < len(norm) else ""
    if before and inner.latin_start and not _NOT_LATIN.match(before):
        return False
    if before and inner.hangul_start and _SCRIPT_HANGUL.match(before):
        return False
    if after and inner.latin_end and not _NOT_LATIN.match(after):
        return False
    if not inner.hangul_end:
        return True
    if after and _SCRIPT_HANGUL.match(after):
        return False
    # An earlier match would start with the form's first word, as the matcher compares it.
    if folded:
        return haystack.find(inner.first.lower()) == start
    return inner.caseless and haystack.find(inner.first) == start


def _ascii_word_may_match(haystack: str, word: str) -> bool | None:
    """For a one-word form of Latin letters and digits (``word``, lowered) in ASCII text
    (``haystack``, lowered) with no literal match on word boundaries: None when a match with
    an English plural or possessive ending may still start somewhere, else False.

    A match starts after no letter or digit with the word but its last letter; the endings
    the matcher allows after the whole word start with ``s``, ``e`` or an apostrophe (not a
    letter: such a match would have been literal), and a word in ``y`` may end ``ies``.
    """
    stem = word[:-1]
    start = haystack.find(stem)
    while start >= 0:
        if not start or not haystack[start - 1].isalnum():
            rest = haystack[start + len(stem) : start + len(stem) + 3]
            if rest[:1] == word[-1] and (rest[1:2] in ("s", "e") or not rest[1:2].isalnum()):
                return None
            if word[-1] == "y" and rest == "ies":
                return None
        start = haystack.find(stem, start + 1)
    return False


def lint_paths(paths: Sequence[str]) -> tuple[int, list[Problem]]:
    """Read glossaries as leniently as possible and lint them: (terms read, every problem).

    Unlike :func:`load_glossaries` this does not stop at the first problem, so ``glossary
    lint`` can list them all.
    """
    problems = _Problems(strict=False)
    try:
        files = glossary_files(paths)
    except InputError as error:
        return 0, [Problem(error.path or "", error.line, error.message)]
    terms: list[Term] = []
    with collector_paused():
        for path in files:
            terms.extend(_load_file(path, problems))
        glossary = Glossary(tuple(terms), tuple(files))  # no fingerprint: nothing is matched
        return len(terms), problems.found + lint(glossary)
