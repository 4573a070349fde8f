"""A finding's identity from one run to the next: what it is about, not how it is worded.

Baselines (``parallelcheck baseline``) and SARIF's ``partialFingerprints`` recognise a
finding by its *fingerprint*: a hash of its rule, its article, the versions that differ, the
versions they are compared with, and its *subject* — what the message names:

* the texts it quotes (“…”): an excerpt of the element, a value, a heading;
* outside quotes, its values: the words holding a digit or one of ``/ : # @``, or a dot
  between two word characters (a count, a ratio, a link target, a path, a host name) — not
  a line number (``line 26``, ``lines 4–9``) and not one of the finding's language tags.

The subject is taken as a multiset (sorted), so the order the words come in does not count
either.  The wording around it is left out: a message reworded keeps its fingerprint (as the
messages of every rule were in 0.2), and so does a finding whose lines shift or whose section
is renamed or moved.  Two findings of one rule with the same subject, versions and article
have the same fingerprint; a baseline counts them (each entry absorbs one finding).
"""

from __future__ import annotations

import hashlib
import re

from parallelcheck.model.finding import Finding

#: A quoted text of a message (messages quote with “ and ”; a quote holds no ”).
_QUOTED = re.compile(r"“([^”]*)”")
#: A line reference of a message, left out of its subject.
_LINE_REFERENCE = re.compile(r"\blines?\s+\d+(?:\s*[–-]\s*\d+)?")
#: A value word outside quotes.
_VALUE = re.compile(r"[^\s]*(?:\d|[/:#@]|\w\.\w)[^\s]*")
#: What a value word may carry around it from the sentence.
_SENTENCE_PUNCTUATION = "()[],;"


def subject(message: str, langs: tuple[str, ...] = ()) -> list[str]:
    """What *message* names (see the module's docstring), sorted; *langs* are the finding's
    language tags (never part of its subject)."""
    quoted = _QUOTED.findall(message)
    rest = _LINE_REFERENCE.sub(" ", _QUOTED.sub(" ", message))
    tags = {lang.casefold() for lang in langs}
    values = []
    for word in _VALUE.findall(rest):
        word = word.strip(_SENTENCE_PUNCTUATION)
        if word.rstrip(".:").casefold() not in tags and word:
            values.append(word)
    return sorted(["“" + text for text in quoted] + values)


def fingerprint(
    rule: str,
    article: str,
    langs: tuple[str, ...],
    reference_langs: tuple[str, ...],
    message: str,
) -> str:
    """The fingerprint of a finding given by its parts (a baseline entry keeps them)."""
    parts = [
        rule,
        article,
        ",".join(langs),
        ",".join(reference_langs),
        *subject(message, (*langs, *reference_langs)),
    ]
    # a file name that is not UTF-8 counts by its bytes, as the command line writes it
    return hashlib.sha256("\x1f".join(parts).encode("utf-8", "surrogateescape")).hexdigest()[:32]


def finding_fingerprint(finding: Finding) -> str:
    """The fingerprint of *finding*."""
    return fingerprint(
        finding.rule, finding.article, finding.langs, finding.reference_langs, finding.message
    )
