"""The command line: configuration → discovery → check → report → exit status.

Exit status (docs/cli.md): 0 no error-severity finding, 1 at least one, 2 the run could not be
done (bad option, configuration, input) — with a one-paragraph message on stderr.  A run
stopped by SIGINT (Ctrl-C) or SIGTERM prints "parallelcheck: interrupted" and exits 130 / 143,
its worker processes killed, no output file written (see :func:`main`).
"""

from __future__ import annotations

import codecs
import contextlib
import functools
import json
import os
import shutil
import signal
import sys
import time
from typing import TYPE_CHECKING, NoReturn

import click

from parallelcheck import __version__
from parallelcheck.errors import InputError
from parallelcheck.model.exit_status import EXIT_CANNOT_RUN, EXIT_CLEAN, EXIT_FINDINGS, ExitPolicy
from parallelcheck.run.request import RunRequest, rule_names

if TYPE_CHECKING:
    from collections import Counter
    from collections.abc import Callable, Sequence

    from parallelcheck.files.site_folder import Site
    from parallelcheck.model.aligned import AlignedArticle
    from parallelcheck.model.finding import Finding
    from parallelcheck.model.outline import Outline
    from parallelcheck.report.base import Format, Report, RuleInfo, SiteLinks

JAPANESE_VARIANTS_NOTE = (
    "parallelcheck: note: Japanese glossary forms were matched as written, not in their "
    "spelling variants: those need the ja extra (pip install 'parallelcheck[ja]')"
)


def _inert(text: str) -> str:
    """*text* (which quotes paths and file content) with control characters escaped."""
    from parallelcheck.report.inert import inert

    return inert(text)


def _fail(message: str) -> None:
    click.echo(_inert(f"parallelcheck: error: {message}"), err=True)
    sys.exit(EXIT_CANNOT_RUN)


def write_atomically(path: str, text: str) -> None:
    """Write ``text`` (UTF-8; file names that are not UTF-8 are written as their bytes, as on
    standard output) to ``path`` all at once (:func:`~parallelcheck.files.atomic.
    replace_file`: a reader never sees half a file, an interrupted run leaves the old file in
    place, a symbolic link is followed, a FIFO or device written directly).  A failure stops
    the run (exit 2) with a message naming the file, and leaves no temporary file behind."""
    from parallelcheck.files.atomic import replace_file

    try:
        replace_file(path, text.encode("utf-8", errors="surrogateescape"))
    except OSError as error:
        _fail(f"{path}: cannot write: {error.strerror or error}")


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", prog_name="parallelcheck")
def cli() -> None:
    """Check that the language versions of an article still say the same thing."""


def _run_options(command):
    """The options shared by ``check`` and ``baseline``: what to check and how."""
    options = [
        click.argument("paths", nargs=-1, type=click.Path()),
        click.option(
            "--glossary",
            "glossaries",
            multiple=True,
            type=click.Path(),
            help="Glossary file or folder (repeatable).",
        ),
        click.option("--config", "config_path", type=click.Path(), help="Configuration file."),
        click.option("--source", help="Reference language (default: configured, else en)."),
        click.option(
            "--lang",
            "langs",
            multiple=True,
            help="Check only these versions against the source (repeatable).",
        ),
        click.option(
            "--select",
            multiple=True,
            callback=_rule_names,
            help="Run only these rules: ids or tags, comma-separated or repeated.",
        ),
        click.option(
            "--ignore",
            multiple=True,
            callback=_rule_names,
            help="Do not run these rules: ids or tags, comma-separated or repeated.",
        ),
        click.option(
            "--report-unused-suppressions",
            is_flag=True,
            help="Report suppression comments that silenced nothing (suppression-unused).",
        ),
        click.option(
            "--jobs",
            type=click.IntRange(min=0),
            default=0,
            show_default=True,
            help="Worker processes; 0 means one per core this process may use.",
        ),
        click.option("--no-cache", is_flag=True, help="Do not read or write the result cache."),
        click.option(
            "--quiet",
            "-q",
            is_flag=True,
            help="No progress, notes or outline: findings and the summary only.",
        ),
        click.option(
            "--shard",
            callback=_parse_shard,
            metavar="K/N",
            help="Check only the K-th of N deterministic shares of the article sets (CI matrix).",
        ),
        click.option(
            "--skip-non-articles",
            is_flag=True,
            help="Pass over file arguments that are no article version (for commit hooks).",
        ),
        click.option(
            "--hook",
            is_flag=True,
            help="As a commit hook: check the sets of the given files and of the versions the "
            "commit deletes (git's staged deletions); implies --skip-non-articles.",
        ),
    ]
    for option in reversed(options):
        command = option(command)
    return command


