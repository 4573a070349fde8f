"""Reading TBX glossaries (TBX 2008 and TBX v3).

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
"""

from __future__ import annotations

import xml.sax
import xml.sax.handler
from collections.abc import Iterator
from dataclasses import dataclass, field

from parallelcheck.glossary.build import (
    MAX_XML_CSV_BYTES,
    _clean_form,
    _derived_id,
    _Problems,
    _read_bytes,
    _Skip,
    _TermBuilder,
)
from parallelcheck.glossary.model import Term
from parallelcheck.text.langtag import primary_language
from parallelcheck.text.regexes import compile_pattern

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


_EXTERNAL_DOCTYPE = compile_pattern(
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
