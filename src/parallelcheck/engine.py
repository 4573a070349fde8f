"""The engine: article sets in, aligned articles and their findings out.

For every article set it reads each version, aligns them, runs the active rules, stamps each
finding with its configured severity, drops suppressed findings and sorts the rest
deterministically.  Article sets are independent, so ``jobs > 1`` checks them in worker
processes; the results are the same, in the same order, whatever the number of jobs.

Faults are per file.  A version file that cannot be read (vanished, not openable, binary, not
decodable: the reader's :class:`~parallelcheck.errors.InputError`) does not stop the run: the
engine records it on the aligned article (:attr:`AlignedArticle.unreadable
<parallelcheck.model.aligned.AlignedArticle.unreadable>`), the ``unreadable-version`` rule
reports it
as an error finding of that article, and the article's other versions are aligned and checked
among themselves.  Only when no version of any article could be read does :func:`check_all`
raise :class:`InputError` (exit status 2), naming the file.

Reads are bounded and confined.  A version is read only when its real path lies inside its
article set's boundary (:attr:`ArticleSet.boundary <parallelcheck.model.article.ArticleSet>`, which
discovery sets: the checked folders and the project root), checked right before the file is
opened and again on the open file: a symbolic link out of it (a secret beside the checkout,
``.git/config``, ``/etc/passwd``) is a fault "symbolic link to a file outside the project; not
read" naming the link, and nothing of its target reaches a report.  A FIFO, a device or a file
over :data:`~parallelcheck.files.safe_read.MAX_DOCUMENT_BYTES` is a fault too, found without
blocking and without reading more than the cap (:mod:`parallelcheck.files.safe_read`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace

from parallelcheck import __version__
from parallelcheck.align.progressive import align_article
from parallelcheck.config import Config
from parallelcheck.errors import InputError
from parallelcheck.facts import ArticleFacts
from parallelcheck.files.safe_read import Boundary
from parallelcheck.glossary import Glossary, load_glossaries
from parallelcheck.history.git import head_commit, source_changes, work_tree
from parallelcheck.model.aligned import AlignedArticle, AlignedSection, UnreadableVersion
from parallelcheck.model.article import ArticleSet
from parallelcheck.model.changes import SourceChanges
from parallelcheck.model.document import Document, Section
from parallelcheck.model.finding import Finding
from parallelcheck.readers.content import read_version, take_digests
from parallelcheck.rules import REGISTRY
from parallelcheck.rules.unreadable_version import UNREADABLE_VERSION
from parallelcheck.run import cores, workers
from parallelcheck.run.cache import (
    OUTLINE_BLOCK,
    Cache,
    article_key,
    code_digest,
    settings_digest,
    version_digests,
)
from parallelcheck.suppress import is_suppressed, silenced_ranges
from parallelcheck.text import langid as identifier
from parallelcheck.text.langtag import canonical_tag, primary_language
from parallelcheck.text.script import is_latin_language


@dataclass(frozen=True)
class CheckOptions:
    """What the command line adds to the configuration for one run."""

    source: str | None = None
    langs: tuple[str, ...] = ()
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    jobs: int = 1
    glossaries: tuple[str, ...] = ()  # glossary: --glossary paths, added to config.glossary


@dataclass
class ArticleResult:
    """One article's aligned versions and its findings, sorted.

    ``digests`` are, by language, the SHA-256 of the bytes each version was checked from
    (``None`` for one whose file could not be read; see :mod:`parallelcheck.readers.content`): the
    cache stores a result under the key of those bytes."""

    article: AlignedArticle
    findings: list[Finding]
    digests: dict[str, bytes | None] = field(default_factory=dict, compare=False, repr=False)
    #: What git history told of each translation (when a rule needed it; not cached).
    history: dict[str, SourceChanges] | None = field(default=None, compare=False, repr=False)


def active_rules(config: Config, options: CheckOptions) -> dict[str, str]:
    """Rule id → severity for every rule that runs.

    A rule runs unless the configuration turns it off; ``--select`` limits the run to the named
    rules, ``--ignore`` removes rules.  Unknown ids in either are an input error.
    """
    for rule_id in (*options.select, *options.ignore):
        if rule_id not in REGISTRY:
            known = ", ".join(sorted(REGISTRY))
            raise InputError(f"unknown rule '{rule_id}' (known rules: {known})")
    active = {}
    for rule_id, rule in REGISTRY.items():
        setting = config.rules.get(rule_id)
        if setting is not None and not setting.enabled:
            continue
        if options.select and rule_id not in options.select:
            continue
        if rule_id in options.ignore:
            continue
        active[rule_id] = setting.severity if setting and setting.severity else rule.severity
    return active


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


def load_run_glossary(config: Config, options: CheckOptions) -> Glossary:
    """The glossary of a run: ``config.glossary`` plus ``--glossary`` paths, read once.
    A malformed glossary is an :class:`InputError` (exit 2)."""
    return load_glossaries([*config.glossary, *options.glossaries])


def check_article(
    article_set: ArticleSet,
    config: Config,
    options: CheckOptions,
    glossary: Glossary | None = None,
) -> ArticleResult:
    """Read, align and check one article set.  ``glossary`` is the run's glossary
    (:func:`check_all` reads it once); when not given it is read here, if a rule needs it."""
    rules = active_rules(config, options)
    versions = dict(article_set.versions)
    source = choose_source(versions, config, options)
    expected = config.languages or ()
    if options.langs:
        keep = {*_canonical_list(options.langs), source}
        versions = {lang: path for lang, path in versions.items() if lang in keep}
        expected = tuple(lang for lang in expected if lang in keep)
    documents, unreadable = _read_versions(versions, article_set.boundary)
    digests = take_digests(versions)  # of the very bytes the documents were parsed from
    if unreadable:
        # Align and check the versions that could be read; the source is chosen among them
        # (the same one when it is readable).  An unreadable version has a file, so it is not
        # expected (missing-version would call it missing): unreadable-version reports it.
        source = choose_source(documents, config, options)
        faulty = {fault.lang for fault in unreadable}
        expected = tuple(lang for lang in expected if lang not in faulty)
        if not documents:
            rules = {k: v for k, v in rules.items() if k == UNREADABLE_VERSION}
    article = align_article(
        article_set.id,
        documents,
        source,
        expected=expected,
        link_prefixes=config.links.localized_prefixes,
    )
    article.unreadable = unreadable
    needs = needs_of(rules)
    if "glossary" in needs and glossary is None:
        glossary = load_run_glossary(config, options)
    history = None
    if "history" in needs:
        readable = {lang: path for lang, path in versions.items() if lang in documents}
        history = source_changes(readable, source, documents.get(source))
    facts = ArticleFacts()
    ranges = {doc.path: silenced_ranges(doc) for doc in documents.values() if doc.directives}
    findings = []
    for rule_id, severity in rules.items():
        setting = config.rules.get(rule_id)
        found_by_rule = REGISTRY[rule_id].run(
            article,
            facts=facts,
            options=setting.options if setting else None,
            glossary=glossary,
            history=history,
        )
        for found in found_by_rule:
            if ranges and is_suppressed(found, ranges):
                continue
            findings.append(found.with_severity(severity))
    findings.sort(key=Finding.sort_key)
    return ArticleResult(article, findings, digests, history)


def needs_of(rules: Iterable[str]) -> frozenset[str]:
    """What the given rules need from the run (see :data:`parallelcheck.rules.base.NEEDS`)."""
    return frozenset().union(*(REGISTRY[rule_id].needs for rule_id in rules))


def _read_versions(
    versions: dict[str, str], within: Boundary | None = None
) -> tuple[dict[str, Document], tuple[UnreadableVersion, ...]]:
    """Each version's document (one read ahead by :mod:`parallelcheck.run.workers`, else read
    now), and the versions whose file could not be read, by language.

    With *within* (the article set's boundary) a version is read only when its real path lies
    inside it, checked right before the file is opened (and again on the open file): a
    symbolic link out of it is a fault "symbolic link to a file outside the project; not
    read", naming the link, and nothing of its target is read.  Every read is bounded (see
    :func:`~parallelcheck.readers.decode.read_bytes`): a FIFO, a device or a file over the
    size cap is a fault too."""
    documents: dict[str, Document] = {}
    unreadable: list[UnreadableVersion] = []
    for lang, path in sorted(versions.items()):
        try:
            documents[lang] = workers.read_before(path, lang) or read_version(path, lang, within)
        except InputError as error:
            unreadable.append(UnreadableVersion(lang, path, error.message, error.line))
    return documents, tuple(unreadable)


def _check_packed(args: tuple[ArticleSet, Config, CheckOptions, Glossary, bool]) -> ArticleResult:
    *checked, outlines = args
    result = check_article(*checked)
    return outline_only(result) if outlines else result


def check_all(
    article_sets: Sequence[ArticleSet],
    config: Config,
    options: CheckOptions,
    cache: Cache | None = None,
    outlines: bool = False,
) -> Iterator[ArticleResult]:
    """Check every article set, in the order given, using ``options.jobs`` processes.

    With ``outlines`` the results carry only each article's outline (see
    :func:`outline_only`) — what every format but html needs, and far cheaper to send back
    from worker processes.

    Results are yielded one article at a time, so memory does not grow with the number of
    articles.  With a ``cache``, an article whose files and settings are unchanged since an
    earlier run is taken from it instead of being checked again (see
    :mod:`parallelcheck.run.cache`).
    A result is stored under the key of the bytes it was computed from (the digests the check
    recorded), so a file edited during the run never leaves an entry that says otherwise.

    A version that cannot be read is a finding of its article (see the module's docstring).
    When not one version of any article could be read, nothing was checked: once every
    article has been yielded, :class:`InputError` is raised naming the (first) file.
    """
    rules = active_rules(config, options)  # fail early on unknown rule ids
    glossary = load_run_glossary(config, options)  # once per run, not per article
    keys: list[str | None] = [None] * len(article_sets)
    # Per article: what its key hashes besides the versions, and the versions' digests now.
    salts: list[bytes] = [b""] * len(article_sets)
    before: list[dict[str, bytes] | None] = [None] * len(article_sets)
    cached: list[ArticleResult | None] = [None] * len(article_sets)
    if cache is not None:
        settings = settings_digest(
            code_digest(),
            __version__,
            config,
            replace(options, jobs=0),
            sorted(rules.items()),
            glossary.fingerprint if glossary is not None else None,
        )
        for index, article_set in enumerate(article_sets):
            # Read inside the set's boundary, as the check reads: a file outside it is never
            # opened, not even to hash it (no key: the set is checked, and reports the fault,
            # every run).  The entry is stored under the digests of what the check's read gave.
            digests = version_digests(article_set.versions, article_set.boundary)
            if digests is None:
                continue
            salts[index] = settings + _history_state(article_set, rules)
            before[index] = digests
            keys[index] = article_key(salts[index], article_set.id, article_set.versions, digests)
            entry = cache.get(keys[index])
            if entry is not None:
                cached[index] = ArticleResult(*entry)
    todo = [a for a, hit in zip(article_sets, cached, strict=True) if hit is None]
    if not _needs_identifier(todo, rules):
        identifier.drop_read_ahead()  # started by the command line, in case it was needed
    fresh = _compute(todo, config, options, glossary, outlines)
    checked = False  # whether any version of any article was read
    faults: list[UnreadableVersion] = []
    for index, hit in enumerate(cached):
        if hit is None:
            hit = next(fresh)
            digests = before[index]
            if cache is not None and digests is not None:
                key = _checked_key(salts[index], article_sets[index], digests, hit.digests)
                if key is not None:
                    outline = hit if outlines else outline_only(hit)
                    cache.put(key, outline.article, outline.findings)
        checked = checked or bool(hit.article.langs)
        if not checked:
            faults.extend(hit.article.unreadable)
        yield hit
    if faults and not checked:
        raise nothing_readable(faults)


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


def _checked_key(
    salt: bytes,
    article_set: ArticleSet,
    before: dict[str, bytes],
    read: dict[str, bytes | None],
) -> str | None:
    """The key to store a fresh result under: that of the bytes it was checked from
    (``read``, by language, from :func:`check_article`), or ``None`` when a version it read
    has no digest (its file could not be read then).  A version the check did not read
    (``--lang`` left it out, so the result does not depend on it) keeps its digest from
    before the check."""
    digests = {}
    for lang in article_set.versions:
        if lang in read:
            digest = read[lang]
            if digest is None:
                return None
            digests[lang] = digest
        else:
            digests[lang] = before[lang]
    return article_key(salt, article_set.id, article_set.versions, digests)


def outline_only(result: ArticleResult) -> ArticleResult:
    """What a cache entry keeps, and exactly what it gives back (:mod:`parallelcheck.run.cache`
    writes and reads these fields, no others): the findings and the article's outline — id,
    source, versions, paths, link prefixes, unreadable versions, the aligned headings and how
    many blocks each holds — without the documents' text, rule options, glossary or history,
    which are most of the size and time of an entry.  Sequences are tuples, as the dataclasses
    declare them, so that a fresh outline and one read from the cache are equal.  Formats that
    show the articles' text (html) run without the cache."""
    article = result.article
    sections = [
        AlignedSection(
            cells={
                lang: None
                if section is None
                else Section(
                    section.level,
                    section.title,
                    section.line,
                    section.anchor,
                    [OUTLINE_BLOCK] * len(section.blocks),
                )
                for lang, section in row.cells.items()
            }
        )
        for row in article.sections
    ]
    outline = AlignedArticle(
        id=article.id,
        source=article.source,
        langs=tuple(article.langs),
        expected=tuple(article.expected),
        paths=dict(article.paths),
        documents={},
        sections=sections,
        link_prefixes=tuple(article.link_prefixes),
        unreadable=tuple(article.unreadable),
    )
    findings = [_with_tuples(finding) for finding in result.findings]
    return ArticleResult(outline, findings, result.digests)


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


def _history_state(article_set: ArticleSet, rules: dict[str, str]) -> bytes:
    """What git history adds to an article's cache key: HEAD, when a rule reads history."""
    if "history" not in needs_of(rules) or not article_set.versions:
        return b""
    top = work_tree(next(iter(article_set.versions.values())))
    return (head_commit(top) or "").encode() if top else b""


def _compute(
    article_sets: Sequence[ArticleSet],
    config: Config,
    options: CheckOptions,
    glossary: Glossary | None,
    outlines: bool,
) -> Iterator[ArticleResult]:
    jobs = options.jobs if options.jobs > 0 else cores.usable_cores()
    jobs = min(jobs, len(article_sets))  # a worker per article set at most
    packed = [(a, config, options, glossary, outlines) for a in article_sets]
    if jobs <= 1 or len(article_sets) < 4:
        yield from map(_check_packed, packed)
        return
    if workers.INHERIT and _needs_identifier(article_sets, active_rules(config, options)):
        # While the model is read in the background, import what it needs and read
        # documents the workers inherit.
        identifier.import_library()
        workers.read_ahead(article_sets, identifier.reading_ahead)
        identifier.load()  # once, shared by the workers forked below
    else:
        identifier.drop_read_ahead(wait=True)  # no thread may run while workers start
    sizes = [workers.size(article_set) for article_set in article_sets]
    yield from workers.map_largest_first(_check_packed, packed, sizes, jobs)


def _needs_identifier(article_sets: Sequence[ArticleSet], rules: dict[str, str]) -> bool:
    """Whether the statistical language identifier may be asked: only a rule that declares it
    needs ``langid`` asks it, and only to tell apart languages written in the Latin script
    (English always among them), so an article needs two Latin-script languages for it."""
    if "langid" not in needs_of(rules):
        return False
    for article_set in article_sets:
        latin = {primary_language(lang) for lang in article_set.versions if is_latin_language(lang)}
        if latin - {"en"}:
            return True
    return False
