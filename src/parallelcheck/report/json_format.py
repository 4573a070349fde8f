"""``--format json``: exactly one JSON document per CONTRACT §2."""

from __future__ import annotations

import json

from parallelcheck.report.base import Report, output_format

SCHEMA = "parallelcheck/findings/v1"


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
    return json.dumps(document, ensure_ascii=False, indent=2) + "\n"
