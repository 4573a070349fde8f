"""Baselines: accept today's findings so that only new ones fail a run.

``parallelcheck baseline`` writes every current finding to a baseline file;
``parallelcheck check --baseline FILE`` then drops the findings the file lists.  A finding is
matched by rule, article, the deviating and reference versions and a *content fingerprint* —
a hash of its section and message, which name the things that differ but never a line
number — so a baseline survives edits that only shift lines.  Each baseline entry absorbs at
most one finding: if the same difference appears twice where it appeared once, one is new.

The file is JSON (``schema: parallelcheck/baseline/v1``), sorted, written atomically.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Iterable

from parallelcheck.errors import InputError
from parallelcheck.finding import Finding
from parallelcheck.safe_read import MISSING, TOO_LARGE, ReadRefused, read_capped

SCHEMA = "parallelcheck/baseline/v1"
MAX_BYTES = 50 * 1024 * 1024

Key = tuple[str, str, tuple[str, ...], tuple[str, ...], str]


def fingerprint(finding: Finding) -> str:
    """A hash of what the finding says, without where it says it."""
    content = "\x1f".join((finding.rule, finding.article, finding.section, finding.message))
    return hashlib.sha256(content.encode("utf-8")).hexdigest()[:32]


def key(finding: Finding) -> Key:
    return (
        finding.rule,
        finding.article,
        finding.langs,
        finding.reference_langs,
        fingerprint(finding),
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
                "fingerprint": fingerprint(f),
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
        text = read_capped(path, MAX_BYTES, what="baseline file").decode("utf-8")
    except ReadRefused as refused:
        if refused.kind == MISSING:
            raise InputError(
                "baseline file not found (write one with 'parallelcheck baseline')", path
            ) from None
        if refused.kind == TOO_LARGE:
            raise
        raise InputError(f"cannot read the baseline file: {refused.message}", path) from None
    except UnicodeDecodeError as error:
        raise InputError(f"cannot read the baseline file: {error}", path) from None
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise InputError(f"not valid JSON: {error.msg}", path, error.lineno) from None
    if not isinstance(document, dict) or document.get("schema") != SCHEMA:
        raise InputError(f"not a parallelcheck baseline (expected schema {SCHEMA})", path)
    entries: Counter[Key] = Counter()
    for number, entry in enumerate(document.get("findings") or [], 1):
        try:
            entries[
                (
                    str(entry["rule"]),
                    str(entry["article"]),
                    tuple(entry["langs"]),
                    tuple(entry["reference_langs"]),
                    str(entry["fingerprint"]),
                )
            ] += 1
        except (KeyError, TypeError):
            raise InputError(
                f"baseline entry {number} lacks rule, article, langs, "
                "reference_langs or fingerprint",
                path,
            ) from None
    return entries


def without_baselined(findings: Iterable[Finding], baseline: Counter[Key]) -> list[Finding]:
    """The findings the baseline does not account for, in their order."""
    remaining = Counter(baseline)
    kept = []
    for found in findings:
        found_key = key(found)
        if remaining[found_key] > 0:
            remaining[found_key] -= 1
        else:
            kept.append(found)
    return kept