def _rule_names(_context, _parameter, values: tuple[str, ...]) -> tuple[str, ...]:
    return rule_names(values)


def _parse_shard(_context, _parameter, value: str | None) -> tuple[int, int] | None:
    if value is None:
        return None
    try:
        k, n = (int(part) for part in value.split("/"))
    except ValueError:
        raise click.BadParameter("expected K/N, such as 2/4") from None
    if not 1 <= k <= n:
        raise click.BadParameter(f"K must be between 1 and N, got {value}")
    return k, n


def _found_sets(request: RunRequest, config, skipped: list[str] | None):
    """Discovery as ``check`` and ``ls`` do it: the article sets named by the request's
    paths under *config*, with the ``--source`` and ``--lang`` tags checked against what was
    found; file arguments that are no version are appended to *skipped* when it is a list.
    Raises :class:`InputError` on bad input."""
    from parallelcheck.discover.sets import discover, shard_of

    source, langs = request.source, request.langs
    deleted = staged_deletions() if request.hook else []
    if request.hook and not request.paths and not deleted:
        return []
    article_sets = discover(
        list(request.paths),
        root=config.root,
        cwd=os.getcwd(),
        skipped=skipped,
        project_root=config.project_root,
        languages=config.languages or (),
        source=_requested_tag(source, "--source", ()) or config.source,
        layouts=config.layouts,
        deleted=deleted,
        exclude=config.exclude,
    )
    found = {lang for article_set in article_sets for lang in article_set.versions}
    available = found | set(config.languages or ())
    for index, tag in enumerate([source, *langs]):
        if tag is None:
            continue
        option = "--lang" if index else "--source"
        canonical = _requested_tag(tag, option, available)
        if article_sets and canonical not in available:
            from parallelcheck.text.langtag import did_you_mean

            raise InputError(
                f"{option} {tag}: no article has a '{canonical}' version (versions found: "
                f"{', '.join(sorted(available))}){did_you_mean(tag, available)}"
            )
    if request.shard is not None:
        article_sets = shard_of(article_sets, *request.shard)
    return article_sets


def _requested_tag(tag: str | None, option: str, available) -> str | None:
    """*tag* as given to *option*, canonical; :class:`InputError` when it is no language tag."""
    from parallelcheck.text.langtag import canonical_tag, did_you_mean

    if tag is None:
        return None
    canonical = canonical_tag(tag)
    if canonical is None:
        raise InputError(
            f"{option} {tag}: not a registered language tag (expected BCP 47, such as ja or "
            f"zh-Hant){did_you_mean(tag, available)}"
        )
    return canonical


def staged_deletions() -> list[str]:
    """The document files the commit being made deletes (``git diff --cached``), as paths
    below the working directory; none outside a git work tree."""
    from parallelcheck.history.git import staged_deletions as deleted_in_index

    return deleted_in_index(os.getcwd())


