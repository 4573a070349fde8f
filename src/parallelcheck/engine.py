"""The engine: documents in, an aligned article and its findings out.

:func:`check_article` is the whole of checking one article: given the versions' documents
(already read), the versions that could not be read and the article's :class:`ArticleContext`
(its source, the expected languages, the rules with their severities and options, the run's
glossary and what git history told), it aligns the versions, runs the rules, drops
suppressed findings (recording which comments silenced what, for ``suppression-unused``,
which runs last), stamps the severity configured for a rule on each of its findings — the
run's, or the one the configuration's ``overrides`` give the deviating versions' files —
(without one, a finding keeps the severity its rule gave it; ``off`` drops it) and sorts the
rest deterministically.  It reads no file and no git history, and its result depends on its
arguments only, wherever it runs (in this process or a worker).  Reading the files, git
history, the cache and worker processes are the run's (:mod:`parallelcheck.run`).

The rest are the pure decisions the run asks of the engine: which rules are active
(:func:`active_rules`) and what they need (:func:`needs_of`), which versions an article is
checked with (:func:`selected_versions`) and, once they are read, its context
(:func:`article_context`).

Faults are per file.  A version file that cannot be read (vanished, not openable, binary, not
decodable, outside the article set's boundary: the reader's
:class:`~parallelcheck.errors.InputError`) does not stop the run: it is recorded on the
aligned article (:attr:`AlignedArticle.unreadable
<parallelcheck.model.aligned.AlignedArticle.unreadable>`), the ``unreadable-version`` rule
reports it as an error finding of that article, and the article's other versions are aligned
and checked among themselves.  Only when no version of any article could be read does the run
stop (:func:`nothing_readable`: exit status 2), naming the file.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from parallelcheck.align.moves import find_moves
from parallelcheck.align.progressive import align_article
from parallelcheck.config import OFF, ON, Config
from parallelcheck.errors import InputError
from parallelcheck.facts import ArticleFacts
from parallelcheck.model.aligned import AlignedArticle, SuppressionUse, UnreadableVersion
from parallelcheck.model.changes import SourceChanges
from parallelcheck.model.document import Document
from parallelcheck.model.finding import Finding
from parallelcheck.model.outline import Outline, outline_of
from parallelcheck.rules import REGISTRY
from parallelcheck.rules.base import TAGS
from parallelcheck.rules.suppression import SUPPRESSION_UNUSED
from parallelcheck.rules.unreadable_version import UNREADABLE_VERSION
from parallelcheck.suppress import silenced_ranges, silencing
from parallelcheck.text.langtag import canonical_tag
from parallelcheck.text.lexicon import NormalForms
from parallelcheck.text.suggest import closest

if TYPE_CHECKING:
    from parallelcheck.glossary import Glossary
    from parallelcheck.glossary.match import GlossaryMatcher


@dataclass(frozen=True)
class CheckOptions:
    """What the command line adds to the configuration for one run."""

    source: str | None = None
    langs: tuple[str, ...] = ()
    select: tuple[str, ...] = ()  # rule ids and tags (:func:`selected_rules`)
    ignore: tuple[str, ...] = ()
    enable: tuple[str, ...] = ()  # rules that run only when asked, asked for
    jobs: int = 1
    glossaries: tuple[str, ...] = ()  # glossary: --glossary paths, added to config.glossary


@dataclass(frozen=True)
class ArticleContext:
    """What checking one article needs besides its documents (see :func:`article_context`).

    ``rules`` maps each rule to run to the severity configured for it (``None``: its findings
    keep the severities the rule gives them; ``off``: it runs only for the versions an
    override turns it on for), in the registry's order; ``path_rules`` maps a version to
    the settings the configuration's ``overrides`` give its file (``off``, ``on`` or a
    severity, by rule; see :func:`_as_configured`); ``options`` the rules' configured
    options (absent: the defaults); ``terms`` (the run's glossary, compiled once for the
    run: the article's facts find terms with it) and ``history`` are handed to the rules
    that declared they need them."""

    id: str
    source: str
    expected: tuple[str, ...]
    rules: Mapping[str, str | None]
    path_rules: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    options: Mapping[str, Mapping[str, Any] | None] = field(default_factory=dict)
    link_prefixes: tuple[str, ...] = ()
    terms: GlossaryMatcher | None = None
    history: Mapping[str, SourceChanges] | None = None

    @property
    def glossary(self) -> Glossary | None:
        """The run's glossary (``None`` without one, or when no rule needs it)."""
        return self.terms.glossary if self.terms is not None else None


@dataclass
class ArticleResult:
    """One article's aligned versions (``None`` when only its outline was kept: see
    :meth:`outline_only`), its outline and its findings, sorted.

    ``digests`` are, by language, the SHA-256 of the bytes each version was checked from
    (``None`` for one whose file could not be read; see :mod:`parallelcheck.readers.content`):
    the cache stores a result under the key of those bytes."""

    article: AlignedArticle | None
    findings: list[Finding]
    digests: dict[str, bytes | None] = field(default_factory=dict, compare=False, repr=False)
    #: What git history told of each translation (when a rule needed it; not cached).
    history: Mapping[str, SourceChanges] | None = field(default=None, compare=False, repr=False)
    outline: Outline = field(default=None, repr=False)  # type: ignore[assignment]

    def __post_init__(self) -> None:
        if self.outline is None:
            if self.article is None:
                raise ValueError("an article result needs its article or its outline")
            self.outline = outline_of(self.article)

    @property
    def shown(self) -> AlignedArticle | Outline:
        """What a report shows of the article: the aligned article when kept, else its
        outline."""
        return self.article if self.article is not None else self.outline

    def outline_only(self) -> ArticleResult:
        """What a cache entry keeps, and exactly what it gives back
        (:mod:`parallelcheck.run.cache` writes and reads these fields, no others): the
        findings and the article's outline, without the documents' text, rule options,
        glossary or history, which are most of the size and time of an entry.  Sequences
        are tuples, as the dataclasses declare them, so that a fresh result and one read from
        the cache are equal."""
        findings = [_with_tuples(finding) for finding in self.findings]
        return ArticleResult(None, findings, self.digests, outline=self.outline)


def active_rules(config: Config, options: CheckOptions) -> dict[str, str | None]:
    """Rule id → the severity configured for it (``None`` when the configuration sets none:
    the rule's own grading) for every rule that runs.

    A rule runs unless the configuration turns it off (and no ``overrides`` entry turns it
    on for some paths: it then runs as ``off``, see :class:`ArticleContext`), or it is one
    that runs only when asked (:attr:`~parallelcheck.rules.base.RuleSpec.opt_in`: by the
    configuration, ``--select`` or :attr:`CheckOptions.enable`) and nothing asks for it;
    ``--select`` limits the run to the named rules (and those :attr:`CheckOptions.enable`
    asks for), ``--ignore`` removes rules (both take rule ids and tags:
    :func:`selected_rules`).  Unknown names in either are an input error.
    """
    select = selected_rules(options.select, "--select")
    ignore = selected_rules(options.ignore, "--ignore")
    on_for_some_paths = {
        rule_id
        for override in config.overrides
        for rule_id, setting in override.rules.items()
        if setting.enabled
    }
    active: dict[str, str | None] = {}
    for rule_id, spec in REGISTRY.items():
        setting = config.rules.get(rule_id)
        off = setting is not None and not setting.enabled
        if off and rule_id not in on_for_some_paths:
            continue
        asked = setting is not None or rule_id in on_for_some_paths
        if spec.opt_in and not (asked or rule_id in select or rule_id in options.enable):
            continue
        if (select and rule_id not in select and rule_id not in options.enable) or (
            rule_id in ignore
        ):
            continue
        active[rule_id] = OFF if off else (setting.severity if setting else None)
    return active


def selected_rules(names: Iterable[str], option: str) -> frozenset[str]:
    """The rule ids *names* stand for: each a rule id or a tag (every rule carrying it, see
    :data:`~parallelcheck.rules.base.TAGS`).  An unknown name is an :class:`InputError`
    offering the closest id or tag."""
    chosen: set[str] = set()
    for name in names:
        if name in REGISTRY:
            chosen.add(name)
        elif name in TAGS:
            chosen.update(rule_id for rule_id, spec in REGISTRY.items() if name in spec.tags)
        else:
            close = closest(name, [*REGISTRY, *TAGS])
            hint = f"; did you mean '{close}'?" if close else ""
            raise InputError(
                f"{option} {name}: unknown rule '{name}'{hint} (a rule id, see "
                f"'parallelcheck rules', or a tag: {', '.join(sorted(TAGS))})"
            )
    return frozenset(chosen)


def choose_source(langs: Iterable[str], config: Config, options: CheckOptions) -> str:
    """The reference version: ``--source``, else the configured source, else ``en`` when
    present, else the first tag in alphabetical order."""
    langs = sorted(langs, key=str.lower)
    for wanted in (options.source, config.source, "en"):
        if wanted and wanted in langs:
            return wanted
    return langs[0] if langs else (options.source or config.source or "en")


def _canonical_list(tags: Sequence[str]) -> tuple[str, ...]:
    found = []
    for tag in tags:
        canonical = canonical_tag(tag)
        if canonical is None:
            raise InputError(
                f"'{tag}' is not a language tag (expected BCP 47, such as ja or zh-Hant)"
            )
        found.append(canonical)
    return tuple(found)


def needs_of(rules: Iterable[str]) -> frozenset[str]:
    """What the given rules need from the run (see :data:`parallelcheck.rules.base.NEEDS`)."""
    return frozenset().union(*(REGISTRY[rule_id].needs for rule_id in rules))


def selected_versions(
    versions: Mapping[str, str], config: Config, options: CheckOptions
) -> tuple[dict[str, str], str, tuple[str, ...]]:
    """The versions an article is checked with (``--lang`` keeps those it names and the
    source), its source (chosen among all its versions) and the languages expected of it."""
    versions = dict(versions)
    source = choose_source(versions, config, options)
    expected = tuple(config.languages or ())
    if options.langs:
        keep = {*_canonical_list(options.langs), source}
        versions = {lang: path for lang, path in versions.items() if lang in keep}
        expected = tuple(lang for lang in expected if lang in keep)
    return versions, source, expected


def article_context(
    article_id: str,
    source: str,
    expected: Sequence[str],
    documents: Mapping[str, Document],
    unreadable: Sequence[UnreadableVersion],
    config: Config,
    options: CheckOptions,
    rules: Mapping[str, str | None],
    terms: GlossaryMatcher | None = None,
) -> ArticleContext:
    """The context of one article once its versions are read (*source* and *expected* from
    :func:`selected_versions`, *rules* from :func:`active_rules`).

    When versions could not be read, the article is checked with those that could: the
    source is chosen among them (the same one when it is readable), and an unreadable version
    is not expected (it has a file: ``missing-version`` would call it missing;
    ``unreadable-version`` reports it).  With no version read, only ``unreadable-version``
    runs.  In a run limited to some versions (``--lang``) ``suppression-unused`` does not
    run: a comment may be there for a version left out.  The history is the run's to add
    (``dataclasses.replace``), for the source chosen here."""
    expected = tuple(expected)
    if options.langs:
        rules = {k: v for k, v in rules.items() if k != SUPPRESSION_UNUSED}
    if unreadable:
        source = choose_source(documents, config, options)
        faulty = {fault.lang for fault in unreadable}
        expected = tuple(lang for lang in expected if lang not in faulty)
        if not documents:
            rules = {k: v for k, v in rules.items() if k == UNREADABLE_VERSION}
    settings = {}
    for rule_id in rules:
        setting = config.rules.get(rule_id)
        settings[rule_id] = setting.options if setting else None
    return ArticleContext(
        id=article_id,
        source=source,
        expected=expected,
        rules=dict(rules),
        path_rules=config.rules_by_version({lang: doc.path for lang, doc in documents.items()}),
        options=settings,
        link_prefixes=tuple(config.links.localized_prefixes),
        terms=terms if "glossary" in needs_of(rules) else None,
    )


def align_only(
    documents: Mapping[str, Document],
    unreadable: Sequence[UnreadableVersion],
    context: ArticleContext,
    normal_forms: NormalForms | None = None,
) -> AlignedArticle:
    """One article aligned as :func:`check_article` aligns it before its rules run (the
    blocks some versions hold elsewhere found too), and no rule run: what a report that shows
    the text of an article whose findings it already has needs.  *normal_forms* keep the
    normal forms of its texts that alignment works out (for its facts to read again)."""
    article = align_article(
        context.id,
        dict(documents),
        context.source,
        expected=context.expected,
        link_prefixes=context.link_prefixes,
        normal_forms=normal_forms,
    )
    article.unreadable = tuple(unreadable)
    article.moves = find_moves(article)
    return article


def check_article(
    documents: Mapping[str, Document],
    unreadable: Sequence[UnreadableVersion],
    context: ArticleContext,
) -> ArticleResult:
    """Align and check one article: its versions' *documents* (by language), the versions
    that could not be read, and its *context*.  Pure: no file is read here."""
    # the normal form of each text, worked out once for the alignment and the rules
    normal_forms = NormalForms()
    article = align_only(documents, unreadable, context, normal_forms)
    facts = ArticleFacts(context.terms, normal_forms)
    ranges = {doc.path: silenced_ranges(doc) for doc in documents.values() if doc.directives}
    used: dict[str, set[tuple[int, str]]] = {}
    findings: list[Finding] = []

    def found_by(rule_id: str) -> Iterable[Finding]:
        return REGISTRY[rule_id].run(
            article,
            facts=facts,
            options=context.options.get(rule_id),
            glossary=context.glossary,
            history=context.history,
        )

    for rule_id in context.rules:
        if rule_id == SUPPRESSION_UNUSED:
            continue  # last: it reads what the comments silenced
        for found in found_by(rule_id):
            silenced = silencing(found, ranges) if ranges else ()
            for path, line, rule in silenced:
                used.setdefault(path, set()).add((line, rule))
            if not silenced:
                findings.extend(_as_configured(found, context))
    if SUPPRESSION_UNUSED in context.rules:
        ran = frozenset(context.rules) - {SUPPRESSION_UNUSED}
        article.suppression_use = SuppressionUse(
            ran, {path: frozenset(lines) for path, lines in used.items()}
        )
        for found in found_by(SUPPRESSION_UNUSED):
            findings.extend(_as_configured(found, context))
    findings.sort(key=Finding.sort_key)
    return ArticleResult(article, findings, history=context.history)


def _as_configured(finding: Finding, context: ArticleContext) -> Iterator[Finding]:
    """*finding* with the severity configured for its rule, or nothing when its rule is
    off for it.  The setting is the one the configuration's ``overrides`` give the files of
    the deviating versions when they all give the same one; else the run's
    (``context.rules``).  ``off``: dropped; ``on`` (or ``None``): the rule's own grading; a
    severity: stamped on the finding."""
    settings = {context.path_rules.get(lang, {}).get(finding.rule) for lang in finding.langs}
    only = settings.pop() if len(settings) == 1 else None
    setting = context.rules[finding.rule] if only is None else only
    if setting == OFF:
        return
    yield finding if setting in (None, ON) else finding.with_severity(setting)


def nothing_readable(faults: Sequence[UnreadableVersion]) -> InputError:
    """The error of a run in which no version file could be read: the first file's own
    message (path, line, reason), and how many others failed too, naming a few."""
    first, *others = faults
    message = first.reason
    if others:
        shown = ", ".join(fault.path for fault in others[:3])
        more = f" and {len(others) - 3} more" if len(others) > 3 else ""
        message += (
            f"; nothing could be checked: no other version file could be read either "
            f"({shown}{more})"
        )
    return InputError(message, first.path, first.line)


def _with_tuples(finding: Finding) -> Finding:
    """``finding`` with its sequences as tuples (a rule may pass a list)."""
    if (
        type(finding.langs) is tuple
        and type(finding.reference_langs) is tuple
        and type(finding.locations) is tuple
    ):
        return finding
    return replace(
        finding,
        langs=tuple(finding.langs),
        reference_langs=tuple(finding.reference_langs),
        locations=tuple(finding.locations),
    )
