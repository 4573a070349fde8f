"""``parallelcheck lsp``: a Language Server that shows an article's findings in the editor.

When a version file is opened or saved, the server checks the file's whole article set as
``parallelcheck check FILE`` does (the configuration found from the file, the glossary, the
result cache) and publishes, for every version file of the set, its diagnostics: one per
finding and deviating version, on the finding's line in that file, with the rule as its
``code``, the severity (error, warning, information) and the message; the finding's other
versions — the reference versions the file was compared with — are its related information,
each at its own line and named with its version and role, so the editor can jump to the
line to compare.  A finding located in no deviating version (``missing-version``) is shown at
its first location.  Every version file of the set gets its list, an empty one when nothing
is left, so fixed findings disappear from files that are not open too.

The check reads the files on disk: what is saved, which on open is what the editor shows.
A file that belongs to no article gets no diagnostics; a configuration or glossary that
cannot be read is shown as an error message (``window/showMessage``) naming file and line.
Paths are resolved against the server's working directory, the folder the editor starts it in.

Speaks LSP over standard input and output through pygls, the optional extra ``lsp``
(``pip install "parallelcheck[lsp]"``).
"""

from __future__ import annotations

import os
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from parallelcheck import __version__
from parallelcheck.errors import InputError
from parallelcheck.model.finding import Finding, Location

SEVERITIES = {
    "error": lsp.DiagnosticSeverity.Error,
    "warning": lsp.DiagnosticSeverity.Warning,
    "info": lsp.DiagnosticSeverity.Information,
}


def file_uri(path: str, cwd: str) -> str:
    """The ``file:`` URI of a path as findings write it (relative to ``cwd``)."""
    return Path(cwd, path).resolve().as_uri()


def line_range(line: int) -> lsp.Range:
    """The whole of a 1-based line (line 0, "no line", is the first)."""
    start = max(line, 1) - 1
    return lsp.Range(lsp.Position(start, 0), lsp.Position(start + 1, 0))


def diagnostics(findings: Iterable[Finding], cwd: str) -> dict[str, list[lsp.Diagnostic]]:
    """The diagnostics of ``findings`` by file URI (see the module's docstring)."""
    found: dict[str, list[lsp.Diagnostic]] = defaultdict(list)
    for finding in findings:
        shown, related = finding.shown_and_related()
        for location in shown:
            others = [loc for loc in shown if loc is not location] + list(related)
            found[file_uri(location.path, cwd)].append(
                lsp.Diagnostic(
                    range=line_range(location.line),
                    severity=SEVERITIES.get(finding.severity, lsp.DiagnosticSeverity.Warning),
                    code=finding.rule,
                    source="parallelcheck",
                    message=finding.message,
                    related_information=[_related(finding, loc, cwd) for loc in others] or None,
                )
            )
    return found


def _related(finding: Finding, location: Location, cwd: str) -> lsp.DiagnosticRelatedInformation:
    return lsp.DiagnosticRelatedInformation(
        location=lsp.Location(file_uri(location.path, cwd), line_range(location.line)),
        message=f"{location.lang}: {finding.role(location.lang)}",
    )


def check_article_of(path: str, cwd: str) -> tuple[dict[str, set[str]], list[Finding]]:
    """Check the article set of the file at ``path`` as ``check`` would: the URIs of its
    version files by article id, and its findings (nothing for a file of no article).
    Raises :class:`InputError` on a configuration or glossary that cannot be read."""
    from parallelcheck.config import load_config
    from parallelcheck.discover.sets import discover
    from parallelcheck.engine import CheckOptions
    from parallelcheck.rules import REGISTRY
    from parallelcheck.run.cache import Cache
    from parallelcheck.run.session import Session

    config = load_config(None, cwd=cwd, known_rules=REGISTRY, start=path)
    article_sets = discover(
        [path],
        root=config.root,
        cwd=cwd,
        skipped=[],  # a file of no article is passed over, not an error
        project_root=config.project_root,
        languages=config.languages or (),
        source=config.source,
        layouts=config.layouts,
    )
    files = {s.id: {file_uri(p, cwd) for p in s.versions.values()} for s in article_sets}
    session = Session(Cache())  # one run per save: no process-wide tuning
    results = session.check(article_sets, config, CheckOptions(jobs=1))
    return files, [finding for result in results for finding in result.findings]


class ParallelcheckServer(LanguageServer):
    """The server: on open and on save, the diagnostics of the file's article set."""

    def __init__(self) -> None:
        super().__init__("parallelcheck", __version__)
        #: The files given diagnostics, by article id: a file that has left its article
        #: (deleted, renamed) gets an empty list.
        self.published: dict[str, set[str]] = {}

    def publish_article_of(self, uri: str) -> None:
        cwd = os.getcwd()
        try:
            files, findings = check_article_of(to_fs_path(uri) or uri, cwd)
        except InputError as error:
            message = f"parallelcheck: {error.describe()}"
            self.window_show_message(lsp.ShowMessageParams(lsp.MessageType.Error, message))
            return
        found = diagnostics(findings, cwd)
        for article_id, now in files.items():
            before = self.published.get(article_id, set())
            self.published[article_id] = now
            for file in sorted(now | before):
                params = lsp.PublishDiagnosticsParams(uri=file, diagnostics=found.get(file, []))
                self.text_document_publish_diagnostics(params)


def make_server() -> ParallelcheckServer:
    server = ParallelcheckServer()

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: ParallelcheckServer, params: lsp.DidOpenTextDocumentParams) -> None:
        ls.publish_article_of(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_SAVE, lsp.SaveOptions(include_text=False))
    def did_save(ls: ParallelcheckServer, params: lsp.DidSaveTextDocumentParams) -> None:
        ls.publish_article_of(params.text_document.uri)

    return server


def serve() -> None:
    """Serve over standard input and output until the client says ``exit``."""
    make_server().start_io()
