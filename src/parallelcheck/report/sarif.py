"""``--format sarif``: one SARIF 2.1.0 log, for code-scanning tools and SARIF viewers.

The log has one run.  Its ``tool.driver`` lists every rule the report knows
(:meth:`~parallelcheck.report.base.Report.rule_catalogue`): id, a PascalCase name, the summary as
``shortDescription``, the first paragraph of the rule's documentation as ``fullDescription``,
the whole documentation as ``help`` and the default severity as
``defaultConfiguration.level``.

Each finding is one ``result``: ``ruleId`` and ``ruleIndex``, ``level`` (``error``, ``warning``,
or ``note`` for ``info``), the message, the deviating versions' lines as its ``locations``
(the files to fix: a code-scanning service shows the result there) and the other versions'
lines — the reference versions the deviating ones were compared with — as its
``relatedLocations`` (in SARIF, the locations that help to understand a result), each in
the finding's order.  A finding located in no deviating version (``missing-version``: the
version has no file) is shown at its first location, the others being related.  Each
location's own message names its version and role; related locations are numbered
(``id``) from 1.  Article, section, versions and evidence are kept in the result's
``properties``.

``partialFingerprints["parallelcheck/v2"]`` is a SHA-256 of the baseline's fingerprint
(:mod:`parallelcheck.model.fingerprint`: rule, article, deviating and reference versions and
what the message names) and the section's title — not of line numbers or of the message's
wording, so a finding keeps its identity while unrelated edits move it or a release rewords
it.  The output depends only on the report: the same findings give
byte-identical logs.

Article text stays data: messages, sections and evidence hold exactly what the articles hold.
The log is written with JSON's own escapes for control characters, DEL, C1 controls and
bidirectional overrides and isolates (``\\u001b``, ``\\u202e``; see
:func:`~parallelcheck.report.inert.json_inert`), so its bytes carry none of them raw.  A viewer
shows the parsed text, and it is that viewer's business to show such characters visibly.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any
from urllib.parse import quote

from parallelcheck.model.finding import Finding, Location
from parallelcheck.model.fingerprint import finding_fingerprint
from parallelcheck.report.base import Report, RuleInfo, output_format
from parallelcheck.report.inert import json_inert

SARIF_VERSION = "2.1.0"
SARIF_SCHEMA = (
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
)
FINGERPRINT_KEY = "parallelcheck/v2"
LEVELS = {"error": "error", "warning": "warning", "info": "note"}

# Characters left as they are in a relative URI reference (RFC 3986 pchar and "/"), except ":",
# which would make a first path segment look like a scheme.
_URI_SAFE = "/!$&'()*+,;=@-._~"


def sarif_level(severity: str) -> str:
    """The SARIF level of a parallelcheck severity (unknown ones count as warnings)."""
    return LEVELS.get(severity, "warning")


def rule_name(rule_id: str) -> str:
    """A rule's SARIF ``name``: its id in PascalCase (``missing-table`` → ``MissingTable``)."""
    return "".join(part[:1].upper() + part[1:] for part in rule_id.split("-") if part)


def artifact_uri(path: str) -> str:
    """A finding's POSIX path as a relative URI reference (plain paths are unchanged)."""
    return quote(path, safe=_URI_SAFE, errors="surrogateescape")


def fingerprint(finding: Finding) -> str:
    """A stable identity for a finding: the baseline's fingerprint
    (:mod:`parallelcheck.model.fingerprint`: rule, article, versions and what the message
    names, not its wording or lines) with the section's title, so that the same difference in
    two sections of one file is two alerts."""
    return hashlib.sha256(
        "\x1f".join((finding_fingerprint(finding), finding.section)).encode(
            "utf-8", "surrogateescape"
        )
    ).hexdigest()


def _first_paragraph(text: str) -> str:
    paragraph = text.strip().split("\n\n", 1)[0]
    return " ".join(paragraph.split())


def _rule_descriptor(rule_id: str, info: RuleInfo) -> dict[str, Any]:
    summary = info.summary or rule_id
    doc = info.doc.strip() or summary
    descriptor: dict[str, Any] = {
        "id": rule_id,
        "name": rule_name(rule_id),
        "shortDescription": {"text": summary},
        "fullDescription": {"text": _first_paragraph(doc)},
        "help": {"text": doc},
    }
    if info.severity:
        descriptor["defaultConfiguration"] = {"level": sarif_level(info.severity)}
    return descriptor


def _location(finding: Finding, location: Location) -> dict[str, Any]:
    return {
        "physicalLocation": {
            "artifactLocation": {"uri": artifact_uri(location.path)},
            "region": {"startLine": max(location.line, 1)},
        },
        "message": {"text": f"{location.lang}: {finding.role(location.lang)}"},
    }


def _result(finding: Finding, rule_index: int) -> dict[str, Any]:
    shown, related = finding.shown_and_related()
    result: dict[str, Any] = {
        "ruleId": finding.rule,
        "ruleIndex": rule_index,
        "level": sarif_level(finding.severity),
        "message": {"text": finding.message},
        "locations": [_location(finding, loc) for loc in shown],
    }
    if related:
        result["relatedLocations"] = [
            {"id": number, **_location(finding, loc)} for number, loc in enumerate(related, start=1)
        ]
    return result | {
        "partialFingerprints": {FINGERPRINT_KEY: fingerprint(finding)},
        "properties": {
            "article": finding.article,
            "section": finding.section,
            "langs": list(finding.langs),
            "referenceLangs": list(finding.reference_langs),
            "severity": finding.severity,
            "evidence": finding.evidence,
        },
    }


def sarif_log(report: Report) -> dict[str, Any]:
    """The SARIF log of a report as a JSON-ready mapping."""
    catalogue = report.rule_catalogue()
    index = {rule_id: number for number, rule_id in enumerate(catalogue)}
    driver = {
        "name": "parallelcheck",
        "version": report.tool_version,
        "rules": [_rule_descriptor(rule_id, info) for rule_id, info in catalogue.items()],
    }
    return {
        "$schema": SARIF_SCHEMA,
        "version": SARIF_VERSION,
        "runs": [
            {
                "tool": {"driver": driver},
                "columnKind": "unicodeCodePoints",
                "results": [_result(f, index[f.rule]) for f in report.findings],
            }
        ],
    }


@output_format("sarif")
def render_sarif(report: Report) -> str:
    """The report as one SARIF 2.1.0 JSON document."""
    return json_inert(json.dumps(sarif_log(report), ensure_ascii=False, indent=2)) + "\n"