def _run(
    request: RunRequest,
    *,
    needs: str = "outline",
    writes: Sequence[tuple[str, str]] = (),
    folders: Sequence[tuple[str, str]] = (),
    reads: Sequence[str] = (),
    checked: dict | None = None,
    accepted: Counter | None = None,
    each: Callable[[Report, AlignedArticle | Outline, list[Finding]], object] | None = None,
    site: SiteLinks | None = None,
):
    """Configuration → discovery → the run; returns the report (exits 2 on bad input).
    ``needs`` is what the output format reads of each article (``"outline"``, ``"aligned"``
    or ``"flagged"``: see :mod:`parallelcheck.report.base`); the run decides from it what it
    keeps and whether it uses the cache (:mod:`parallelcheck.run.session`).  ``writes`` are
    the files the command will write, ``(path, option)``, ``folders`` the folders it will
    replace, and ``reads`` the inputs it reads besides the configuration, glossaries and
    versions (a baseline): once the article sets are found, a write over an input stops the
    run (:func:`~parallelcheck.run.guard.refuse_writes_over_inputs`).  Each article's findings
    are those the baseline *accepted* does not account for.  *each*, when given, is called
    with the report so far and each article's result as it arrives (a site writes its page
    then), and the report keeps only the article's outline; *site* is where a site's files
    are.  ``checked``, when given, is filled with what a fix needs to know of each version's
    file (path → :class:`~parallelcheck.fix.Checked`: the digest of the bytes checked, the
    article set's boundary, whether it is the source)."""
    from parallelcheck.run.session import Session

    # before the expensive imports
    session = Session.start(no_cache=request.no_cache, needs=needs)
    from parallelcheck.config import load_config
    from parallelcheck.report import Report
    from parallelcheck.report.base import SiteLinks
    from parallelcheck.rules import REGISTRY
    from parallelcheck.run import baseline
    from parallelcheck.run.guard import refuse_writes_over_inputs
    from parallelcheck.run.pipeline import japanese_variants_missed

    paths, quiet = request.paths, request.quiet
    try:
        start = paths[0] if paths else None
        config = load_config(
            request.config_path, cwd=os.getcwd(), known_rules=REGISTRY, start=start
        )
        skipped: list[str] | None = [] if request.skips_non_articles else None
        article_sets = _found_sets(request, config, skipped)
        refuse_writes_over_inputs(
            writes,
            reads=[
                *paths,
                *reads,
                *config.glossary,
                *request.glossaries,
                *filter(None, [config.path]),
            ],
            article_sets=article_sets,
            languages=config.languages or (),
            cache_folder=session.cache_folder,
            folders=folders,
        )
        if skipped and not quiet:
            for reason in skipped:
                click.echo(_inert(f"parallelcheck: note: skipped {reason}"), err=True)
        options = request.check_options()
        progress = Progress(len(article_sets), enabled=not quiet and sys.stderr.isatty())
        report = Report(articles=[], findings=[], rules=rule_infos(), site=site or SiteLinks())
        remaining = baseline.by_article(accepted) if accepted is not None else None
        results = session.check(article_sets, config, options)
        for article_set, result in zip(article_sets, results, strict=True):
            findings = result.findings
            if remaining is not None:
                findings = baseline.without_baselined(findings, remaining[result.outline.id])
            if checked is not None:
                checked.update(_checked_files(article_set, result))
            if each is not None:
                each(report, result.shown, findings)
            report.articles.append(result.shown if each is None else result.outline)
            report.findings.extend(findings)
            progress.advance()
        progress.done()
        session.finish()
        if not quiet:
            for article_set in article_sets:
                for ignored in article_set.ignored:
                    click.echo(
                        _inert(
                            f"parallelcheck: note: {ignored} ignored: another file of "
                            f"article '{article_set.id}' has the same language"
                        ),
                        err=True,
                    )
            if japanese_variants_missed(article_sets, config, options):
                click.echo(JAPANESE_VARIANTS_NOTE, err=True)
    except InputError as error:
        _fail(error.describe())
    report.header = f"checked {describe_discovery(article_sets)}"
    return report


def rule_infos() -> dict[str, RuleInfo]:
    """What the formats show of every rule: its default severity, and its summary and
    documentation as plain text (the docstrings' reStructuredText markup rendered; the
    documentation when a format first reads it: see :class:`~parallelcheck.report.base.
    RuleInfo`)."""
    from parallelcheck.report.base import RuleInfo
    from parallelcheck.rules import REGISTRY
    from parallelcheck.rules._reference import plain_line, plain_text

    return {
        r.id: RuleInfo(r.severity, plain_line(r.summary), functools.partial(plain_text, r.doc))
        for r in REGISTRY.values()
    }


def _checked_files(article_set, result) -> dict:
    """Path → :class:`~parallelcheck.fix.Checked` for each version of one checked article."""
    from parallelcheck.fix import Checked

    source = result.shown.source
    return {
        path: Checked(result.digests.get(lang), article_set.boundary, lang == source)
        for lang, path in result.shown.paths.items()
    }


class Progress:
    """A one-line progress counter on stderr, shown only once a run has lasted a second."""

    def __init__(self, total: int, enabled: bool):
        self.total, self.enabled, self.count, self.shown = total, enabled, 0, False
        self.start = time.monotonic()

    def advance(self) -> None:
        self.count += 1
        if self.enabled and time.monotonic() - self.start > 1.0:
            self.shown = True
            click.echo(f"\rchecking {self.count}/{self.total} articles…", nl=False, err=True)

    def done(self) -> None:
        if self.shown:
            click.echo("\r" + " " * 40 + "\r", nl=False, err=True)


