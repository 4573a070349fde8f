"""The exit status of a check, from the findings left once suppressions and the baseline are
applied (docs/cli.md, "Exit status").

0: the check ran and no finding fails it; 1: at least one does; 2: the run could not be
done (decided where the failure is met, not here).  By default a finding fails the run when
its severity is ``error``; ``--fail-on warning`` makes warnings fail it too, ``--fail-on
info`` every finding.  ``--exit-zero`` gives 0 whatever was found (2 stays 2: a run that
could not be done is never reported as clean).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from parallelcheck.model.finding import SEVERITIES, Finding

EXIT_CLEAN, EXIT_FINDINGS, EXIT_CANNOT_RUN = 0, 1, 2


@dataclass(frozen=True)
class ExitPolicy:
    """Which findings fail a run: those of severity *fail_on* or graver, unless
    *exit_zero*."""

    fail_on: str = "error"
    exit_zero: bool = False

    def __post_init__(self) -> None:
        if self.fail_on not in SEVERITIES:
            raise ValueError(f"fail_on is one of {', '.join(SEVERITIES)}, not {self.fail_on!r}")

    def fails(self, finding: Finding) -> bool:
        """Whether *finding* alone would fail the run (``--exit-zero`` aside)."""
        return SEVERITIES.index(finding.severity) <= SEVERITIES.index(self.fail_on)

    def status(self, findings: Iterable[Finding]) -> int:
        """The exit status of a run that reported *findings*."""
        if self.exit_zero:
            return EXIT_CLEAN
        return EXIT_FINDINGS if any(self.fails(finding) for finding in findings) else EXIT_CLEAN
