"""Options of rules: how one is declared, and the error of a configured value that does not
fit.  Plain data, shared by the rules (which declare options) and the configuration (which
reads and checks the values)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


class OptionError(ValueError):
    """A configured option value that does not fit.

    ``key`` is the path inside the option's value to the offending part (``("zh-TW",
    "allow")``; empty for the value itself): the configuration reports that part's line.
    ``message`` says what is wrong; the configuration puts the part's name first
    (``'rules.regional-variant.languages.zh-TW.allow' must be …``), or, where the message
    holds ``{name}``, puts the name there, naming the part at ``subject`` (by default
    ``key``) — for a message about a key that should not be there."""

    def __init__(
        self,
        message: str,
        key: tuple[str | int, ...] = (),
        subject: tuple[str | int, ...] | None = None,
    ):
        super().__init__(message)
        self.message = message
        self.key = key
        self.subject = key if subject is None else subject

    def worded(self, name: str) -> str:
        """The message, naming the part as *name* (the option's name) plus the subject."""
        where = ".".join([name, *map(str, self.subject)])
        if "{name}" in self.message:
            return self.message.replace("{name}", where)
        return f"'{where}' {self.message}"


def _same_kind(default: Any) -> Callable[[Any], Any]:
    """The check of a value of the default's kind: true/false, a whole number, a number, a
    string, or a list of strings (kept as a tuple)."""

    def parse(value: Any) -> Any:
        if isinstance(default, bool):
            if not isinstance(value, bool):
                raise OptionError("must be true or false")
            return value
        if isinstance(default, int):
            if isinstance(value, bool) or not isinstance(value, int):
                raise OptionError("must be a whole number")
            return value
        if isinstance(default, float):
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise OptionError("must be a number")
            return float(value)
        if isinstance(default, str):
            if not isinstance(value, str):
                raise OptionError("must be a string")
            return value
        if isinstance(default, tuple):
            if isinstance(value, str):
                value = [value]
            if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
                raise OptionError("must be a list of strings")
            return tuple(value)
        raise TypeError(f"option default {default!r} needs a parse function")

    return parse


@dataclass(frozen=True)
class Option:
    """One option of a rule: its default, a one-line description for the reference, and how a
    configured value is checked and turned into what the rule reads (``parse`` raises
    :class:`OptionError`; by default the value must be of the default's kind)."""

    default: Any
    help: str
    parse: Callable[[Any], Any] | None = None

    def read(self, value: Any) -> Any:
        """The configured *value* as the rule reads it (raises :class:`OptionError`)."""
        return (self.parse or _same_kind(self.default))(value)