@cli.command()
@_run_options
@click.option(
    "--format",
    "output_format",
    default="text",
    show_default=True,
    help="Output format: text, full, json, sarif, github, markdown or html.",
)
@click.option(
    "--output",
    type=click.Path(),
    help="Write the report to FILE (html: a folder, or the index FILE.html and FILE_files/).",
)
@click.option(
    "--baseline",
    "baseline_path",
    type=click.Path(dir_okay=False),
    help="Leave out the findings recorded in this baseline file.",
)
@click.option(
    "--color/--no-color",
    default=None,
    help="Colour the text report (default: when writing to a terminal; NO_COLOR, FORCE_COLOR).",
)
@click.option("--show-outline", is_flag=True, help="text format: each article's outline too.")
@click.option(
    "--statistics",
    is_flag=True,
    help="Count the findings by rule instead of listing them (text or json).",
)
@click.option(
    "--fail-on",
    type=click.Choice(["error", "warning", "info"]),
    default="error",
    show_default=True,
    help="Exit 1 when a finding of this severity or a graver one is left.",
)
@click.option("--exit-zero", is_flag=True, help="Exit 0 whatever is found (2 stays 2).")
@click.option(
    "--fix",
    "apply_fixes",
    is_flag=True,
    help="Repair what the safe fixes repair in the translations (never the source), then "
    "report what is left.",
)
@click.option(
    "--unsafe-fixes",
    is_flag=True,
    help="With --fix or --diff: the unsafe fixes too (see docs/fixes.md).",
)
@click.option(
    "--diff",
    "show_diff",
    is_flag=True,
    help="Print the fixes as a unified diff instead of writing them; exit 1 when there is one.",
)
def check(
    output_format,
    output,
    baseline_path,
    color,
    show_outline,
    statistics,
    fail_on,
    exit_zero,
    apply_fixes,
    unsafe_fixes,
    show_diff,
    **run,
) -> None:
    """Check article sets for differences between their language versions.

    PATHS may be article folders, single files (standing for their whole article set) or a
    root such as articles/; with none, the configured root (default articles/) is checked.
    """
    from parallelcheck.report import FORMATS
    from parallelcheck.run import baseline

    if output_format not in FORMATS:
        _fail(f"unknown format '{output_format}' (available: {', '.join(sorted(FORMATS))})")
    if statistics and output_format not in STATISTICS_FORMATS:
        _fail(f"--statistics is written as text or json, not {output_format}")
    policy = ExitPolicy(fail_on, exit_zero)
    request = RunRequest(**run)
    chosen = FORMATS[output_format]
    accepted = None
    if baseline_path:
        try:
            accepted = baseline.load(baseline_path)
        except InputError as error:
            _fail(error.describe())
    reads = [baseline_path] if baseline_path else []
    checked: dict | None = {} if apply_fixes or show_diff else None
    site_format = chosen.page is not None and not show_diff
    if site_format and not output:  # before any fix is written
        _fail(SITE_NEEDS_OUTPUT.format(format=chosen.name))

    def checked_report() -> Report:
        report = _run(
            request,
            needs="outline" if site_format else chosen.needs,
            writes=[(output, "--output")] if output and not site_format else [],
            reads=reads,
            accepted=accepted,
            checked=checked,
        )
        _stop_if_signalled()
        return report

    if show_diff:
        from parallelcheck.fix import plan_fixes, unified_diff
        from parallelcheck.fix.summary import fixes_done

        plan = plan_fixes(checked_report().findings, checked or {}, unsafe=unsafe_fixes)
        patch = unified_diff(plan)
        if output:
            write_atomically(output, patch)
        else:
            write_stdout(patch)
        _say(fixes_done([], plan, would=True), request.quiet)
        sys.exit(EXIT_FINDINGS if plan.files else EXIT_CLEAN)
    report = None
    if apply_fixes:
        report = _fixed(checked_report(), checked_report, checked, unsafe_fixes, request.quiet)
    if site_format:
        # A site is written by a check of its own (after the fixes, of the fixed files).
        report = _write_site(chosen, output, request, reads=reads, accepted=accepted)
    else:
        if report is None:
            report = checked_report()
        if not apply_fixes and output_format in ("text", "full") and not request.quiet:
            from parallelcheck.fix.summary import fixable_note

            note = fixable_note(report.findings, unsafe_fixes)
            if note is not None:
                click.echo(note, err=True)
        text = _render(
            report, output_format, output, color, show_outline, statistics, request.quiet
        )
        if output:
            write_atomically(output, text)
        else:
            write_stdout(text, color=report.color)
    sys.exit(policy.status(report.findings))


#: The formats ``--statistics`` is written in.
STATISTICS_FORMATS = ("text", "full", "json")


def _render(report, output_format, output, color, show_outline, statistics, quiet) -> str:
    """The report's text: laid out for a terminal (colour, width) when it goes to one."""
    from parallelcheck.report import FORMATS
    from parallelcheck.report.rule_counts import render_statistics
    from parallelcheck.report.terminal import terminal_width, use_color

    terminal = not output and sys.stdout is not None and sys.stdout.isatty()
    report.color = use_color(color, os.environ, to_terminal=terminal, to_file=bool(output))
    report.width = terminal_width() if terminal else None
    report.quiet, report.show_outline = quiet, show_outline
    if statistics:
        return render_statistics(report, as_json=output_format == "json")
    return FORMATS[output_format](report)


#: How many times ``check --fix`` fixes and checks again at most: a fix left out because it
#: overlapped another is applied by the next pass, once the check has found it again.
FIX_PASSES = 4


