"""Output formats.  Importing this package registers every format module in it."""

from __future__ import annotations

import importlib
import pkgutil

from parallelcheck.report.base import FORMATS, Report

for _module in sorted(m.name for m in pkgutil.iter_modules(__path__)):
    if _module != "base":
        importlib.import_module(f"{__name__}.{_module}")

__all__ = ["FORMATS", "Report"]
