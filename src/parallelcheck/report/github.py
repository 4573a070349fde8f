"""``--format github``: GitHub Actions workflow commands, which show as annotations on a PR.

One line per finding and per location of a *deviating* version — the files that need the
fix::

    ::error file=articles/a/ja.md,line=25,title=missing-table::table (9 rows × 3 columns) …

``error`` findings become ``::error``, ``warning`` ``::warning`` and ``info`` ``::notice``.
A finding none of whose locations belongs to a deviating version (``missing-version``: the
missing version has no file) is annotated once, at its first location; a finding without any
location (none of the rules makes one) becomes one command without ``file`` and ``line``.

Values are escaped as the Actions runner expects: in the message ``%``, ``\\r`` and ``\\n``
become ``%25``, ``%0D`` and ``%0A``; in property values ``:`` and ``,`` also become ``%3A``
and ``%2C``.  The message ends with the article and section, so an annotation read on its
own still says where it belongs.

Before that, every control character (but the line ends), DEL, C1 control and bidirectional
override or isolate in article-derived text — message, article, section, path — is shown
escaped (``\\x1b``, ``\\u202e``; see :mod:`parallelcheck.report.inert`), so neither the
annotation nor the raw line printed to a terminal carries one.  A path holding such a character
is written escaped too, so its annotation cannot be attached to the file.
"""

from __future__ import annotations

from parallelcheck.model.finding import Finding, Location
from parallelcheck.report.base import Report, output_format
from parallelcheck.report.inert import inert

COMMANDS = {"error": "error", "warning": "warning", "info": "notice"}
_LINE_ENDS = "\r\n"  # kept by inert(): the escaping below percent-encodes them


def escape_data(text: str) -> str:
    """Escape a workflow command's message (article text is made inert first)."""
    text = inert(text, keep=_LINE_ENDS)
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """Escape a workflow command's property value."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def annotated_locations(finding: Finding) -> list[Location]:
    """The locations a finding is annotated at (see the module documentation)."""
    deviating = [loc for loc in finding.locations if loc.lang in finding.langs]
    if deviating:
        return deviating
    return list(finding.locations[:1])


def _message(finding: Finding) -> str:
    where = finding.article
    if finding.section:
        where += f" § {finding.section}"
    return f"{finding.message} [{where}]"


def workflow_commands(finding: Finding) -> list[str]:
    """The workflow command lines for one finding."""
    command = COMMANDS.get(finding.severity, "warning")
    title = escape_property(finding.rule)
    message = escape_data(_message(finding))
    locations = annotated_locations(finding)
    if not locations:
        return [f"::{command} title={title}::{message}"]
    return [
        f"::{command} file={escape_property(loc.path)},line={max(loc.line, 1)},"
        f"title={title}::{message}"
        for loc in locations
    ]


@output_format("github")
def render_github(report: Report) -> str:
    """Every finding as GitHub Actions annotations, in the report's order."""
    lines = [line for finding in report.findings for line in workflow_commands(finding)]
    return "".join(line + "\n" for line in lines)