def _fixed(report, checked_report, checked: dict | None, unsafe: bool, quiet: bool):
    """Apply the fixes of ``report``'s findings, check again, and again while the new check
    has fixes left (at most :data:`FIX_PASSES` times); the last check's report."""
    from parallelcheck.fix import FixPasses, write_fixed
    from parallelcheck.fix.summary import fixes_done

    written = []
    passes = FixPasses(unsafe)  # what the passes did, and the fixes none applies again
    plan = passes.plan(report.findings, checked or {})
    while plan.files and len(written) < FIX_PASSES:
        try:
            write_fixed(plan)
        except OSError as error:
            _fail(f"{error.filename or 'a fixed file'}: cannot write: {error.strerror or error}")
        written.append(plan)
        if checked is not None:
            checked.clear()
        before = report.findings
        report = checked_report()
        passes.written(plan, before, report.findings)
        plan = passes.plan(report.findings, checked or {})
    _say(fixes_done(written, plan, would=False), quiet)
    return report


def _say(lines: list[str], quiet: bool) -> None:
    """The first of ``lines`` on standard error, and the others (notes) unless ``quiet``."""
    for line in lines[:1] if quiet else lines:
        click.echo(_inert(line), err=True)


#: Why a site format cannot go to standard output.
SITE_NEEDS_OUTPUT = (
    "--format {format} writes a site (an index and a page per article with findings): name "
    "where with --output DIR, or --output FILE.html for the index with its pages in FILE_files/"
)


def _write_site(
    chosen: Format,
    output: str | None,
    request: RunRequest,
    *,
    reads: list[str],
    accepted: Counter | None,
) -> Report:
    """Check, writing a site format's page of each article with findings as its result
    arrives, then its index (:mod:`parallelcheck.files.site_folder`: nothing changes on disk
    until the run has succeeded).  Returns the report (outlines only)."""
    from parallelcheck.files.site_folder import Site
    from parallelcheck.model.aligned import AlignedArticle
    from parallelcheck.report.base import SiteLinks

    if not output:
        _fail(SITE_NEEDS_OUTPUT.format(format=chosen.name))
    try:
        site = Site.at(output)
    except InputError as error:
        _fail(error.describe())
    page = chosen.page

    def each(report: Report, article: AlignedArticle | Outline, findings: list[Finding]) -> None:
        if findings and isinstance(article, AlignedArticle) and page is not None:
            site.add(*page(article, findings, report))

    folders = [(str(site.pages), "--output")]
    if site.own_folder:
        folders.append((str(site.folder), "--output"))
    try:
        report = _run(
            request,
            needs=chosen.needs,
            writes=[(str(site.index), "--output")],
            folders=folders,
            reads=reads,
            accepted=accepted,
            each=each,
            site=SiteLinks(site.index.name, site.pages.name),
        )
        _stop_if_signalled()
        _commit_site(site, chosen(report))
    except BaseException:
        site.discard()
        raise
    return report


def _commit_site(site: Site, index: str) -> None:
    try:
        site.commit(index)
    except OSError as error:
        _fail(f"{error.filename or site.folder}: cannot write: {error.strerror or error}")


@cli.command("baseline")
@_run_options
@click.option(
    "--output",
    "-o",
    default=".parallelcheck-baseline.json",
    show_default=True,
    type=click.Path(dir_okay=False),
    help="Where to write the baseline.",
)
def write_baseline(output, **run) -> None:
    """Record every current finding in a baseline file for ``check --baseline``."""
    from parallelcheck.run import baseline

    report = _run(RunRequest(**run), writes=[(output, "--output")])
    write_atomically(output, baseline.render(report.findings))
    if not run["quiet"]:
        click.echo(f"parallelcheck: wrote {len(report.findings)} finding(s) to {output}", err=True)


def _format_choice(names: Sequence[str], help_text: str):
    """A ``--format`` option taking one of *names*, the first by default."""
    return click.option(
        "--format",
        "output_format",
        type=click.Choice(list(names)),
        default=names[0],
        show_default=True,
        help=help_text,
    )


