"""Reading CSV glossaries.

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
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator

from parallelcheck.glossary.build import (
    MAX_XML_CSV_BYTES,
    _decode,
    _derived_id,
    _Problems,
    _read_bytes,
    _TermBuilder,
)
from parallelcheck.glossary.model import Term
from parallelcheck.text.langtag import canonical_tag

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
