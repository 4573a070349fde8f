"""The rules.  Each module registers its rules with :func:`parallelcheck.rules.base.rule`;
importing this package imports every rule module (shared helpers live in ``_underscore``
modules), so adding a rule is adding a module."""

from __future__ import annotations

import importlib
import pkgutil

from parallelcheck.rules.base import REGISTRY, RuleContext, RuleSpec

for _module in sorted(m.name for m in pkgutil.iter_modules(__path__)):
    if _module != "base" and not _module.startswith("_"):
        importlib.import_module(f"{__name__}.{_module}")

__all__ = ["REGISTRY", "RuleContext", "RuleSpec"]
