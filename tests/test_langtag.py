"""Language tags: the answers :mod:`parallelcheck.text.langtag` gives without ``langcodes``
are the ones ``langcodes`` gives."""

from __future__ import annotations

import langcodes
import pytest
from babel import localedata
from conftest import CORPUS

from parallelcheck.text.langtag import (
    _cldr_tags,
    _well_formed,
    canonical_tag,
    is_written_language,
    language_of_name,
    primary_language,
)


def test_every_tag_taken_as_registered_unasked_is_registered():
    tags = _cldr_tags()
    assert {"en", "de", "pt-BR", "zh-Hant", "zh-CN", "zh-TW", "sr-Latn", "es-419"} <= tags
    assert len(tags) > 500
    assert [tag for tag in sorted(tags) if not langcodes.tag_is_valid(tag)] == []


def _names() -> set[str]:
    """Names a run may take for a language: CLDR's locales and their parts, words that are
    registered codes or look like tags, and every file and folder stem in the corpora."""
    names = {"css", "api", "man", "new", "tar", "sh", "jp", "go", "js", "py", "ls", "cp"}
    names |= {"tok", "isv", "xdq", "suz-Sunu", "en-QQ", "en-GB-oxendict", "zh-min-nan"}
    names |= {"cs-Java", "sr-Latn", "zh-hant", "PT_br", "iw", "in", "und", "x-pig", "en-x-a"}
    for name in localedata.locale_identifiers():
        names.add(name)
        names.update(name.split("_"))
    if CORPUS.is_dir():
        for path in CORPUS.rglob("*"):
            names.add(path.name.split(".", 1)[0])
    return names


def _canonical_by_langcodes(text: str) -> str | None:
    tag = _well_formed(text)
    return tag if tag is not None and langcodes.tag_is_valid(tag) else None


@pytest.mark.parametrize("configured", [(), ("tlh", "x-a")])
def test_names_are_languages_as_langcodes_says(configured):
    for name in sorted(_names()):
        tag = _canonical_by_langcodes(name)
        assert canonical_tag(name) == tag, name
        expected = None
        if tag is not None and (
            is_written_language(tag)
            or primary_language(tag) in {primary_language(c) for c in configured}
        ):
            expected = tag
        assert language_of_name(name, configured) == expected, name
