"""Path patterns of the configuration (``exclude:``, ``overrides[].paths``), matched as
``.gitignore`` and ruff's ``exclude`` match them.

A pattern is relative to a base folder (the configuration's) and uses ``/`` between names:

* ``*`` matches any run of characters but ``/``, ``?`` one character but ``/``, ``[abc]``
  and ``[!abc]`` one character of (not of) a set;
* ``**`` as a whole name matches any number of folders, none included: ``docs/**/ja.md``,
  ``**/drafts``, ``drafts/**``;
* a pattern without ``/`` (but at its end) matches a name at any depth: ``_*.md`` is
  ``**/_*.md``; a pattern holding one is anchored at the base (a leading ``/`` only says
  so);
* a pattern matching a folder matches everything below it: ``drafts`` and ``drafts/``
  exclude ``drafts/post/ja.md``.

Matching is case-sensitive, on the path relative to the base; a path outside the base
matches nothing.  :func:`pattern_error` says what is wrong with a pattern that cannot be used
(empty, ``..``, an unclosed ``[``), for the configuration to report at its line.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field


def pattern_error(pattern: str) -> str | None:
    """Why *pattern* cannot be used, or ``None`` when it can."""
    stripped = pattern.strip().strip("/")
    if not stripped:
        return "is empty"
    if ".." in stripped.split("/"):
        return "names a parent folder ('..'): patterns match below the configuration's folder"
    if "\\" in stripped:
        return "holds a backslash: separate folders with '/'"
    try:
        re.compile(_translate(pattern))
    except re.error:
        return "has an unclosed '['"
    return None


def _translate(pattern: str) -> str:
    """The regular expression of one pattern (anchored or not), matching a relative path
    or any folder above it."""
    pattern = pattern.strip().rstrip("/")
    anchored = "/" in pattern
    parts = pattern.lstrip("/").split("/")
    pieces = []
    for index, part in enumerate(parts):
        last = index == len(parts) - 1
        if part == "**":
            pieces.append("(?:.*)" if last else "(?:[^/]*/)*")
            continue
        pieces.append(_translate_name(part) + ("" if last else "/"))
    body = "".join(pieces)
    prefix = "" if anchored else "(?:[^/]*/)*"
    return f"{prefix}{body}(?:/.*)?"


def _translate_name(name: str) -> str:
    """One name of a pattern: ``*``, ``?`` and ``[…]`` never cross a ``/``."""
    out, index = [], 0
    while index < len(name):
        char = name[index]
        if char == "*":
            out.append("[^/]*")
        elif char == "?":
            out.append("[^/]")
        elif char == "[":
            end = name.find(
                "]", index + 2 if name[index + 1 : index + 2] in ("!", "]") else index + 1
            )
            if end == -1:
                out.append("[")  # re.compile reports it
            else:
                inner = name[index + 1 : end]
                if inner.startswith("!"):
                    inner = "^" + inner[1:]
                out.append("(?!/)[" + inner.replace("\\", "\\\\") + "]")
                index = end
        else:
            out.append(re.escape(char))
        index += 1
    return "".join(out)


@dataclass(frozen=True)
class Globs:
    """Patterns relative to *base* (an absolute folder); see the module's docstring."""

    base: str
    patterns: tuple[str, ...] = ()
    _compiled: re.Pattern[str] | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.patterns:
            joined = "|".join(f"(?:{_translate(p)})" for p in self.patterns)
            object.__setattr__(self, "_compiled", re.compile(f"(?:{joined})\\Z"))

    def __bool__(self) -> bool:
        return bool(self.patterns)

    def matches(self, path: str) -> bool:
        """Whether *path* (absolute, or relative to the working directory) matches."""
        if self._compiled is None:
            return False
        relative = os.path.relpath(os.path.abspath(path), self.base)
        if relative == "." or relative.startswith(".." + os.sep) or relative == "..":
            return False
        return self._compiled.match(relative.replace(os.sep, "/")) is not None
