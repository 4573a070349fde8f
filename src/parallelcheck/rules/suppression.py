"""The suppression comments themselves (docs/suppression.md): a rule id that names no rule,
and a comment that silenced nothing."""

from __future__ import annotations

from collections.abc import Iterator

from parallelcheck.model.document import Directive
from parallelcheck.model.finding import Finding
from parallelcheck.rules._common import join_words
from parallelcheck.rules.base import REGISTRY, TAGS, RuleContext, rule
from parallelcheck.text.suggest import closest

#: The rules' ids, for the engine (which runs ``suppression-unused`` last).
SUPPRESSION_UNKNOWN_RULE = "suppression-unknown-rule"
SUPPRESSION_UNUSED = "suppression-unused"

#: The comments that silence findings (``enable`` only ends them, whatever it names).
_SILENCING = ("disable", "disable-next-block")


@rule(SUPPRESSION_UNKNOWN_RULE, severity="error", tags=("suppression",))
def suppression_unknown_rule(ctx: RuleContext) -> Iterator[Finding]:
    """A suppression comment names a rule id that does not exist, so it silences nothing
    under that name.

    A ``<!-- parallelcheck-disable RULE -->`` or ``<!-- parallelcheck-disable-next-block
    RULE -->`` comment names a rule id no rule has — a typo (``missing-paragrah``), a tag
    (``values``: comments take rule ids only), a retired id.  The comment silences nothing
    under that name, so the finding it was written for is either reported anyway or will be
    once it appears.  One finding per such comment, at the comment's line in its version,
    naming the unknown ids and the closest rule id to each.  The rule ids the comment names
    correctly work as usual, and a comment naming no rule at all silences every rule.

    An error, as ESLint reports a disable comment naming an unknown rule: the comment does
    not do what its author meant, and only reading the report shows it.  It is a finding
    rather than a stop of the run (as an unknown rule id in the configuration is): the rest
    of the article and every other article are still checked and reported.

    Fails: ``<!-- parallelcheck-disable missing-paragrah -->`` (did you mean
    ``missing-paragraph``?).
    """
    article = ctx.article
    for lang in article.langs:
        for directive in article.documents[lang].directives:
            unknown = [name for name in directive.rules if name not in REGISTRY]
            if directive.action in _SILENCING and unknown:
                yield ctx.finding(
                    None,
                    [lang],
                    [],
                    {lang: directive.line},
                    _unknown_message(directive, unknown),
                    {"comment": directive.action, "unknown": unknown},
                )


def _unknown_message(directive: Directive, unknown: list[str]) -> str:
    one = len(unknown) == 1
    names = join_words(f"“{name}”" for name in unknown)
    hints = []
    for name in unknown:
        close = closest(name, REGISTRY)
        if name in TAGS:
            hints.append(f"“{name}” is a tag, and a comment takes rule ids only.")
        elif close is not None:
            hints.append(f"Did you mean “{close}”" + ("?" if one else f" for “{name}”?"))
    hint = f" ({' '.join(hints)})" if hints else ""
    return (
        f"the parallelcheck-{directive.action} comment names {names}, which "
        f"{'is no rule id' if one else 'are no rule ids'}, so it silences nothing under "
        f"{'that name' if one else 'those names'}{hint}"
    )


@rule(SUPPRESSION_UNUSED, severity="warning", tags=("suppression",), opt_in=True)
def suppression_unused(ctx: RuleContext) -> Iterator[Finding]:
    """A suppression comment silenced no finding (run with ``--report-unused-suppressions``).

    A ``parallelcheck-disable`` or ``parallelcheck-disable-next-block`` comment silenced no
    finding of a rule it names in this run — the difference it was written for was fixed, or
    the comment stands where no finding of that rule is — so it can go, before it silences a
    real difference later.  A comment naming no rule is reported when it silenced no finding
    at all.  One finding per comment, at its line, naming the rules it silenced nothing of.

    This rule runs only when asked for, as ruff's ``RUF100`` and ESLint's
    ``--report-unused-disable-directives``: ``check --report-unused-suppressions``, or a
    setting in the configuration (``rules: {suppression-unused: warning}``), or ``--select
    suppression-unused``.  It judges only the rules that ran: a comment naming a rule that
    ``--select``, ``--ignore`` or the configuration left out is not reported, and nothing is
    reported in a run limited to some versions by ``--lang``, where a comment may be there
    for a version left out.  Its own findings are not silenced by comments (the engine
    reports them after the others).

    Fails: ``<!-- parallelcheck-disable-next-block link-mismatch -->`` above a paragraph whose
    links agree with the source's.
    """
    use = ctx.article.suppression_use
    if use is None:
        return
    article = ctx.article
    for lang in article.langs:
        document = article.documents[lang]
        used = use.used.get(document.path, frozenset())
        for directive in document.directives:
            if directive.action not in _SILENCING:
                continue
            if not directive.rules:
                if (directive.line, "") not in used:
                    message = "silences no finding: remove it"
                    yield _unused(ctx, lang, directive, [], message)
                continue
            idle = [r for r in directive.rules if r in use.ran and (directive.line, r) not in used]
            if not idle:
                continue
            known = [r for r in directive.rules if r in REGISTRY]
            named = join_words(f"“{name}”" for name in idle)
            fix = "remove it" if len(idle) == len(known) else f"remove {named} from it"
            message = f"silences no finding of {join_words(idle)}: {fix}"
            yield _unused(ctx, lang, directive, idle, message)


def _unused(
    ctx: RuleContext, lang: str, directive: Directive, idle: list[str], message: str
) -> Finding:
    return ctx.finding(
        None,
        [lang],
        [],
        {lang: directive.line},
        f"the parallelcheck-{directive.action} comment {message}",
        {"comment": directive.action, "rules": idle},
    )
