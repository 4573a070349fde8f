"""The package's regular expressions, built from the compiled forms an earlier run kept.

CPython compiles a regular expression in two steps.  Its parser and code generator, written
in Python, turn the source and flags into the engine's opcodes; then ``_sre.compile`` builds
the pattern object from those opcodes, in C, in microseconds.  The first step is what costs:
the package's own patterns are about 480 per run, most of them compiled when their modules
are imported: 1.3 G instructions of a cold check of the FastAPI documentation (2.8 %), and
0.35 G of a warm re-run's 2.5 G (14 %).  The opcodes depend only on the source, the flags
and the interpreter's ``re``, so one run can keep them (:class:`CompiledForms`, stored in
the cache folder by :mod:`parallelcheck.run.pattern_store`) and the next build each pattern
from them.

The rules:

* :func:`compile_pattern` returns a pattern equal to ``re.compile(source, flags)``.  A
  pattern with no kept form is compiled by the same steps ``re.compile`` takes, in one pass
  that also gives its form; the first one a process compiles is checked equal to what
  ``re.compile`` gives (CPython's pattern equality compares the source, the flags and the
  opcodes; the groups are compared as well), and a process whose ``re`` differs keeps no
  forms.  The tests check every form of a run so.  A kept form that the engine rejects
  (``_sre.compile`` validates the opcodes) is compiled afresh and replaced.
* The patterns of the package's own sources, and those built from CLDR's data for a
  language or from a code language's syntax, are compiled here.  Patterns made of the input
  (glossary terms, globs, configured prefixes and layouts, a text's own numbers or
  identifiers) are compiled with ``re.compile``, and a comment above each says so: kept,
  they would fill the store with each run's input (``tests/test_pattern_store.py`` finds any
  other ``re.compile``).  The model, the formatters, the file helpers and the fixes compile
  their few patterns with ``re`` too.
* With no table in use (the package used as a library, another Python implementation), or
  for a pattern of bytes, :func:`compile_pattern` compiles as ``re.compile`` does.

The table in use is the process's (:func:`use`): the command line's session sets it before
the package's modules are imported, because most patterns are compiled at import time,
before any run exists.  Worker processes forked later inherit it; workers started afresh
(Windows, macOS) compile their patterns as ``re`` does.
"""

from __future__ import annotations

import array
import base64
import re
import sys
from typing import Any, AnyStr

try:  # CPython's engine and compiler; another implementation keeps no forms
    import _sre
    from re import _compiler, _parser
except ImportError:  # pragma: no cover - CPython has them
    _sre = None  # type: ignore[assignment]

#: A form's key: the pattern's source and flags (as an int).
Key = tuple[str, int]

#: The array type code whose items are the engine's code units (4 bytes in CPython).
_CODE_TYPE = next(
    (code for code in "IL" if _sre is not None and array.array(code).itemsize == _sre.CODESIZE),
    None,
)


class CompiledForms:
    """A table of compiled forms by (source, flags), and the patterns this process built.

    A form is what ``_sre.compile`` takes besides the source: the final flags, the opcodes
    (stored as the base64 of their native bytes, decoded when first used), the number of
    groups, the group names by index and the group index by name.  A pattern with no form
    is compiled by the compiler's own two steps (:func:`compiled_with_form`), as
    ``re.compile`` would, and its form added (:attr:`added` counts them); the first pattern
    a process compiles so is checked equal to the one ``re.compile`` gives, and should it
    differ, this process keeps no form (:attr:`reproduces_re`).  :meth:`kept` gives what a
    store should keep."""

    def __init__(self, forms: dict[Key, list[Any]] | None = None):
        self.forms: dict[Key, list[Any]] = forms if forms is not None else {}
        self.patterns: dict[Key, re.Pattern[str]] = {}
        self.added = 0
        #: Whether the compiler's steps give what ``re.compile`` gives here (None: not yet
        #: asked).
        self.reproduces_re: bool | None = None

    def compile(self, source: str, flags: int = 0) -> re.Pattern[str]:
        """The pattern of *source* and *flags*, built once per process."""
        key = (source, int(flags))
        pattern = self.patterns.get(key)
        if pattern is None:
            pattern = self._built(key) or self._compiled(key)
            self.patterns[key] = pattern
        return pattern

    def _built(self, key: Key) -> re.Pattern[str] | None:
        """The pattern built from the kept form of *key*, or ``None``: none kept, or one the
        engine rejects (then dropped, to be compiled afresh)."""
        form = self.forms.get(key)
        if form is None:
            return None
        try:
            flags, code, groups, groupindex, indexgroup = form
            if not all(type(index) is int for index in groupindex.values()):
                raise TypeError("a group index that is not a number")
            opcodes = array.array(_CODE_TYPE or "I", base64.b64decode(code, validate=True))
            return _sre.compile(
                key[0], flags, opcodes.tolist(), groups, groupindex, tuple(indexgroup)
            )
        except (TypeError, ValueError, RuntimeError, OverflowError, AttributeError):
            del self.forms[key]  # not a form the engine takes: compiled afresh
            return None

    def _compiled(self, key: Key) -> re.Pattern[str]:
        """*key*'s pattern compiled afresh, its form added when this process keeps forms."""
        if self.reproduces_re is not False:
            made = compiled_with_form(*key)
            if made is not None:
                pattern, form = made
                if self.reproduces_re is None:
                    self.reproduces_re = same_pattern(pattern, re.compile(*key))
                if self.reproduces_re:
                    self.forms[key] = form
                    self.added += 1
                    return pattern
        return re.compile(*key)

    def kept(self, limit: int) -> dict[Key, list[Any]]:
        """The forms to store: all of them, or only those of this process's patterns when
        there are more than *limit* (patterns no run compiles any more go then)."""
        if len(self.forms) <= limit:
            return self.forms
        return {key: self.forms[key] for key in self.patterns if key in self.forms}


