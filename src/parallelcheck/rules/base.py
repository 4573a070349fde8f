"""Rule specifications and the context a rule runs in.

A rule is one function ``check(context) -> Iterable[Finding]`` registered with :func:`rule`.
Its registration is its :class:`RuleSpec`: the stable id, the default severity, tags, what it
needs from the run (``glossary``, ``history``, ``langid``) and its options with their defaults.
Its docstring is its user documentation: the first paragraph is the rule's one-line summary
(``parallelcheck rules``, SARIF, the README's table and ``docs/rules.md`` show it), the whole
text is what ``parallelcheck explain RULE`` prints.

A rule reads only its :class:`RuleContext` — the aligned article, the facts computed once per
block, its own options and the run resources it declared — and builds findings through
:meth:`RuleContext.finding`, which names the rule, so an id is written once, at registration.
It never reads files, prints or knows about the command line.

Severity (docs/severities.md): a finding has its rule's default severity
(:attr:`RuleSpec.severity`) unless the rule grades it by what differs — ``ctx.finding(…,
severity="error")``, so that a changed checksum is an error where a renamed product is a
warning.  A severity the user configures for the rule (``rules: {token-mismatch: info}``)
replaces both on every finding of the rule: the engine stamps it.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from parallelcheck.facts import ArticleFacts
from parallelcheck.glossary.match import GlossaryMatcher
from parallelcheck.model.aligned import AlignedArticle, AlignedBlock, AlignedSection
from parallelcheck.model.finding import SEVERITIES, Finding, Location
from parallelcheck.model.fix import APPLICABILITIES, Fix
from parallelcheck.model.options import Option, OptionError

if TYPE_CHECKING:
    from parallelcheck.glossary.model import Glossary
    from parallelcheck.model.changes import SourceChanges

__all__ = [
    "NEEDS",
    "REGISTRY",
    "TAGS",
    "Option",
    "OptionError",
    "RuleContext",
    "RuleSpec",
    "rule",
]

#: What a rule may ask the run for.  ``glossary``: the run's glossary (the ``term-*`` rules);
#: ``history``: what changed in the source since each translation's last commit (git);
#: ``langid``: the statistical language identifier (loaded, and read ahead, only when needed).
NEEDS = frozenset({"glossary", "history", "langid"})
#: How rules are grouped for ``--select``/``--ignore`` and in the reference: ``structure``
#: (sections, blocks, shapes), ``values`` (numbers, tokens, code, links, terms), ``language``
#: (untranslated text, script, regional vocabulary), ``input`` (files that cannot be read or
#: are missing), ``history`` (git), ``suppression`` (the suppression comments themselves).
TAGS = frozenset({"structure", "values", "language", "input", "history", "suppression"})


Check = Callable[["RuleContext"], Iterable[Finding]]
Prepare = Callable[[Sequence[str], Mapping[str, Any]], None]


@dataclass(frozen=True)
class RuleSpec:
    """A registered rule (see the module's docstring)."""

    id: str
    #: The default severity of the rule's findings (a rule may grade one finding otherwise:
    #: :meth:`RuleContext.finding`).
    severity: str
    check: Check = field(repr=False)
    tags: frozenset[str] = frozenset()
    needs: frozenset[str] = frozenset()
    options: Mapping[str, Option] = field(default_factory=dict)
    #: Runs only when asked for (by the configuration, ``--select`` or an option of its
    #: own), as ruff's RUF100 does: a check of the comments rather than of the article.
    opt_in: bool = False
    #: The applicabilities of the fixes its findings may carry (``safe``, ``unsafe``;
    #: :mod:`parallelcheck.model.fix`); empty for a rule that fixes nothing.
    fixes: frozenset[str] = frozenset()
    #: What the rule loads on its first article, loaded now for versions in *langs* with
    #: its options: a run calls it once before it forks worker processes, which then share
    #: what it loaded instead of each loading its own (``None``: nothing to load).
    prepare: Prepare | None = field(default=None, repr=False)

    @property
    def doc(self) -> str:
        """The rule's documentation: its check function's docstring."""
        return inspect.getdoc(self.check) or ""

    @property
    def summary(self) -> str:
        """The documentation's first paragraph, on one line."""
        return " ".join(self.doc.split("\n\n", 1)[0].split())

    def option_values(self, configured: Mapping[str, Any] | None = None) -> Mapping[str, Any]:
        """Every option's value: the configured one where set (already read by the
        configuration), else the default."""
        values = {name: option.default for name, option in self.options.items()}
        values.update(configured or {})
        return MappingProxyType(values)

    def run(
        self,
        article: AlignedArticle,
        *,
        facts: ArticleFacts | None = None,
        options: Mapping[str, Any] | None = None,
        glossary: Glossary | None = None,
        history: Mapping[str, SourceChanges] | None = None,
    ) -> Iterable[Finding]:
        """The rule's findings on *article*: its context is built here, with the configured
        *options* over the defaults and only the resources the rule declared it needs.  The
        *facts* of a run hold the run's glossary matcher; without them, facts are made here
        with a matcher of *glossary*."""
        if facts is None:
            wanted = glossary if "glossary" in self.needs else None
            facts = ArticleFacts(GlossaryMatcher(wanted) if wanted is not None else None)
        context = RuleContext(
            self,
            article,
            facts,
            self.option_values(options),
            glossary if "glossary" in self.needs else None,
            history if "history" in self.needs else None,
        )
        return self.check(context)


REGISTRY: dict[str, RuleSpec] = {}


def rule(
    rule_id: str,
    *,
    severity: str,
    tags: Iterable[str],
    needs: Iterable[str] = (),
    options: Mapping[str, Option] | None = None,
    opt_in: bool = False,
    fixes: Iterable[str] = (),
    prepare: Prepare | None = None,
) -> Callable[[Check], Check]:
    """Register a rule function under a stable id (ids are never reused once retired);
    ``fixes`` are the applicabilities of the fixes its findings may carry."""
    tags, needs, fixes = frozenset(tags), frozenset(needs), frozenset(fixes)
    if severity not in SEVERITIES:
        raise ValueError(f"rule {rule_id!r}: unknown severity {severity!r}")
    if not tags or tags - TAGS:
        raise ValueError(f"rule {rule_id!r}: tags must be some of {sorted(TAGS)}")
    if needs - NEEDS:
        raise ValueError(f"rule {rule_id!r}: unknown needs {sorted(needs - NEEDS)}")
    if fixes - set(APPLICABILITIES):
        raise ValueError(f"rule {rule_id!r}: unknown fix applicability {sorted(fixes)}")

    def register(check: Check) -> Check:
        if rule_id in REGISTRY:
            raise ValueError(f"rule id {rule_id!r} registered twice")
        if not inspect.getdoc(check):
            raise ValueError(f"rule {rule_id!r} has no docstring (its summary and documentation)")
        REGISTRY[rule_id] = RuleSpec(
            rule_id,
            severity,
            check,
            tags,
            needs,
            MappingProxyType(dict(options or {})),
            opt_in,
            fixes,
            prepare,
        )
        return check

    return register


@dataclass(frozen=True)
class RuleContext:
    """What one rule sees of one article: the alignment, the article's facts, its options and
    the resources it declared in ``needs`` (``None`` when not declared or not available:
    no glossary configured, not a git work tree)."""

    spec: RuleSpec
    article: AlignedArticle
    facts: ArticleFacts
    options: Mapping[str, Any] = field(default_factory=dict)
    glossary: Glossary | None = None
    history: Mapping[str, SourceChanges] | None = None

    def finding(
        self,
        section: AlignedSection | None,
        langs: Sequence[str],
        reference_langs: Sequence[str],
        lines: Mapping[str, int],
        message: str,
        evidence: dict | None = None,
        row: AlignedBlock | None = None,
        severity: str | None = None,
        fix: Fix | None = None,
    ) -> Finding:
        """A finding of this rule with one location per version in ``lines`` (in the article's
        order); ``langs`` deviate, ``reference_langs`` are what they were compared with.
        ``severity`` grades this finding (one of ``error``, ``warning``, ``info``); without it
        the finding has the rule's default severity.  Either way a severity configured for the
        rule replaces it (the engine's).

        The finding records its place in the alignment: the index of ``section`` among the
        article's aligned sections and, when the rule names the aligned ``row`` of blocks it
        is about, that row's index in the section (both found by identity; ``None`` when not
        given).

        ``fix`` is how to repair what the finding reports (:mod:`parallelcheck.model.fix`); it
        may edit only the deviating versions (``langs``), never the source."""
        if severity is None:
            severity = self.spec.severity
        elif severity not in SEVERITIES:
            raise ValueError(f"rule {self.spec.id!r}: unknown severity {severity!r}")
        article = self.article
        if fix is not None:
            if fix.applicability not in self.spec.fixes:
                raise ValueError(
                    f"rule {self.spec.id!r} makes a fix it does not declare ({fix.applicability})"
                )
            editable = {article.paths[lang] for lang in langs if lang != article.source}
            stray = [path for path in fix.paths if path not in editable]
            if stray:
                raise ValueError(
                    f"rule {self.spec.id!r}: a fix edits {stray[0]}, not a deviating translation"
                )
        order = [lang for lang in article.langs if lang in lines]
        section_row = block_row = None  # found by identity: rows may be equal, not the same
        if section is not None:
            section_row = next((i for i, s in enumerate(article.sections) if s is section), None)
            if row is not None:
                block_row = next((i for i, r in enumerate(section.rows) if r is row), None)
                if block_row is None:  # a row nested in a container: the container's row
                    block_row = next((i for i, r in enumerate(section.rows) if r.holds(row)), None)
        return Finding(
            rule=self.spec.id,
            article=article.id,
            section=article.section_title(section) if section is not None else "",
            langs=_ordered(article, langs),
            reference_langs=_ordered(article, reference_langs),
            locations=tuple(Location(lang, article.paths[lang], lines[lang]) for lang in order),
            message=message,
            evidence=evidence or {},
            severity=severity,
            section_row=section_row,
            block_row=block_row,
            fix=fix,
        )


def _ordered(article: AlignedArticle, langs: Iterable[str]) -> tuple[str, ...]:
    wanted = set(langs)
    return tuple(lang for lang in article.expected if lang in wanted)
