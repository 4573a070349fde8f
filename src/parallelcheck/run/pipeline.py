"""Checking article sets: reading, git history, the cache and worker processes around the engine.

For every article set the run reads each version (:func:`read_versions`), asks git history
when a rule needs it, and hands the documents to the engine's pure
:func:`~parallelcheck.engine.check_article`; :func:`check_all` does that for a whole run,
following its :class:`~parallelcheck.run.plan.RunPlan`.  Article sets are independent, so
with several jobs they are checked in worker processes (:mod:`parallelcheck.run.workers`);
the results are the same, in the same order, whatever the number of jobs.

Reads are bounded and confined.  A version is read only when its real path lies inside its
article set's boundary (:attr:`ArticleSet.boundary <parallelcheck.model.article.ArticleSet>`,
which discovery sets: the checked folders and the project root), checked right before the file
is opened and again on the open file: a symbolic link out of it (a secret beside the checkout,
``.git/config``, ``/etc/passwd``) is a fault "symbolic link to a file outside the project; not
read" naming the link, and nothing of its target reaches a report.  A FIFO, a device or a file
over :data:`~parallelcheck.files.safe_read.MAX_DOCUMENT_BYTES` is a fault too, found without
blocking and without reading more than the cap (:mod:`parallelcheck.files.safe_read`).

Speed: the glossary is read once per run; with worker processes on Linux the language model
is loaded before they fork (they share it), documents are read ahead meanwhile and handed to
the workers with the rest of what they share (:class:`_Work`), and the largest article sets
go first.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace

from parallelcheck import __version__
from parallelcheck.config import Config
from parallelcheck.engine import (
    ArticleResult,
    CheckOptions,
    align_only,
    article_context,
    check_article,
    nothing_readable,
    selected_versions,
)
from parallelcheck.errors import InputError
from parallelcheck.files.safe_read import Boundary
from parallelcheck.glossary import Glossary, load_glossaries
from parallelcheck.glossary.match import (
    GlossaryMatcher,
    japanese_variants_available,
    optional_distributions,
    uses_japanese_variants,
)
from parallelcheck.history.git import head_commit, source_changes, work_tree
from parallelcheck.model.aligned import UnreadableVersion
from parallelcheck.model.article import ArticleSet
from parallelcheck.model.document import Document
from parallelcheck.model.finding import Finding
from parallelcheck.readers.content import read_version, take_digests
from parallelcheck.run import workers
from parallelcheck.run.cache import (
    Cache,
    article_key,
    code_digest,
    settings_digest,
    version_digests,
)
from parallelcheck.run.model_store import ModelStore
from parallelcheck.run.plan import RunPlan, make_plan
from parallelcheck.text import langid as identifier
from parallelcheck.text.langtag import primary_language


def load_run_glossary(config: Config, options: CheckOptions) -> Glossary:
    """The glossary of a run: ``config.glossary`` plus ``--glossary`` paths, read once.
    A malformed glossary is an :class:`InputError` (exit 2)."""
    return load_glossaries([*config.glossary, *options.glossaries])


def japanese_variants_missed(
    article_sets: Sequence[ArticleSet], config: Config, options: CheckOptions
) -> bool:
    """Whether the run matched Japanese versions against Japanese glossary forms without
    Sudachi (the ``ja`` extra not installed), so that spelling variants went unmatched.
    Reads the glossary again, but only in that case."""
    if japanese_variants_available():
        return False
    langs = {
        lang
        for article_set in article_sets
        for lang in article_set.versions
        if primary_language(lang) == "ja"
    }
    if not langs:
        return False
    glossary = load_run_glossary(config, options)
    return any(uses_japanese_variants(glossary, lang) for lang in langs)


def read_versions(
    versions: Mapping[str, str],
    within: Boundary | None = None,
    ahead: workers.ReadAhead | None = None,
) -> tuple[dict[str, Document], tuple[UnreadableVersion, ...]]:
    """Each version's document (one read *ahead* is taken from it, once; the others are read
    now), and the versions whose file could not be read, by language.

    With *within* (the article set's boundary) a version is read only when its real path lies
    inside it (see the module's docstring).  Every read is bounded (see
    :func:`~parallelcheck.readers.decode.read_bytes`): a FIFO, a device or a file over the
    size cap is a fault too."""
    documents: dict[str, Document] = {}
    unreadable: list[UnreadableVersion] = []
    for lang, path in sorted(versions.items()):
        try:
            document = ahead.pop((path, lang), None) if ahead else None
            documents[lang] = document or read_version(path, lang, within)
        except InputError as error:
            unreadable.append(UnreadableVersion(lang, path, error.message, error.line))
    return documents, tuple(unreadable)


def check_set(
    article_set: ArticleSet,
    config: Config,
    options: CheckOptions,
    glossary: Glossary | None = None,
    *,
    plan: RunPlan | None = None,
    ahead: workers.ReadAhead | None = None,
    terms: GlossaryMatcher | None = None,
    known: list[Finding] | None = None,
) -> ArticleResult:
    """Read, align and check one article set.  ``terms`` is the run's glossary compiled
    (:func:`check_all` reads and compiles it once for the run); without it, ``glossary`` is
    compiled here, or read here when not given either, if a rule needs it.  ``ahead`` holds
    documents read ahead (see :func:`read_versions`).  With ``known`` (the article's
    findings, from the cache) no rule runs: the article is read and aligned for its text
    (:func:`~parallelcheck.engine.align_only`) and the result holds those findings."""
    plan = plan if plan is not None else make_plan(config, options)
    versions, source, expected = selected_versions(article_set.versions, config, options)
    documents, unreadable = read_versions(versions, article_set.boundary, ahead)
    digests = take_digests(versions)  # of the very bytes the documents were parsed from
    if plan.glossary and terms is None and known is None:
        terms = GlossaryMatcher(
            glossary if glossary is not None else load_run_glossary(config, options)
        )
    context = article_context(
        article_set.id,
        source,
        expected,
        documents,
        unreadable,
        config,
        options,
        plan.rules,
        terms,
    )
    if known is not None:
        result = ArticleResult(align_only(documents, unreadable, context), list(known))
    else:
        if plan.history:
            readable = {lang: path for lang, path in versions.items() if lang in documents}
            history = source_changes(readable, context.source, documents.get(context.source))
            context = replace(context, history=history)
        result = check_article(documents, unreadable, context)
    result.digests = digests
    return result


@dataclass(frozen=True)
class _Job:
    """One article set to check — or, with ``known`` (its findings, from the cache), only to
    read and align, for the text a format shows (see :meth:`RunPlan.keeps_article
    <parallelcheck.run.plan.RunPlan.keeps_article>`)."""

    article_set: ArticleSet
    known: list[Finding] | None = None


@dataclass(frozen=True)
class _Work:
    """What checking every article set of a run shares: handed once to each worker process
    (forked workers inherit it), not with every article set."""

    config: Config
    options: CheckOptions
    terms: GlossaryMatcher | None
    plan: RunPlan
    ahead: workers.ReadAhead
    #: Where the language model is kept decompressed, when the run may ask it: a worker
    #: that did not inherit the model (started afresh: Windows, macOS) reads it from there.
    models: ModelStore | None = None


def _check_one(work: _Work, job: _Job) -> ArticleResult:
    if work.models is not None and not identifier.is_loaded():
        # A worker started afresh reads its own copy when its first guess asks for it: from
        # the cache folder (or stored there, when no earlier run stored it).
        identifier.keep_model_in(work.models)
    result = check_set(
        job.article_set,
        work.config,
        work.options,
        plan=work.plan,
        ahead=work.ahead,
        terms=work.terms,
        known=job.known,
    )
    return result if work.plan.keeps_article(result.findings) else result.outline_only()


def check_all(
    article_sets: Sequence[ArticleSet],
    config: Config,
    options: CheckOptions,
    cache: Cache | None = None,
    outlines: bool = False,
    *,
    plan: RunPlan | None = None,
) -> Iterator[ArticleResult]:
    """Check every article set, in the order given, as *plan* says (by default: made from
    *config* and *options*, the results keeping their aligned articles unless *outlines*).

    With outlines the results carry only each article's outline (:attr:`ArticleResult.article`
    is ``None``) — what every format but html needs, and far cheaper to send back from worker
    processes.

    Results are yielded one article at a time, so memory does not grow with the number of
    articles.  With a ``cache``, an article whose files and settings are unchanged since an
    earlier run is taken from it instead of being checked again (see
    :mod:`parallelcheck.run.cache`).  A result is stored under the key of the bytes it was
    computed from (the digests the check recorded), so a file edited during the run never
    leaves an entry that says otherwise.  An entry holds the outline, not the text: when the
    plan keeps the aligned article of a result with such findings (:meth:`RunPlan.keeps_article
    <parallelcheck.run.plan.RunPlan.keeps_article>`), the article is read and aligned again but
    no rule runs — its findings are the entry's (and should its files have changed since the
    key was made, it is checked in full).

    A version that cannot be read is a finding of its article (see
    :mod:`parallelcheck.engine`).  When not one version of any article could be read, nothing
    was checked: once every article has been yielded, :class:`InputError` is raised naming
    the (first) file.
    """
    if plan is None:
        # Fails early on unknown rule ids.
        plan = make_plan(config, options, outlines=outlines, no_cache=cache is None)
    glossary = load_run_glossary(config, options)  # once per run, not per article
    keys: list[str | None] = [None] * len(article_sets)
    # Per article: what its key hashes besides the versions, and the versions' digests now.
    salts: list[bytes] = [b""] * len(article_sets)
    before: list[dict[str, bytes] | None] = [None] * len(article_sets)
    cached: list[ArticleResult | None] = [None] * len(article_sets)
    # Per article: the entry's findings, when the article is only aligned again for its text.
    known: list[list[Finding] | None] = [None] * len(article_sets)
    if cache is not None:
        settings = settings_digest(
            code_digest(),
            __version__,
            config,
            replace(options, jobs=0),
            sorted(plan.rules.items()),
            glossary.fingerprint if glossary is not None else None,
            optional_distributions() if glossary else None,
        )
        for index, article_set in enumerate(article_sets):
            # Read inside the set's boundary, as the check reads: a file outside it is never
            # opened, not even to hash it (no key: the set is checked, and reports the fault,
            # every run).  The entry is stored under the digests of what the check's read gave.
            digests = version_digests(article_set.versions, article_set.boundary)
            if digests is None:
                continue
            salts[index] = settings + _history_state(article_set, plan)
            before[index] = digests
            keys[index] = article_key(salts[index], article_set.id, article_set.versions, digests)
            entry = cache.get(keys[index])
            if entry is not None and plan.keeps_article(entry[1]):
                known[index] = entry[1]
            elif entry is not None:
                outline, findings = entry
                # The digests of its key: the bytes the cached findings were computed from.
                cached[index] = ArticleResult(None, findings, dict(digests), outline=outline)
    todo = [i for i in range(len(article_sets)) if cached[i] is None]
    jobs = [_Job(article_sets[i], known[i]) for i in todo]
    asks = plan.asks_identifier([job.article_set for job in jobs if job.known is None])
    models = ModelStore() if asks else None
    if models is not None and (workers.INHERIT or plan.workers_for(len(jobs)) <= 1):
        # Read from now on, beside what comes before the first guess (the workers'
        # preparation, documents read ahead), when this process's copy is the one used: a
        # run that cannot need it never reads it, nor one whose workers read their own.
        # Read from the cache folder when an earlier run stored it decompressed there.
        identifier.read_ahead(models)
    terms = GlossaryMatcher(glossary) if plan.glossary else None  # compiled once for the run
    work = _Work(config, options, terms, plan, {}, models)

    def stored(index: int, hit: ArticleResult) -> ArticleResult:
        """A fresh result, put in the cache as soon as it arrives (so that a run stopped
        halfway keeps every article it finished), or checked again in full when its entry's
        findings turn out not to be of the text it was aligned from."""
        digests = before[index]
        if cache is None or digests is None:
            return hit
        key = _checked_key(salts[index], article_sets[index], digests, hit.digests)
        if known[index] is not None and key != keys[index]:
            # Edited since its key was made: the entry's findings are not of this text.
            hit = _check_one(work, _Job(article_sets[index]))
            key = _checked_key(salts[index], article_sets[index], digests, hit.digests)
            known[index] = None
        if key is not None and known[index] is None:  # (else: the entry it came from)
            kept = hit if hit.article is None else hit.outline_only()
            cache.put(key, kept.outline, kept.findings)
        return hit

    arrived: dict[int, ArticleResult] = {}
    with contextlib.closing(_compute(jobs, work)) as fresh:
        checked = False  # whether any version of any article was read
        faults: list[UnreadableVersion] = []
        for index, hit in enumerate(cached):
            while hit is None and index not in arrived:
                position, result = next(fresh)
                arrived[todo[position]] = stored(todo[position], result)
            if hit is None:
                hit = arrived.pop(index)
            checked = checked or bool(hit.outline.langs)
            if not checked:
                faults.extend(hit.outline.unreadable)
            yield hit
    if faults and not checked:
        raise nothing_readable(faults)


def _checked_key(
    salt: bytes,
    article_set: ArticleSet,
    before: dict[str, bytes],
    read: dict[str, bytes | None],
) -> str | None:
    """The key to store a fresh result under: that of the bytes it was checked from
    (``read``, by language, from :func:`check_set`), or ``None`` when a version it read
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


