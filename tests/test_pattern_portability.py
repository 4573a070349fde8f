"""Every pattern of the package matches alike on every Python the project supports.

Python 3.11.2 (Debian 12's, the interpreter of the README's fresh-machine commands) can match
a possessive repeat of a group (``(?:…)*+``) wrongly — ``[A-Za-z][A-Za-z0-9]*+(?:[_.+]
[A-Za-z0-9]++)*+`` matched ``Z.`` in ``Z..`` — where later 3.11 releases match what the greedy
form matches; findings then depended on the interpreter.  Not every such pattern goes wrong,
and which do is not documented, so none is written.  A possessive repeat of one character or
class (``[a-z]*+``) compiles to another operation and is matched right.  So no pattern held by
a module of the package (a module attribute, or an item of a module-level tuple, list, set or
dict) repeats a group possessively."""

from __future__ import annotations

import importlib
import pkgutil
import re
from collections.abc import Iterator
from re import _constants as constants  # type: ignore[attr-defined]
from re import _parser as parser  # type: ignore[attr-defined]

import pytest

import parallelcheck


def _module_patterns() -> Iterator[tuple[str, re.Pattern]]:
    """(where, pattern) of every compiled pattern a module of the package holds."""
    for info in pkgutil.walk_packages(parallelcheck.__path__, "parallelcheck."):
        if info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            items = value.values() if isinstance(value, dict) else value
            if isinstance(value, re.Pattern):
                yield f"{info.name}.{name}", value
            elif isinstance(value, (tuple, list, set, frozenset, dict)):
                for item in items:
                    if isinstance(item, re.Pattern):
                        yield f"{info.name}.{name}[…]", item


def _risky(pattern: str, flags: int) -> list[str]:
    """The possessive repeats of a pattern that repeat more than one character or class."""
    found: list[str] = []

    def walk(tree) -> None:
        for op, av in tree:
            if op is constants.POSSESSIVE_REPEAT and av[2].getwidth() != (1, 1):
                found.append(f"possessive repeat of {av[2].data}")
            for arg in av if isinstance(av, (tuple, list)) else ():
                if isinstance(arg, parser.SubPattern):
                    walk(arg.data)
                elif isinstance(arg, (tuple, list)):
                    for part in arg:
                        if isinstance(part, parser.SubPattern):
                            walk(part.data)

    walk(parser.parse(pattern, flags).data)
    return found


def test_the_package_holds_patterns_to_look_at():
    assert len(list(_module_patterns())) > 50


@pytest.mark.parametrize(
    "pattern, risky",
    [
        (r"[A-Za-z][A-Za-z0-9]*+(?:[_.+][A-Za-z0-9]++)*+", True),  # the 3.11.2 mismatch
        (r"(?:ab)?+", True),
        (r"x(?>ab|a)b", False),  # an atomic group: not known to be matched wrongly
        (r"(x|(?:y[0-9])++)", True),  # nested in a group and an alternation
        (r"[A-Za-z][A-Za-z0-9]*+(?:[_.+][A-Za-z0-9]++)*", False),
        (r"[a-z]*+\d++(?:a)*+", False),  # one character or class each time
    ],
)
def test_risky_repeats_are_told(pattern, risky):
    assert bool(_risky(pattern, 0)) is risky


def test_no_pattern_of_the_package_repeats_a_group_possessively():
    found = {
        where: risky
        for where, pattern in _module_patterns()
        if isinstance(pattern.pattern, str) and (risky := _risky(pattern.pattern, pattern.flags))
    }
    assert found == {}
