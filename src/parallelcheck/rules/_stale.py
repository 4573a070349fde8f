"""Wording shared by the history rules (``stale-translation``, ``stale-unknown``): counts, and
the changed sections in the order the source has them now."""

from __future__ import annotations

from parallelcheck.model.aligned import AlignedArticle
from parallelcheck.model.changes import FRONT_MATTER, PREAMBLE, UNTITLED

#: Section titles named in a message; the rest are counted.
SHOWN_SECTIONS = 5


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'s' if count != 1 else ''}"


def _ordered_titles(article: AlignedArticle, titles: tuple[str, ...]) -> tuple[list[str], int]:
    """The changed sections in the order the source has them now (sections it no longer has
    last), and the line of the first one's heading in the source (1 when it has none)."""
    document = article.documents.get(article.source)
    lines: dict[str, int] = {FRONT_MATTER: 1}
    if document is not None:
        for section in document.sections:
            title = " ".join(section.title.split())
            name = PREAMBLE if section.level == 0 else title or UNTITLED
            lines.setdefault(name, section.line)
    place = {title: index for index, title in enumerate(lines)}
    ordered = sorted(titles, key=lambda t: (place.get(t, len(place)), titles.index(t)))
    first = next((lines[t] for t in ordered if t in lines), 1)
    return ordered, first
