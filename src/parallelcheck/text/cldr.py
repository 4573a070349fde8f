"""What the tool reads of the Unicode CLDR for one language, through ``babel``.

:func:`locale_data` gives, per language tag, the few things of its CLDR locale that the
number and date readers use (:mod:`parallelcheck.text.dates`,
:mod:`parallelcheck.text.numerals`): month and weekday names, the date patterns and
skeletons, the day periods and the digit grouping.  babel gives them by unpickling the whole
locale and its parents (about 10 ms a language, most of a run's number profiles), so they
are kept between runs (:mod:`parallelcheck.text.kept`, table ``cldr``, tagged with babel's
version): a run that finds a language's entry builds the same profiles without loading the
locale.  An entry is plain JSON data (names by number are written with the number as a
string) and is read back through a check of its shape; one that fails it is made afresh.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import time
from functools import cache
from typing import Any

from parallelcheck.text.kept import TABLES, checked

#: The table's name among the kept tables.
TABLE = "cldr"

#: Names by context (``format``, ``stand-alone``), width (``wide``, ``abbreviated``,
#: ``narrow``) and number (months 1-12, weekdays 0-6 from Monday), as babel gives them.
Names = dict[str, dict[str, dict[int, str]]]


@dataclass(frozen=True)
class LocaleData:
    """One CLDR locale's data the tool reads."""

    months: Names
    days: Names
    #: ``full``, ``long``, ``medium`` and ``short`` date patterns (``d MMMM y``).
    date_formats: dict[str, str]
    #: Every date-time skeleton's pattern (``yMMMMd`` → ``d MMMM y``).
    skeletons: dict[str, str]
    #: Day period words by context, width and period id (``am``, ``morning1`` …).
    day_periods: dict[str, dict[str, dict[str, str]]]
    #: The day period id of half past each hour, 0 to 23 (babel's ``get_period_id``).
    hour_periods: tuple[str, ...]
    #: The primary and secondary digit group sizes of the decimal pattern (``None`` when the
    #: locale has no decimal pattern).
    grouping: tuple[int, int] | None


def tag() -> str:
    """What the kept entries depend on: babel's version (its CLDR data)."""
    import babel

    return f"babel {babel.__version__}"


@cache
def locale_data(lang: str) -> LocaleData | None:
    """The CLDR data of *lang* (``pt-BR``, ``zh_Hant``), ``None`` when babel has no locale for
    it.  Cached per process: one entry per language tag of the run."""
    table = TABLES.table(TABLE, tag())
    key = lang.replace("-", "_")
    entry = table.get(key, _MISSING)
    if entry is None and not _has_locale_file(key):
        return None  # kept as "no locale", and babel ships none by that name
    if entry is not None and entry is not _MISSING:
        data = checked(entry, _decoded)
        if data is not None:
            return data
    data = _from_babel(key)
    table.put(key, None if data is None else _encoded(data))
    return data


_MISSING = object()


def _has_locale_file(key: str) -> bool:
    """Whether babel ships locale data named *key* (a kept "no locale" for such a name is
    not believed: the locale is read)."""
    from babel import localedata

    return localedata.normalize_locale(key) is not None


def _from_babel(key: str) -> LocaleData | None:
    from babel import Locale, UnknownLocaleError
    from babel.dates import get_period_id

    try:
        locale = Locale.parse(key)
    except (UnknownLocaleError, ValueError):
        return None
    decimal = locale.decimal_formats.get(None)
    return LocaleData(
        months=_names(locale.months),
        days=_names(locale.days),
        date_formats={k: v.pattern for k, v in locale.date_formats.items()},
        skeletons={k: v.pattern for k, v in locale.datetime_skeletons.items()},
        day_periods={
            context: {width: dict(words.items()) for width, words in widths.items()}
            for context, widths in locale.day_periods.items()
        },
        hour_periods=tuple(get_period_id(time(hour, 30), locale=locale) for hour in range(24)),
        grouping=tuple(decimal.grouping) if decimal is not None else None,  # type: ignore[arg-type]
    )


def _names(data: Any) -> Names:
    return {
        context: {width: dict(names.items()) for width, names in widths.items()}
        for context, widths in data.items()
    }


def _encoded(data: LocaleData) -> dict[str, Any]:
    """*data* as plain JSON data."""

    def names(found: Names) -> dict:
        return {
            context: {
                width: {str(n): name for n, name in by_number.items()}
                for width, by_number in widths.items()
            }
            for context, widths in found.items()
        }

    return {
        "months": names(data.months),
        "days": names(data.days),
        "date_formats": data.date_formats,
        "skeletons": data.skeletons,
        "day_periods": data.day_periods,
        "hour_periods": list(data.hour_periods),
        "grouping": list(data.grouping) if data.grouping is not None else None,
    }


def _strings(value: Any) -> dict[str, str]:
    if not all(type(k) is str and type(v) is str for k, v in value.items()):
        raise TypeError("not a table of strings")
    return dict(value)


def _decoded_names(value: Any) -> Names:
    return {
        _text(context): {
            _text(width): {int(n): name for n, name in _strings(by_number).items()}
            for width, by_number in widths.items()
        }
        for context, widths in value.items()
    }


def _text(value: Any) -> str:
    if type(value) is not str:
        raise TypeError("not a string")
    return value


def _decoded(entry: Any) -> LocaleData:
    """The data of a kept entry; raises when the entry is not of the shape :func:`_encoded`
    gives."""
    periods = tuple(_text(period) for period in entry["hour_periods"])
    if len(periods) != 24:
        raise ValueError("not a period for each hour")
    grouping = entry["grouping"]
    if grouping is not None:
        primary, secondary = grouping
        if type(primary) is not int or type(secondary) is not int:
            raise TypeError("a group size that is not a number")
        grouping = (primary, secondary)
    return LocaleData(
        months=_decoded_names(entry["months"]),
        days=_decoded_names(entry["days"]),
        date_formats=_strings(entry["date_formats"]),
        skeletons=_strings(entry["skeletons"]),
        day_periods={
            _text(context): {_text(width): _strings(words) for width, words in widths.items()}
            for context, widths in entry["day_periods"].items()
        },
        hour_periods=periods,
        grouping=grouping,
    )


__all__ = ["TABLE", "LocaleData", "Names", "locale_data", "tag"]
