"""``--format json``: exactly one JSON document as docs/findings.md describes it.

Article text stays data: ids, sections, messages, paths and evidence parse to exactly what the
articles and file names hold.  The document is written with JSON's own escapes for control
characters, DEL, C1 controls and bidirectional overrides and isolates (``\\u001b``,
``\\u202e``; see :func:`~parallelcheck.report.inert.json_inert`), so ``cat`` of the file
cannot drive a terminal or reorder a line, while a program reads back the original characters.

The document's JSON Schema (draft 2020-12, ``$id`` ``urn:parallelcheck:findings:v1``) ships
with the package as ``findings.schema.json`` beside this module: :func:`findings_schema`
reads it, ``parallelcheck schema`` prints it, and ``docs/findings.schema.json`` is a copy of
it that a test keeps equal.
"""

from __future__ import annotations

import json
from importlib.resources import files

from parallelcheck.report.base import Report, output_format
from parallelcheck.report.inert import json_inert

SCHEMA = "parallelcheck/findings/v1"
SCHEMA_FILE = "findings.schema.json"


def findings_schema() -> str:
    """The JSON Schema of the findings document, as the package ships it."""
    return files(__package__).joinpath(SCHEMA_FILE).read_text(encoding="utf-8")


@output_format("json")
def render_json(report: Report) -> str:
    """The findings document: schema, tool, articles with their versions, findings, summary."""
    document = {
        "schema": SCHEMA,
        "tool": {"name": "parallelcheck", "version": report.tool_version},
        "articles": [
            {"id": a.id, "source": a.source, "versions": {lang: a.paths[lang] for lang in a.langs}}
            for a in report.articles
        ],
        "findings": [f.as_dict() for f in report.findings],
        "summary": report.summary(),
    }
    return json_inert(json.dumps(document, ensure_ascii=False, indent=2)) + "\n"
