"""Article-derived text made inert before a format writes it.

Section titles, messages (which quote article text), excerpts, evidence, paths and article ids
come from files anyone can edit.  Written raw, a heading holding ``ESC[6A ESC[J`` erases the
report from a terminal, ``ESC]0;…BEL`` retitles the window, and a right-to-left override makes
a reviewer read text in an order other than the one stored.  Every format therefore passes
such text through this module; the characters the formats write themselves (the text format's
colour codes, line ends, markup) are never touched.

The *unsafe* characters are:

* the C0 controls U+0000–U+001F (tab, line feed and carriage return included), DEL U+007F and
  the C1 controls U+0080–U+009F (a terminal reads ``U+009B`` as CSI, like ``ESC [``);
* the bidirectional embeddings, overrides and isolates U+202A–U+202E (LRE, RLE, PDF, LRO, RLO)
  and U+2066–U+2069 (LRI, RLI, FSI, PDI), which reorder what follows them ("Trojan Source");
* the line and paragraph separators U+2028 and U+2029, which some viewers break lines at;
* U+DC80–U+DC9F: a file name that is not UTF-8 reaches a report with each undecodable byte as
  such a surrogate, and the command line writes it back as that byte — here a C1 control byte.
  (The other bytes of such a name, U+DCA0–U+DCFF, are left to be written back as they are.)

The bidirectional *marks* — LRM U+200E, RLM U+200F, ALM U+061C — are kept: Arabic and Hebrew
text needs them to place punctuation and numbers, and a mark cannot move text beyond its
neighbours.  Zero-width joiners and spaces are kept too (scripts and emoji need them).

An unsafe character is shown as the escape a Python or JSON string literal would use:
``\\t``, ``\\n``, ``\\r``, ``\\xNN`` below U+0100 (``\\x1b``, ``\\x7f``, ``\\x9b``) and
``\\uNNNN`` above (``\\u202e``).  A backslash already in the text is left alone, so an article
that literally writes ``\\x1b`` reads the same as one holding ESC; the JSON and SARIF formats
keep the exact characters for programs that need to tell them apart.

Where each format applies it:

* ``text`` and ``markdown``: every unsafe character is escaped — a tab too, since inside one
  line of a report it jumps to a tab stop and hides what it stands for (Markdown first turns
  line breaks into spaces, as it always has);
* ``github``: every unsafe character but the line ends, which stay part of the annotation and are
  percent-encoded (``%0A``, ``%0D``) as the Actions runner expects, so no raw control reaches a
  log or a terminal;
* ``html``: every unsafe character but line feed and tab, which are the layout of a code block
  or paragraph the page shows with ``white-space: pre`` / ``pre-wrap``;
* ``json`` and ``sarif``: the text is data and stays exactly as the article holds it; the
  document is written with JSON's own ``\\uNNNN`` escapes for every unsafe character
  (:func:`json_inert`), so the parsed value is the original but the bytes are plain.
"""

from __future__ import annotations

import re

# The unsafe characters above U+001F: DEL and C1, bidirectional controls, separators, C1 bytes
# of a file name.  ``json.dumps`` escapes the C0 controls itself.
_ABOVE_C0 = "\x7f-\x9f\u202a-\u202e\u2066-\u2069\u2028\u2029\udc80-\udc9f"
#: Every character that is escaped (see the module documentation).
UNSAFE = re.compile(f"[\x00-\x1f{_ABOVE_C0}]")
_JSON_RAW = re.compile(f"[{_ABOVE_C0}]")

_SHORT = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}


def escape_char(char: str) -> str:
    """The visible escape of one unsafe character: ``\\t``, ``\\x1b``, ``\\u202e``."""
    if char in _SHORT:
        return _SHORT[char]
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def inert(text: str, keep: str = "") -> str:
    """``text`` with every unsafe character escaped, except those listed in ``keep``."""
    if UNSAFE.search(text) is None:
        return text
    return UNSAFE.sub(lambda m: m.group() if m.group() in keep else escape_char(m.group()), text)


def json_inert(document: str) -> str:
    """A JSON document with every unsafe character written as a ``\\uNNNN`` escape.

    ``json.dumps`` already escapes U+0000–U+001F; with ``ensure_ascii=False`` it writes DEL, C1,
    the bidirectional controls, the separators and the C1 bytes of file names raw.  Those can only
    stand inside JSON strings, where ``\\uNNNN`` means the same character: the document parses
    to the same data.  (The line ends and spaces between the tokens are left as they are.)
    """
    if _JSON_RAW.search(document) is None:
        return document
    return _JSON_RAW.sub(lambda m: f"\\u{ord(m.group()):04x}", document)
