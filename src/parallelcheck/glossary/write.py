"""Writing a glossary as YAML (``glossary import``): :func:`to_yaml` gives the text and
:func:`import_glossary` converts a file and reads the text back before giving it.
"""

from __future__ import annotations

import yaml

from parallelcheck.errors import InputError
from parallelcheck.files.safe_yaml import collector_paused
from parallelcheck.glossary.build import _Problems
from parallelcheck.glossary.load import load_file
from parallelcheck.glossary.load_yaml import _yaml_terms
from parallelcheck.glossary.model import Glossary


def to_yaml(glossary: Glossary) -> str:
    """The glossary in the YAML form of ``docs/configuration.md``: strings where one form says
    it all, lists for several approved forms, mappings where forbidden forms or case
    sensitivity are needed."""
    items = []
    for term in glossary.terms:
        item: dict[str, object] = {"id": term.id}
        if term.keep is not None:
            item["keep"] = term.keep
        if term.forbidden:
            item["forbidden"] = list(term.forbidden)
        for tag, entry in term.langs.items():
            approved: object = (
                entry.approved[0] if len(entry.approved) == 1 else list(entry.approved)
            )
            if entry.forbidden or entry.case_sensitive or not entry.approved:
                value: dict[str, object] = {}
                if entry.approved:
                    value["term"] = approved
                if entry.forbidden:
                    value["forbidden"] = list(entry.forbidden)
                if entry.case_sensitive:
                    value["case_sensitive"] = True
                item[tag] = value
            else:
                item[tag] = approved
        if term.note:
            item["note"] = term.note
        items.append(item)
    with collector_paused():
        return yaml.dump(
            {"terms": items},
            Dumper=_DUMPER,
            allow_unicode=True,
            sort_keys=False,
            width=100,
            default_flow_style=None,
        )


#: libyaml's emitter when PyYAML has it: the same text, four times faster.
_DUMPER: type = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


def import_glossary(source: str) -> tuple[Glossary, str]:
    """Read a TBX, CSV (or YAML) glossary and give it with its YAML text.

    Whatever ``check --glossary`` reads is converted, up to :data:`MAX_TERMS` terms.  The YAML
    text is read back (from memory) before it is returned: if it would not load as the same
    glossary, which would be a bug, an :class:`InputError` naming ``source`` says so instead
    of writing it.
    """
    glossary = load_file(source)
    text = to_yaml(glossary)
    shown = f"{source} (converted to YAML)"
    try:
        with collector_paused():
            again = _yaml_terms(text, shown, _Problems(strict=True))
    except InputError as error:
        raise InputError(
            f"the converted glossary does not read back ({error.describe()}); this is a bug",
            source,
        ) from None
    if tuple(again) != glossary.terms:
        raise InputError("the converted glossary does not read back the same (a bug)", source)
    return glossary, text
