"""The plan of a run: what the selected rules and the output format need, decided once.

A :class:`RunPlan` is made from the configuration and the command line's options
(:func:`make_plan`) before anything is checked, and every mechanism of the run follows it:

* **the rules** that run, with their severities (:func:`~parallelcheck.engine.active_rules`),
  and what they need (their :attr:`RuleSpec.needs <parallelcheck.rules.base.RuleSpec>`):
  the glossary is read once for the run when a rule needs it, git history per article when
  a rule needs it (and the repository's HEAD is then part of each cache key);
* **the language model** (``langid``): the statistical identifier is asked only to tell apart
  languages written in the Latin script, English always among them, so it is loaded — and
  read ahead while documents are read, before worker processes fork — only when a rule
  needs it and an article to check has two Latin-script languages
  (:meth:`RunPlan.asks_identifier`);
* **the workers**: how many processes check the articles (:meth:`RunPlan.workers_for`), and
  what is loaded once before they fork, so that they share it (:meth:`RunPlan.prepare`);
* **what a result keeps**: the output format declares whether it reads only the articles'
  outlines, every aligned article, or the aligned articles with findings (html; see
  :mod:`parallelcheck.report.base`); worker processes send back no more than that
  (:meth:`RunPlan.keeps_article`), so memory does not grow with the text of the articles a
  format does not show;
* **the cache mode**: the result cache holds outlines, so it is used unless the format reads
  every aligned article or ``--no-cache`` is given
  (:func:`~parallelcheck.run.session.cache_mode`); for a format that reads the aligned
  articles with findings, an entry with findings does not answer (the article is checked
  again, for its text).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from parallelcheck.config import Config
from parallelcheck.engine import CheckOptions, active_rules, needs_of
from parallelcheck.glossary.match import GlossaryMatcher
from parallelcheck.model.article import ArticleSet
from parallelcheck.model.finding import Finding
from parallelcheck.rules import REGISTRY
from parallelcheck.run import cores
from parallelcheck.run.session import ALIGNED, CACHE_OFF, FLAGGED, OUTLINE, cache_mode
from parallelcheck.text import numeric as numbers
from parallelcheck.text.langtag import primary_language
from parallelcheck.text.script import is_latin_language

#: A run checks in this process when it has fewer article sets than this.
MIN_PARALLEL = 4


@dataclass(frozen=True)
class RunPlan:
    """What one run does (see the module's docstring)."""

    #: Rule id → configured severity (``None``: the rule's own) of every rule that runs, in
    #: the registry's order.
    rules: Mapping[str, str | None]
    #: What those rules need: some of ``glossary``, ``history``, ``langid``.
    needs: frozenset[str]
    #: Worker processes asked for (0: one per core this process may use).
    jobs: int = 1
    #: What a result keeps of its article: OUTLINE, ALIGNED or FLAGGED (the aligned article
    #: when it has findings).
    keeps: str = ALIGNED
    #: CACHE_ON or CACHE_OFF.
    cache: str = CACHE_OFF

    @property
    def glossary(self) -> bool:
        return "glossary" in self.needs

    @property
    def history(self) -> bool:
        return "history" in self.needs

    @property
    def langid(self) -> bool:
        return "langid" in self.needs

    @property
    def outlines(self) -> bool:
        """Whether results keep only each article's outline."""
        return self.keeps == OUTLINE

    def keeps_article(self, findings: Sequence[Finding]) -> bool:
        """Whether a result with *findings* keeps its aligned article (else its outline
        only): never for an outline format, always for an aligned one, and for a flagged
        one when there are findings.  A cache entry, which holds an outline, answers only
        for a result that does not keep its article."""
        return self.keeps == ALIGNED or (self.keeps == FLAGGED and bool(findings))

    def workers_for(self, count: int) -> int:
        """Worker processes for *count* article sets: 1 (this process) for few of them, else
        the asked or usable cores, never more than the article sets."""
        if count < MIN_PARALLEL:
            return 1
        jobs = self.jobs if self.jobs > 0 else cores.usable_cores()
        return max(1, min(jobs, count))

    def prepare(
        self,
        article_sets: Sequence[ArticleSet],
        config: Config,
        terms: GlossaryMatcher | None = None,
    ) -> None:
        """Load now what checking *article_sets* would load on a first article: each
        language's number patterns, the run's glossary compiled for it (*terms*), and what
        the rules that run declare (:attr:`RuleSpec.prepare
        <parallelcheck.rules.base.RuleSpec>`, with their configured options).  A run calls
        this before it forks worker processes, which then share it instead of each loading
        its own."""
        langs = sorted({lang for article_set in article_sets for lang in article_set.versions})
        for lang in langs:
            numbers.prepare(lang)
            if terms is not None:
                terms.language(lang)
        for rule_id in self.rules:
            spec = REGISTRY[rule_id]
            if spec.prepare is not None:
                setting = config.rules.get(rule_id)
                spec.prepare(langs, spec.option_values(setting.options if setting else None))

    def asks_identifier(self, article_sets: Sequence[ArticleSet]) -> bool:
        """Whether the statistical language identifier may be asked when checking
        *article_sets*: a rule needs ``langid`` and an article has two Latin-script
        languages (English always among them, so another one)."""
        if not self.langid:
            return False
        for article_set in article_sets:
            latin = {
                primary_language(lang) for lang in article_set.versions if is_latin_language(lang)
            }
            if latin - {"en"}:
                return True
        return False


def make_plan(
    config: Config,
    options: CheckOptions,
    *,
    needs: str = OUTLINE,
    no_cache: bool = False,
    outlines: bool | None = None,
) -> RunPlan:
    """The plan of a run with *config* and *options* for a format that *needs* outlines,
    aligned articles or the aligned articles with findings (``outlines``, when given, says
    outlines or aligned articles instead).  Raises :class:`~parallelcheck.errors.InputError`
    for an unknown rule id in ``--select`` or ``--ignore``."""
    rules = active_rules(config, options)
    if outlines is not None:
        needs = OUTLINE if outlines else ALIGNED
    return RunPlan(
        rules=rules,
        needs=needs_of(rules),
        jobs=options.jobs,
        keeps=needs,
        cache=cache_mode(no_cache=no_cache, needs=needs),
    )