@cli.command("ls")
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--config", "config_path", type=click.Path(), help="Configuration file.")
@click.option("--source", help="Reference language (default: configured, else en).")
@_format_choice(["text", "json"], "Output format.")
def list_articles(paths, config_path, source, output_format) -> None:
    """List the article sets found in PATHS: id, source, layout and each version's file."""
    from parallelcheck.config import load_config
    from parallelcheck.engine import CheckOptions, choose_source
    from parallelcheck.rules import REGISTRY

    try:
        start = paths[0] if paths else None
        config = load_config(config_path, cwd=os.getcwd(), known_rules=REGISTRY, start=start)
        sets = _found_sets(RunRequest(paths=paths, source=source), config, None)
    except InputError as error:
        _fail(error.describe())
    options = CheckOptions(source=source)
    listed = [
        {
            "id": s.id,
            "source": choose_source(s.versions, config, options),
            "layout": s.layout,
            "versions": dict(s.versions),
            "ignored": list(s.ignored),
        }
        for s in sets
    ]
    if output_format == "json":
        document = {
            "schema": "parallelcheck/articles/v1",
            "tool": {"name": "parallelcheck", "version": __version__},
            "articles": listed,
            "summary": discovery_summary(sets),
        }
        click.echo(json.dumps(document, ensure_ascii=False, indent=2))
        return
    for entry in listed:
        click.echo(_inert(f"{entry['id']}  [{entry['layout']}; source {entry['source']}]"))
        width = max(len(lang) for lang in entry["versions"])
        for lang, path in entry["versions"].items():
            click.echo(_inert(f"  {lang:<{width}}  {path}"))
        for path in entry["ignored"]:
            click.echo(_inert(f"  {'':<{width}}  {path} (ignored: another file has this language)"))
    click.echo(_inert(describe_discovery(sets)))


def discovery_summary(sets) -> dict:
    """Counts of what discovery found: sets, versions, translation pairs, sets per layout and
    versions per language."""
    layouts: dict[str, int] = {}
    languages: dict[str, int] = {}
    for article_set in sets:
        layouts[article_set.layout] = layouts.get(article_set.layout, 0) + 1
        for lang in article_set.versions:
            languages[lang] = languages.get(lang, 0) + 1
    return {
        "articles": len(sets),
        "versions": sum(languages.values()),
        "pairs": sum(max(0, len(s.versions) - 1) for s in sets),
        "layouts": dict(sorted(layouts.items())),
        "languages": dict(sorted(languages.items())),
    }


def describe_discovery(sets) -> str:
    """One line: ``124 article sets, 1612 versions in 13 languages (layout: folder 124)``."""
    summary = discovery_summary(sets)
    if not sets:
        return "no article set"
    layouts = ", ".join(f"{name} {count}" for name, count in summary["layouts"].items())
    return (
        f"{summary['articles']} article set(s), {summary['versions']} version(s) in "
        f"{len(summary['languages'])} language(s) ({', '.join(summary['languages'])}); "
        f"layout: {layouts or 'none'}"
    )


@cli.command("rules")
@_format_choice(
    ["text", "markdown"], "text: one line per rule; markdown: the rules reference (docs/rules.md)."
)
def list_rules(output_format: str) -> None:
    """List every rule with its default severity and summary."""
    from parallelcheck.rules import REGISTRY

    if output_format == "markdown":
        from parallelcheck.rules._reference import reference_markdown

        write_stdout(reference_markdown())
        return
    from parallelcheck.rules._reference import plain_line

    width = max(len(rule_id) for rule_id in REGISTRY)
    for rule_id in sorted(REGISTRY):
        rule = REGISTRY[rule_id]
        click.echo(f"{rule_id:<{width}}  {rule.severity:<7}  {plain_line(rule.summary)}")


@cli.command()
@click.argument("rule_id")
def explain(rule_id: str) -> None:
    """Print the documentation of RULE_ID."""
    from parallelcheck.rules import REGISTRY

    rule = REGISTRY.get(rule_id)
    if rule is None:
        _fail(f"unknown rule '{rule_id}'{_closest_rule(rule_id)} (see 'parallelcheck rules')")
    from parallelcheck.rules._reference import TEXT_WIDTH, explanation

    width = min(shutil.get_terminal_size((TEXT_WIDTH, 24)).columns, TEXT_WIDTH)
    write_stdout(explanation(rule, width))


@cli.command("lsp")
@click.option("--stdio", is_flag=True, help="Speak over standard input and output (the only way).")
def language_server(stdio: bool) -> None:
    """Run the Language Server: an editor shows each article's findings (the lsp extra)."""
    try:
        from parallelcheck.lsp import serve
    except ImportError as error:
        _fail(
            f"the language server needs the lsp extra ({error}): pip install 'parallelcheck[lsp]'"
        )
    serve()


@cli.command("schema")
def print_schema() -> None:
    """Print the JSON Schema of the findings document (--format json)."""
    from parallelcheck.report.json_format import findings_schema

    write_stdout(findings_schema())


def _closest_rule(name: str) -> str:
    """``; did you mean 'missing-table'?`` for the rule id closest to *name*, or ``""``."""
    from parallelcheck.rules import REGISTRY
    from parallelcheck.text.suggest import closest

    close = closest(name, REGISTRY)
    return f"; did you mean '{close}'?" if close else ""


# --- glossary (issue "Terminology"): `parallelcheck glossary lint|import`; the logic lives
# in parallelcheck.glossary.


@cli.group("glossary")
def glossary_group() -> None:
    """Check and convert glossaries (YAML, TBX, CSV)."""


