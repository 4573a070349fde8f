"""Which fixes are applied, and the files they make.

:func:`plan_fixes` takes the findings of a check and what the check knew of each file
(:class:`~parallelcheck.fix.files.Checked`) and decides, fix by fix:

* an ``unsafe`` fix is applied only when unsafe fixes are asked for (otherwise it is counted,
  so that the user can be told how many more ``--unsafe-fixes`` would apply);
* a fix is refused as a whole when one of its edits would touch an article's source version,
  a file that is not Markdown or MDX, a file changed since it was checked, or lines that do
  not hold what the check read (:mod:`parallelcheck.fix.resolve`);
* of two fixes whose edits overlap (the same characters, or an insertion at the same place),
  the one that starts first in the file is applied — at the same place, the error's before
  the warning's, then by rule id — and the other is left: its finding is reported again by
  the check that follows, which fixes it if it still can (``check --fix`` runs a few passes);
* a finding the earlier passes of ``check --fix`` found fixing it does not help is refused
  with the reason (:mod:`parallelcheck.fix.passes`).

The plan holds each changed file's text before and after; :func:`write_fixed` writes them (each
all at once, in its own encoding, byte-order mark and line breaks) and :func:`unified_diff`
shows them as a patch.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from parallelcheck.errors import InputError
from parallelcheck.files.atomic import replace_file
from parallelcheck.fix.files import CannotFix, Checked, FileText, read_checked, split_lines
from parallelcheck.fix.resolve import Change, resolve
from parallelcheck.model.finding import SEVERITIES, Finding
from parallelcheck.model.fingerprint import finding_fingerprint
from parallelcheck.model.fix import SAFE
from parallelcheck.readers import kind_for_path

#: The kinds of file a fix may edit: the readers that keep a block's text as it is written.
EDITABLE_KINDS = ("markdown", "mdx")


@dataclass
class FixPlan:
    """What applying the fixes of a check does (see the module's documentation)."""

    #: The findings whose fix is applied.
    applied: list[Finding] = field(default_factory=list)
    #: Findings whose fix overlaps one applied, with the finding whose fix won.
    overlapped: list[tuple[Finding, Finding]] = field(default_factory=list)
    #: Findings whose fix cannot be applied, with the reason.
    refused: list[tuple[Finding, str]] = field(default_factory=list)
    #: Findings whose fix is unsafe, left because unsafe fixes were not asked for.
    hidden: list[Finding] = field(default_factory=list)
    #: Path → the file as read and its text once fixed, for every file the plan changes.
    files: dict[str, tuple[FileText, str]] = field(default_factory=dict)

    def fixed_bytes(self, path: str) -> bytes:
        before, after = self.files[path]
        return before.decoded.encode(after)


def plan_fixes(
    findings: Iterable[Finding],
    checked: Mapping[str, Checked],
    *,
    unsafe: bool = False,
    stuck: Mapping[str, str] | None = None,
) -> FixPlan:
    """The :class:`FixPlan` of the fixes ``findings`` carry (``unsafe``: the unsafe ones too);
    ``checked`` is what the check knew of each version's file, by path.  A finding whose
    fingerprint ``stuck`` holds is refused, for the reason it maps to (``{place}`` in it is
    the finding's place in the first file the fix edits): the earlier passes of
    ``check --fix`` found that its fix does not help (:mod:`parallelcheck.fix.passes`)."""
    plan = FixPlan()
    texts: dict[str, FileText | CannotFix] = {}

    def text_of(path: str) -> FileText:
        if path not in texts:
            try:
                texts[path] = _readable(path, checked)
            except CannotFix as error:
                texts[path] = error
        found = texts[path]
        if isinstance(found, CannotFix):
            raise found
        return found

    candidates: list[tuple[tuple, Finding, list[Change]]] = []
    for finding in findings:
        fix = finding.fix
        if fix is None:
            continue
        if fix.applicability != SAFE and not unsafe:
            plan.hidden.append(finding)
            continue
        reason = stuck.get(finding_fingerprint(finding)) if stuck else None
        if reason is not None:
            edited = fix.paths
            place = next(
                (at for at in finding.locations if at.path in edited), finding.locations[0]
            )
            plan.refused.append((finding, reason.format(place=f"{place.path}:{place.line}")))
            continue
        try:
            for path in fix.paths:
                _editable(path, checked)
            changes = [resolve(edit, text_of) for edit in fix.edits]
            _not_inserted_yet(changes, text_of)
        except CannotFix as error:
            plan.refused.append((finding, str(error)))
            continue
        first = min(changes, key=lambda c: (c.path, c.start))
        rank = (first.path, first.start, SEVERITIES.index(finding.severity), finding.sort_key())
        candidates.append((rank, finding, changes))
    accepted: list[tuple[Finding, list[Change]]] = []
    for _, finding, changes in sorted(candidates, key=lambda c: c[0]):
        winner = next(
            (won for won, theirs in accepted for c in changes for t in theirs if c.overlaps(t)),
            None,
        )
        if winner is not None:
            plan.overlapped.append((finding, winner))
            continue
        accepted.append((finding, changes))
        plan.applied.append(finding)
    by_file: dict[str, list[Change]] = {}
    for _, changes in accepted:
        for change in changes:
            by_file.setdefault(change.path, []).append(change)
    for path, changes in sorted(by_file.items()):
        before = text_of(path)
        plan.files[path] = (before, _applied(before.text, changes))
    return plan


def _not_inserted_yet(changes: list[Change], text_of: Callable[[str], FileText]) -> None:
    """Raise :class:`CannotFix` when what a fix inserts into a file (its changes there all
    insertions at one place) already stands right before that place: an earlier
    ``check --fix`` run wrote it, and the check does not see it where the source has it — a
    block copied after a component the version never closes is inside it — so each run
    would write another copy."""
    by_path: dict[str, list[Change]] = {}
    for change in changes:
        by_path.setdefault(change.path, []).append(change)
    for path, inserted in by_path.items():
        at = inserted[0].start
        if any(c.start != at or c.end != at for c in inserted):
            continue
        text = "".join(c.text for c in inserted)
        before = text_of(path).text
        if text.strip() and before[max(0, at - len(text)) : at] == text:
            line = before.count("\n", 0, at - len(text)) + 1
            raise CannotFix(
                f"{path}:{line}: the lines from here are already what the fix would insert "
                "after them (an earlier --fix put them there, where the check does not see "
                "them: inside a container left open?)"
            )


def _readable(path: str, checked: Mapping[str, Checked]) -> FileText:
    known = checked.get(path)
    if known is None:
        raise CannotFix(f"{path} is not a version this run checked")
    return read_checked(path, known)


def _editable(path: str, checked: Mapping[str, Checked]) -> None:
    """:class:`CannotFix` unless a fix may edit ``path``: a translation this run checked, in
    Markdown or MDX."""
    known = checked.get(path)
    if known is None:
        raise CannotFix(f"{path} is not a version this run checked")
    if known.source:
        raise CannotFix(f"{path} is its article's source version, which fixes never edit")
    try:
        kind = kind_for_path(path)
    except InputError:
        kind = ""
    if kind not in EDITABLE_KINDS:
        raise CannotFix(f"{path}: fixes are applied to Markdown and MDX files only")


def _applied(text: str, changes: list[Change]) -> str:
    """``text`` with ``changes`` (none overlapping) made; insertions at one place in order."""
    parts: list[str] = []
    at = 0
    for change in sorted(changes, key=lambda c: (c.start, c.end)):
        parts.append(text[at : change.start])
        parts.append(change.text)
        at = change.end
    parts.append(text[at:])
    return "".join(parts)


def write_fixed(plan: FixPlan) -> None:
    """Write every file the plan changes, each all at once (:class:`OSError` on failure)."""
    for path in plan.files:
        replace_file(path, plan.fixed_bytes(path))


def unified_diff(plan: FixPlan) -> str:
    """The plan's changes as one unified diff, files in path order, each named as given."""
    out: list[str] = []
    for path, (before, after) in sorted(plan.files.items()):
        lines = difflib.unified_diff(
            split_lines(before.text),
            split_lines(after),
            fromfile=path,
            tofile=path,
        )
        for line in lines:
            out.append(
                line if line.endswith(("\n", "\r")) else line + "\n\\ No newline at end of file\n"
            )
    return "".join(out)
