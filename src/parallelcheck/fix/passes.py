"""The passes of one ``check --fix`` run, and the fixes they stop applying.

``check --fix`` fixes, checks again, and fixes what is still fixable, up to a few passes
(a fix left out because it overlapped another is applied by the next).  Two kinds of fix
would be applied on every pass, for nothing; :class:`FixPasses` remembers them by the
fingerprint of their finding (:mod:`parallelcheck.model.fingerprint`) and refuses them for
the rest of the run, with a note naming the place:

* **a fix that did not take**: the check after the pass finds as many findings of that
  identity as before (:func:`not_taken`).  The fix changed the file but not what the check
  reads — a block copied after a component the version leaves open lands inside it, and is
  still missing — and each pass would write another copy;
* **fixes going round in a circle**: a pass would bring a file back to a text it held before
  the run or after an earlier pass.  Two code blocks the alignment pairs crosswise (tabs in
  another order than the source's) are each made the other's code, then back, pass after
  pass.  Every fix that edits such a file in that pass is refused.

A run knows nothing of earlier runs' passes; what keeps a new run from writing a copy that
did not take once more is :func:`~parallelcheck.fix.apply.plan_fixes`'s own test (the text
it would insert already stands right before the place).  Fixes going round in a circle are
applied once by each new run.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterable, Mapping

from parallelcheck.fix.apply import FixPlan, plan_fixes
from parallelcheck.fix.files import Checked
from parallelcheck.model.finding import Finding
from parallelcheck.model.fingerprint import finding_fingerprint

#: Why a fix that did not take is refused, after the finding's place.
NOT_TAKEN = (
    "{place}: applied by an earlier pass, the fix changed the file but the check still finds "
    "the same there; look at the place yourself (a container left open before it?)"
)
#: Why fixes going round in a circle are refused, after the finding's place.
IN_A_CIRCLE = (
    "{place}: with the other fixes of its pass, the fix would bring the file back to a text "
    "it held before (fixes going round in a circle: blocks paired crosswise?); look at the "
    "place yourself"
)


def not_taken(applied: Iterable[Finding], before: Iterable[Finding], after: Iterable[Finding]):
    """The fingerprints of the findings of ``applied`` (fixed by a pass from the findings
    ``before``) of which the check after the pass finds as many as before (``after``)."""
    counts = Counter(map(finding_fingerprint, before))
    now = Counter(map(finding_fingerprint, after))
    return {fp for fp in map(finding_fingerprint, applied) if now[fp] >= counts[fp]}


def _digest(text: str) -> bytes:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest()


class FixPasses:
    """The state of one ``check --fix`` run across its passes (see the module's docstring)."""

    def __init__(self, unsafe: bool) -> None:
        self.unsafe = unsafe
        #: Fingerprint → why its finding's fix is refused for the rest of the run.
        self.stuck: dict[str, str] = {}
        #: Path → the digests of every text the run has seen the file hold.
        self.texts: dict[str, set[bytes]] = {}

    def plan(self, findings: list[Finding], checked: Mapping[str, Checked]) -> FixPlan:
        """The next pass's plan: :func:`~parallelcheck.fix.apply.plan_fixes` without the
        fixes found not to help, nor those that would bring a file back to a text it held."""
        plan = plan_fixes(findings, checked, unsafe=self.unsafe, stuck=self.stuck)
        back = {
            path
            for path, (before, after) in plan.files.items()
            if _digest(after) in self.texts.setdefault(path, {_digest(before.text)})
        }
        if not back:
            return plan
        for finding in plan.applied:
            if finding.fix is not None and back.intersection(finding.fix.paths):
                self.stuck.setdefault(finding_fingerprint(finding), IN_A_CIRCLE)
        return plan_fixes(findings, checked, unsafe=self.unsafe, stuck=self.stuck)

    def written(self, plan: FixPlan, before: list[Finding], after: list[Finding]) -> None:
        """Take in a pass: ``plan`` was written; the check before it found ``before``, the
        check after it ``after``."""
        for path, (_, text) in plan.files.items():
            self.texts.setdefault(path, set()).add(_digest(text))
        for fingerprint in not_taken(plan.applied, before, after):
            self.stuck.setdefault(fingerprint, NOT_TAKEN)