def compiled_with_form(source: str, flags: int) -> tuple[re.Pattern[str], list[Any]] | None:
    """*source* compiled with *flags* by the steps ``re.compile`` takes (the parser, the
    code generator, then ``_sre.compile`` with the groups' names), and its form (see
    :class:`CompiledForms`); ``None`` when this interpreter's ``re`` has no such steps, or
    the source is no pattern (``re.compile`` then says why)."""
    if _CODE_TYPE is None:
        return None
    try:
        parsed = _parser.parse(source, flags)
        code = _compiler._code(parsed, flags)
        groupindex = {str(name): int(index) for name, index in parsed.state.groupdict.items()}
        indexgroup: list[str | None] = [None] * parsed.state.groups
        for name, index in groupindex.items():
            indexgroup[index] = name
        final = int(flags | parsed.state.flags)
        groups = parsed.state.groups - 1
        pattern = _sre.compile(source, final, list(code), groups, groupindex, tuple(indexgroup))
        encoded = base64.b64encode(array.array(_CODE_TYPE, code).tobytes()).decode("ascii")
    except Exception:  # no form: re.compile compiles it, or says what is wrong
        return None
    return pattern, [final, encoded, groups, groupindex, indexgroup]


def same_pattern(built: re.Pattern[str], compiled: re.Pattern[str]) -> bool:
    """Whether two patterns are the same: CPython's equality compares the source, the flags
    and the opcodes; the groups are compared as well."""
    return (
        built == compiled
        and built.groups == compiled.groups
        and built.groupindex == compiled.groupindex
    )


def interpreter_tag() -> str:
    """What the compiled forms depend on besides the sources: the interpreter's version and
    build, its regular expression engine's version and code unit, and the byte order."""
    magic = getattr(_sre, "MAGIC", 0) if _sre is not None else 0
    return f"{sys.implementation.cache_tag}|{sys.version}|{magic}|{_CODE_TYPE}|{sys.byteorder}"


#: The table the process's patterns are built with (:func:`use`), or ``None``.
_in_use: CompiledForms | None = None


def use(forms: CompiledForms) -> CompiledForms:
    """Build the process's patterns with *forms* from now on, unless a table is in use
    already (then that one stays); the table in use is returned."""
    global _in_use
    if _in_use is None and _CODE_TYPE is not None:
        _in_use = forms
    return _in_use if _in_use is not None else forms


def in_use() -> CompiledForms | None:
    """The table in use (:func:`use`), if any."""
    return _in_use


def compile_pattern(source: AnyStr, flags: int = 0) -> re.Pattern[AnyStr]:
    """``re.compile(source, flags)``, built from a kept form when the table in use has one
    (see the module's docstring for which patterns are compiled here; a pattern of bytes is
    compiled by ``re``)."""
    if _in_use is None or not isinstance(source, str):
        return re.compile(source, flags)
    return _in_use.compile(source, flags)


__all__ = [
    "CompiledForms",
    "compile_pattern",
    "compiled_with_form",
    "in_use",
    "interpreter_tag",
    "same_pattern",
    "use",
]
