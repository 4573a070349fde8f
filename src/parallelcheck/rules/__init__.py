"""The rules.  Each module registers its rules with :func:`parallelcheck.rules.base.rule`;
importing this package imports every rule module, so adding a rule is adding a module."""

from __future__ import annotations

import importlib
import pkgutil

from parallelcheck.rules.base import REGISTRY, Rule

for _module in sorted(m.name for m in pkgutil.iter_modules(__path__)):
    if _module != "base":
        importlib.import_module(f"{__name__}.{_module}")

__all__ = ["REGISTRY", "Rule"]
