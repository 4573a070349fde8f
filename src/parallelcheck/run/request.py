"""What a ``check`` or ``baseline`` command asks for: the options the two share, as the
command line parsed them (docs/cli.md).

The command line only parses; what the options mean is decided here and where they are
used: :meth:`RunRequest.check_options` is what the engine reads of them.  This module
imports nothing of the package at first, so that the command line can build a request
before the expensive imports (see :mod:`parallelcheck.run.session`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from parallelcheck.engine import CheckOptions

#: The rule ``--report-unused-suppressions`` turns on (it runs only when asked).
UNUSED_SUPPRESSIONS = "suppression-unused"


@dataclass(frozen=True)
class RunRequest:
    """The options of one check: what to check (*paths*, *config_path*, *glossaries*,
    *source*, *langs*, *shard*, *skip_non_articles*, *hook*), which rules (*select* and
    *ignore*: rule ids and tags; *report_unused_suppressions*) and how (*jobs*,
    *no_cache*, *quiet*)."""

    paths: tuple[str, ...] = ()
    glossaries: tuple[str, ...] = ()
    config_path: str | None = None
    source: str | None = None
    langs: tuple[str, ...] = ()
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    report_unused_suppressions: bool = False
    jobs: int = 0
    no_cache: bool = False
    quiet: bool = False
    shard: tuple[int, int] | None = None
    skip_non_articles: bool = False
    hook: bool = False

    @property
    def skips_non_articles(self) -> bool:
        """Whether file arguments that are no article version are passed over (a hook)."""
        return self.skip_non_articles or self.hook

    def check_options(self) -> CheckOptions:
        """What the engine reads of the request."""
        from parallelcheck.engine import CheckOptions

        return CheckOptions(
            source=self.source,
            langs=tuple(self.langs),
            select=tuple(self.select),
            ignore=tuple(self.ignore),
            enable=(UNUSED_SUPPRESSIONS,) if self.report_unused_suppressions else (),
            jobs=self.jobs,
            glossaries=tuple(self.glossaries),  # glossary: read once per run
        )


def rule_names(values: tuple[str, ...]) -> tuple[str, ...]:
    """The rule ids and tags of repeated ``--select`` / ``--ignore`` options, each of which
    may list several separated by commas (``--select missing-table,values``)."""
    return tuple(name.strip() for value in values for name in value.split(",") if name.strip())