def _history_state(article_set: ArticleSet, plan: RunPlan) -> bytes:
    """What git history adds to an article's cache key: HEAD, when a rule reads history."""
    if not plan.history or not article_set.versions:
        return b""
    top = work_tree(next(iter(article_set.versions.values())))
    return (head_commit(top) or "").encode() if top else b""


def _compute(todo: Sequence[_Job], work: _Work) -> Iterator[tuple[int, ArticleResult]]:
    """Each job's result, with its index in *todo*, as soon as it is done."""
    jobs = work.plan.workers_for(len(todo))
    if jobs <= 1:
        for index, job in enumerate(todo):
            yield index, _check_one(work, job)
        return
    checked = [job.article_set for job in todo if job.known is None]  # the rules run on these
    if workers.INHERIT:
        work.plan.prepare(checked, work.config, work.terms)  # once, for every worker
    if workers.INHERIT and work.plan.asks_identifier(checked):
        # While the model is read in the background, import what it needs and read
        # documents the workers inherit.
        identifier.import_library()
        article_sets = [job.article_set for job in todo]
        work.ahead.update(workers.read_ahead(article_sets, identifier.reading_ahead))
        identifier.load()  # once, shared by the workers forked below
    else:
        identifier.drop_read_ahead(wait=True)  # no thread may run while workers start
    sizes = [workers.size(job.article_set) for job in todo]
    try:
        yield from workers.complete_largest_first(_check_one, todo, sizes, jobs, shared=work)
    finally:
        work.ahead.clear()  # what the workers did not take
