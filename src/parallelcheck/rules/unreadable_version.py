"""Version files that could not be read: reported per file, never the end of the run."""

from __future__ import annotations

from collections.abc import Iterator

from parallelcheck.model.finding import Finding, Location
from parallelcheck.rules._common import join_langs
from parallelcheck.rules.base import RuleContext, rule

#: The rule's id, for the engine (which decides what to run when no version could be read).
UNREADABLE_VERSION = "unreadable-version"


@rule(UNREADABLE_VERSION, severity="error", tags=("input",))
def unreadable_version(ctx: RuleContext) -> Iterator[Finding]:
    """A version file cannot be read or decoded (binary, not UTF-8, permission denied,
    vanished), so that version was not checked.

    A version file of the article exists but could not be read, so that version was not
    checked: its bytes are not valid UTF-8 (nor UTF-16 or UTF-32 after a byte-order mark), it
    looks like a binary file (NUL bytes, mostly control characters: a PNG saved as
    ``ja.md``), it cannot be opened (permission denied, a directory of that name), or it
    vanished between the moment the article was found and the moment it was read.

    One finding per such file.  The message names the file, the reason and — for bytes that
    cannot be decoded — the line of the first bad byte; the location is that file, at that
    line (line 1 when the reason has none).  ``langs`` is the unreadable version,
    ``reference_langs`` the versions that could be read.

    The other versions of the article are still aligned and checked among themselves (when
    there is at least one), and every other article is checked as usual: one bad file no
    longer hides the findings of the rest of the run.  An unreadable version is not reported
    again as missing by ``missing-version``.  Only when no version of any article can be read
    does the run stop (exit status 2) with a message naming the file.

    This rule reads no file: the engine reads the versions and records those it could not
    read on the aligned article; this rule only reports them.  Turn it off (or
    ``--ignore unreadable-version``) to pass over such files silently.

    Fails: ``ja.md`` holding Latin-1 bytes (``caf\\xe9``) beside a UTF-8 ``en.md``.
    """
    article = ctx.article
    for fault in article.unreadable:
        line = fault.line or 1
        where = f"{fault.path}:{fault.line}" if fault.line else fault.path
        others = (
            f"the {fault.lang} version was not checked; the others "
            f"({join_langs(article.langs)}) were checked without it"
            if article.langs
            else f"the {fault.lang} version was not checked, and no version of this article "
            "could be read"
        )
        yield Finding(
            rule=UNREADABLE_VERSION,
            article=article.id,
            section="",
            langs=(fault.lang,),
            reference_langs=article.langs,
            locations=(Location(fault.lang, fault.path, line),),
            message=f"{where}: {fault.reason}; {others}",
            evidence={"path": fault.path, "line": fault.line, "reason": fault.reason},
            severity=ctx.spec.severity,
        )