@glossary_group.command("lint")
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--config", "config_path", type=click.Path(), help="Configuration file.")
def glossary_lint(paths, config_path) -> None:
    """Check glossary files for contradictions (default: the configured glossary).

    Prints one `file:line: message` line per problem; exits 2 when there is an error, else
    prints "N terms OK" and exits 0 (warnings are printed but do not fail).
    """
    from parallelcheck.glossary import lint_paths

    if not paths:
        from parallelcheck.config import load_config
        from parallelcheck.rules import REGISTRY

        try:
            config = load_config(config_path, cwd=os.getcwd(), known_rules=REGISTRY)
        except InputError as error:
            _fail(error.describe())
        paths = config.glossary
        if not paths:
            _fail(
                "no glossary configured: name glossary files or folders, or add a glossary/ "
                "folder or a 'glossary:' key to the configuration"
            )
    count, problems = lint_paths(list(paths))
    for problem in problems:
        click.echo(problem.describe())
    errors = sum(1 for p in problems if p.severity == "error")
    if errors:
        click.echo(f"parallelcheck: {errors} error(s) in the glossary", err=True)
        sys.exit(EXIT_CANNOT_RUN)
    warnings = len(problems) - errors
    click.echo(f"{count} terms OK" + (f" ({warnings} warning(s))" if warnings else ""))


@glossary_group.command("import")
@click.argument("source", type=click.Path(dir_okay=False))
@click.option(
    "--output",
    "-o",
    type=click.Path(dir_okay=False),
    help="YAML file to write (default: standard output).",
)
@click.option("--force", is_flag=True, help="Replace the output file if it exists.")
def glossary_import(source, output, force) -> None:
    """Convert a TBX or CSV glossary to the YAML form (docs/configuration.md)."""
    from parallelcheck.glossary import import_glossary

    if output and os.path.exists(output) and not force:
        _fail(f"{output}: exists; use --force to replace it")
    try:
        glossary, text = import_glossary(source)
    except InputError as error:
        _fail(error.describe())
    if output:
        write_atomically(output, text)
        click.echo(f"parallelcheck: wrote {len(glossary)} term(s) to {output}", err=True)
    else:
        click.echo(text, nl=False)


# --- end glossary


@cli.group("cache")
def cache_group() -> None:
    """Show or clear the result cache (see `check --no-cache`)."""


def _sized(size: int) -> str:
    if size < 1024:
        return f"{size} bytes"
    return f"{size / 1024:.1f} KiB" if size < 1024 * 1024 else f"{size / 1024 / 1024:.1f} MiB"


@cache_group.command("info")
def cache_info() -> None:
    """Print where the cache is, and how many entries and bytes it holds."""
    from parallelcheck.run.cache import Cache

    cache = Cache()
    try:
        count, size = cache.usage()
    except OSError as error:
        _fail(f"{cache.root}: cannot read the cache folder: {error.strerror or error}")
    click.echo(f"{cache.root.parent}: {count} file(s), {_sized(size)}")


def _finite_days(_context, _parameter, days: float | None) -> float | None:
    """``--older-than``: FloatRange(min=0) lets ``nan`` (every comparison false, so every
    entry would be removed) and ``inf`` through; both are refused (exit 2)."""
    if days is not None and not days < float("inf"):
        raise click.BadParameter(f"{days} is not a number of days (expected 0 or more, finite)")
    return days


@cache_group.command("clear")
@click.option(
    "--older-than",
    "days",
    type=click.FloatRange(min=0),
    callback=_finite_days,
    help="Remove only entries not used for this many days (a finite number, 0 or more).",
)
def cache_clear(days) -> None:
    """Remove cached results (all of them, or those not used for --older-than days)."""
    from parallelcheck.run.cache import Cache

    cache = Cache()
    try:
        count, size = cache.clear(days)
    except OSError as error:
        where = error.filename or cache.root
        _fail(f"{where}: cannot remove a cache file: {error.strerror or error}")
    click.echo(f"parallelcheck: removed {count} file(s), {_sized(size)}, from {cache.root.parent}")


def write_stdout(text: str, *, color: bool | None = None) -> None:
    """Write the report to standard output, flushed: a closed standard output, a full disk
    (``/dev/full``) or an I/O error is exit 2 with one line saying so; a reader that went away
    (a closed pipe, ``| head``) ends the run quietly with its status."""
    if sys.stdout is None:
        _fail("standard output is closed: there is nowhere to write the report (use --output)")
    try:
        click.echo(text, nl=False, color=color)
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader is gone: what is left unwritten goes nowhere, without a second error
        # when the interpreter flushes standard output at exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except OSError as error:
        _fail(f"cannot write the report to standard output: {error.strerror or error}")


