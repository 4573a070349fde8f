"""Applying the fixes findings carry (``check --fix``, ``--diff``; docs/fixes.md).

Rules attach a :class:`~parallelcheck.model.fix.Fix` to a finding they know how to repair;
this package reads the files the check read, makes each fix's edits concrete against their
bytes (:mod:`.resolve`), decides which fixes apply (:mod:`.apply`) and writes the files or
shows the patch.  It never checks and never reports: the command line runs the check again on
what it wrote.
"""

from __future__ import annotations

from parallelcheck.fix.apply import FixPlan, plan_fixes, unified_diff, write_fixed
from parallelcheck.fix.files import CannotFix, Checked
from parallelcheck.fix.passes import FixPasses, not_taken

__all__ = [
    "CannotFix",
    "Checked",
    "FixPasses",
    "FixPlan",
    "not_taken",
    "plan_fixes",
    "unified_diff",
    "write_fixed",
]
