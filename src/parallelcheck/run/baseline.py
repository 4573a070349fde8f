"""Baselines: accept today's findings so that only new ones fail a run.

``parallelcheck baseline`` writes every current finding to a baseline file;
``parallelcheck check --baseline FILE`` then drops the findings the file lists.  A finding is
matched by rule, article, the deviating and reference versions and its *fingerprint*
(:mod:`parallelcheck.model.fingerprint`: what its message names — quoted texts and values —
never a line number, a section title or the wording around them), so a baseline survives
edits that only shift lines and releases that reword the messages.  Each baseline entry
absorbs at most one finding: if the same difference appears twice where it appeared once, one
is new.

The file is JSON (``schema: parallelcheck/baseline/v2``), sorted, written atomically.  A file
of the first schema (``parallelcheck/baseline/v1``, whose fingerprints hashed the section and
the message's words) is read too: each entry's fingerprint is made again from the message it
recorded.  A file that is not a usable baseline is an
:class:`~parallelcheck.errors.InputError` naming the file and the line: invalid JSON, nesting
too deep for the JSON reader, a number of more digits than Python converts (4,300),
``findings`` that is not a list, an entry that is not an object of strings (``rule``,
``article``, ``fingerprint``; ``message`` in a v1 file) and lists of strings (``langs``,
``reference_langs``).
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Iterable

from parallelcheck.errors import InputError, describe_kind
from parallelcheck.files.safe_read import MISSING, TOO_LARGE, ReadRefused, read_capped
from parallelcheck.model.finding import Finding
from parallelcheck.model.fingerprint import finding_fingerprint, fingerprint
from parallelcheck.text.regexes import compile_pattern

SCHEMA = "parallelcheck/baseline/v2"
#: The first schema: its fingerprints are made again from the messages its entries recorded.
SCHEMA_V1 = "parallelcheck/baseline/v1"
MAX_BYTES = 50 * 1024 * 1024

Key = tuple[str, str, tuple[str, ...], tuple[str, ...], str]


def key(finding: Finding) -> Key:
    return (
        finding.rule,
        finding.article,
        finding.langs,
        finding.reference_langs,
        finding_fingerprint(finding),
    )


def render(findings: Iterable[Finding]) -> str:
    """The baseline file's text for these findings."""
    entries = sorted(
        (
            {
                "rule": f.rule,
                "article": f.article,
                "langs": list(f.langs),
                "reference_langs": list(f.reference_langs),
                "fingerprint": finding_fingerprint(f),
                "message": f.message,
            }
            for f in findings
        ),
        key=lambda e: (e["article"], e["rule"], e["fingerprint"], e["langs"]),
    )
    return json.dumps({"schema": SCHEMA, "findings": entries}, ensure_ascii=False, indent=2) + "\n"


def load(path: str) -> Counter[Key]:
    """The entries of a baseline file, counted; a clear input error when it is unusable."""
    try:  # a regular file of at most MAX_BYTES (checked while reading): never a FIFO or device
        data = read_capped(path, MAX_BYTES, what="baseline file")
    except ReadRefused as refused:
        if refused.kind == MISSING:
            raise InputError(
                "baseline file not found (write one with 'parallelcheck baseline')", path
            ) from None
        if refused.kind == TOO_LARGE:
            raise
        raise InputError(f"cannot read the baseline file: {refused.message}", path) from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise InputError(f"baseline file is not UTF-8 text: {error.reason}", path, line) from None
    return _entries(_parse(text, path), text, path)