def _tolerant_stdout() -> None:
    """Never fail on text standard output cannot encode: a file name that is not UTF-8 is
    written as its bytes (as under the C.UTF-8 locale), other text is escaped."""
    stream = sys.stdout
    if getattr(stream, "errors", None) == "strict" and hasattr(stream, "reconfigure"):
        try:
            utf8 = codecs.lookup(stream.encoding).name == "utf-8"
        except (LookupError, TypeError):
            utf8 = False
        stream.reconfigure(errors="surrogateescape" if utf8 else "backslashreplace")


class Interrupted(BaseException):
    """The run was stopped by ``SIGINT`` (Ctrl-C) or ``SIGTERM``: raised by the signal handler
    in the main thread.  A :class:`BaseException`, so that neither click (which would say
    "Aborted!" and exit 1) nor any ``except Exception`` takes it for a failure; code that
    must clean up (a temporary file) does so in ``finally`` / ``except BaseException``."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


#: The exit status of a run stopped by a signal: 128 + its number (130 SIGINT, 143 SIGTERM).
EXIT_SIGNAL_BASE = 128

_STOP_SIGNALS = ("SIGINT", "SIGTERM")
_stopped_by: int | None = None  # the first stop signal received, if any
_reported = False


def _on_stop_signal(signum: int, _frame: object) -> None:
    """The handler of SIGINT and SIGTERM: the first one stops the run (:class:`Interrupted`,
    taken by :func:`main`); another one while it stops ends the process at once."""
    global _stopped_by
    if _stopped_by is not None:
        _kill_workers_now()
        _say_interrupted()
        os._exit(EXIT_SIGNAL_BASE + _stopped_by)
    _stopped_by = signum
    raise Interrupted(signum)


def _stop_if_signalled() -> None:
    """Stop now if a stop signal arrived that did not unwind the run: its handler's
    :class:`Interrupted` can be swallowed when it is raised inside a generator being closed
    (Python prints "Exception ignored" and goes on), e.g. while the worker pool shuts down
    at the end of the check.  Called before anything is written, so an interrupted run never
    writes its report."""
    if _stopped_by is not None:
        raise Interrupted(_stopped_by)


def _catch_stop_signals() -> None:
    """Take SIGINT and SIGTERM — except one this process was started with ignored (a
    background job, ``nohup``-like launchers): an ignored signal stays ignored."""
    for name in _STOP_SIGNALS:
        signum = getattr(signal, name, None)
        if signum is None or signal.getsignal(signum) is signal.SIG_IGN:
            continue
        signal.signal(signum, _on_stop_signal)


def _say_interrupted() -> None:
    """The one line an interrupted run prints on stderr (once)."""
    global _reported
    if not _reported:
        _reported = True
        with contextlib.suppress(OSError, ValueError):
            sys.stderr.write("parallelcheck: interrupted\n")
            sys.stderr.flush()


def _kill_workers_now() -> None:
    workers = sys.modules.get("parallelcheck.run.workers")
    if workers is not None:
        workers.kill_workers_now()


def _stop(signum: int) -> NoReturn:
    """End an interrupted run: its workers killed and reaped, the line on stderr, exit
    status 128 + the signal.  Temporary files were removed as the interruption unwound
    (``write_atomically``); the cache holds only complete entries."""
    global _stopped_by
    if _stopped_by is None:
        _stopped_by = signum
    workers = sys.modules.get("parallelcheck.run.workers")
    if workers is not None:
        workers.stop_workers()
    _say_interrupted()
    sys.exit(EXIT_SIGNAL_BASE + signum)


def main() -> None:
    """Entry point: run the command line, turning unexpected failures into exit status 2 and
    SIGINT / SIGTERM into one line, "parallelcheck: interrupted", and exit status 130 / 143."""
    try:
        _catch_stop_signals()
        _tolerant_stdout()
        cli.main(standalone_mode=True)
    except SystemExit:
        from parallelcheck.run.session import spare_final_collection

        spare_final_collection()  # done: nothing the run holds needs collecting
        raise
    except Interrupted as stop:
        _stop(stop.signum)
    except KeyboardInterrupt:  # SIGINT while its handler was not installed
        _stop(signal.SIGINT)
    except Exception as error:  # a bug, not bad input: say so in one paragraph
        if _stopped_by is not None:  # a consequence of the interruption (workers gone)
            _stop(_stopped_by)
        if os.environ.get("PARALLELCHECK_DEBUG"):
            raise
        click.echo(
            f"parallelcheck: internal error: {type(error).__name__}: {error}. This is a bug in "
            "parallelcheck; run again with PARALLELCHECK_DEBUG=1 for details and report it.",
            err=True,
        )
        sys.exit(EXIT_CANNOT_RUN)
