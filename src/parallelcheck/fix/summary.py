"""What fixing did, or would do, in the lines ``check`` writes on standard error."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from parallelcheck.fix.apply import FixPlan
from parallelcheck.model.finding import Finding
from parallelcheck.model.fix import SAFE


def fixes_done(written: Sequence[FixPlan], last: FixPlan, *, would: bool) -> list[str]:
    """The summary of a ``--fix`` run that wrote the plans ``written`` and whose final check
    gives ``last`` (or, with ``would``, of a ``--diff`` run showing ``last``): how many
    findings were fixed in how many files, how many more ``--unsafe-fixes`` would fix, what is
    left to fix, then one note per fix that could not be applied and why."""
    plans = [last] if would else list(written)
    applied = sum(len(plan.applied) for plan in plans)
    files = {path for plan in plans for path in plan.files}
    verb = "would fix" if would else "fixed"
    line = f"parallelcheck: {verb} {_count(applied, 'finding')} in {_count(len(files), 'file')}"
    more = []
    if last.hidden:
        more.append(f"{len(last.hidden)} more with --unsafe-fixes")
    if would and last.overlapped:
        more.append(f"{len(last.overlapped)} more once these are applied (they overlap them)")
    if not would and last.files:
        more.append(f"{len(last.applied)} still fixable after {len(written)} passes: run again")
    lines = [line + (f" ({'; '.join(more)})" if more else "")]
    for finding, reason in last.refused:
        what = f"the fix of a {finding.rule} finding was not applied"
        lines.append(f"parallelcheck: note: {what}: {reason}")
    return lines


def fixable_note(findings: Iterable[Finding], unsafe: bool) -> str | None:
    """How many of ``findings`` ``--fix`` (and ``--unsafe-fixes``) would repair, as a note;
    ``None`` when none has a fix."""
    fixes = [finding.fix for finding in findings if finding.fix is not None]
    if not fixes:
        return None
    safe = sum(1 for fix in fixes if fix.applicability == SAFE)
    if safe and not unsafe:
        note = f"{_count(safe, 'finding')} can be fixed with --fix"
        if len(fixes) > safe:
            note += f" ({len(fixes) - safe} more with --unsafe-fixes)"
    else:
        note = f"{_count(len(fixes), 'finding')} can be fixed with --fix --unsafe-fixes"
    return f"parallelcheck: note: {note}; --diff shows how"


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"