def _parse(text: str, path: str) -> object:
    """The JSON document; every way it cannot be read is an :class:`InputError` at its line."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise InputError(f"not valid JSON: {error.msg}", path, error.lineno) from None
    except RecursionError:
        raise InputError(
            f"not a baseline: JSON nested more than {MAX_DEPTH} levels deep",
            path,
            _line(text, _too_deep(text)),
        ) from None
    except ValueError:  # an integer of more digits than Python converts
        number = _LONG_NUMBER.search(text)
        digits = f"{len(number.group().lstrip('-')):,} " if number else "too many "
        raise InputError(
            f"not a baseline: a number of {digits}digits (more than Python reads)",
            path,
            _line(text, number.start() if number else 0),
        ) from None


def _entries(document: object, text: str, path: str) -> Counter[Key]:
    """The counted entries of a parsed baseline, checked one by one."""
    if not isinstance(document, dict):
        raise InputError(
            f"not a parallelcheck baseline: expected a JSON object with 'schema' and "
            f"'findings', not {_kind(document)}",
            path,
            _line(text, len(text) - len(text.lstrip())),
        )
    keys, items = _positions(text)
    schema = document.get("schema")
    if schema not in (SCHEMA, SCHEMA_V1):
        raise InputError(
            f"not a parallelcheck baseline (expected schema {SCHEMA})", path, keys.get("schema", 1)
        )
    findings = document.get("findings")
    if findings is None:
        findings = []
    if not isinstance(findings, list):
        raise InputError(
            f"'findings' must be a list of entries, not {_kind(findings)}",
            path,
            keys.get("findings", 1),
        )
    entries: Counter[Key] = Counter()
    for number, entry in enumerate(findings, 1):
        line = items[number - 1] if number <= len(items) else keys.get("findings", 1)
        entries[_entry_key(entry, number, path, line, schema == SCHEMA_V1)] += 1
    return entries


def _entry_key(entry: object, number: int, path: str, line: int, first_schema: bool) -> Key:
    """The key of one baseline entry, or an :class:`InputError` saying what is wrong; in a
    file of the first schema, its fingerprint made again from its message."""
    if not isinstance(entry, dict):
        raise InputError(
            f"baseline entry {number} must be an object, not {_kind(entry)}", path, line
        )
    for name in ("rule", "article", "fingerprint", *(("message",) if first_schema else ())):
        if not isinstance(entry.get(name), str):
            raise InputError(
                f"baseline entry {number}: '{name}' must be a string, not "
                f"{_kind(entry.get(name)) if name in entry else 'missing'}",
                path,
                line,
            )
    for name in ("langs", "reference_langs"):
        value = entry.get(name)
        if not isinstance(value, list) or not all(isinstance(tag, str) for tag in value):
            raise InputError(
                f"baseline entry {number}: '{name}' must be a list of language tags, not "
                f"{_kind(value) if name in entry else 'missing'}",
                path,
                line,
            )
    rule, article = entry["rule"], entry["article"]
    langs, reference = tuple(entry["langs"]), tuple(entry["reference_langs"])
    if first_schema:
        return (
            rule,
            article,
            langs,
            reference,
            fingerprint(*(rule, article, langs, reference), entry["message"]),
        )
    return rule, article, langs, reference, entry["fingerprint"]


MAX_DEPTH = 100
_SPACE = compile_pattern(r"[ \t\n\r]*")
_LONG_NUMBER = compile_pattern(r"-?[0-9]{1000,}")
_JSON_TOKEN = compile_pattern(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')


def _kind(value: object) -> str:
    return describe_kind(value, null="null", mapping="an object")


def _line(text: str, index: int) -> int:
    return text.count("\n", 0, index) + 1


def _too_deep(text: str) -> int:
    """Where arrays and objects first nest deeper than :data:`MAX_DEPTH` (strings skipped)."""
    depth = 0
    for token in _JSON_TOKEN.finditer(text):
        if token.group() in ("[", "{"):
            depth += 1
            if depth > MAX_DEPTH:
                return token.start()
        elif token.group() in ("]", "}"):
            depth -= 1
    return 0


def _positions(text: str) -> tuple[dict[str, int], list[int]]:
    """The line of each top-level key of a valid JSON object, and of each item of its
    ``findings`` list (the JSON reader keeps no positions)."""
    decoder = json.JSONDecoder()
    keys: dict[str, int] = {}
    items: list[int] = []
    pos = _SPACE.match(text, 0).end() + 1  # past the opening brace
    while True:
        pos = _SPACE.match(text, pos).end()
        if text[pos] == "}":
            return keys, items
        if text[pos] == ",":
            pos = _SPACE.match(text, pos + 1).end()
        start = pos
        name, pos = decoder.raw_decode(text, pos)
        keys[name] = _line(text, start)
        pos = _SPACE.match(text, pos).end() + 1  # past the colon
        pos = _SPACE.match(text, pos).end()
        if name == "findings" and text[pos] == "[":
            items = []
            pos += 1
            while True:
                pos = _SPACE.match(text, pos).end()
                if text[pos] == "]":
                    pos += 1
                    break
                if text[pos] == ",":
                    pos = _SPACE.match(text, pos + 1).end()
                items.append(_line(text, pos))
                _, pos = decoder.raw_decode(text, pos)
        else:
            _, pos = decoder.raw_decode(text, pos)


def by_article(baseline: Counter[Key]) -> defaultdict[str, Counter[Key]]:
    """The baseline's entries by article id (every key names its article), so that each
    article's findings are matched against its own entries only: the same findings are left
    out as when the whole run's findings are matched at once."""
    split: defaultdict[str, Counter[Key]] = defaultdict(Counter)
    for entry, count in baseline.items():
        split[entry[1]][entry] = count
    return split


def without_baselined(findings: Iterable[Finding], baseline: Counter[Key]) -> list[Finding]:
    """The findings the baseline does not account for, in their order.

    An entry also accounts for a finding that names its two sides the other way round
    (:func:`swapped_key`): before 0.3 a section or block only translations have was
    reported as missing from the source, the source among the deviating versions; it is now
    reported in the translations that have it, and a baseline written before still holds
    it."""
    remaining = Counter(baseline)
    kept = []
    for found in findings:
        for found_key in (key(found), swapped_key(found)):
            if remaining[found_key] > 0:
                remaining[found_key] -= 1
                break
        else:
            kept.append(found)
    return kept


def swapped_key(finding: Finding) -> Key:
    """The key of *finding* with its deviating and reference versions exchanged."""
    sides = (finding.reference_langs, finding.langs)
    return (
        finding.rule,
        finding.article,
        *sides,
        fingerprint(finding.rule, finding.article, *sides, finding.message),
    )
