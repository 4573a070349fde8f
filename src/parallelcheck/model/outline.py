"""The outline of an aligned article: what every format but html shows, and what the cache keeps.

An :class:`Outline` is the aligned article without its text: the article's id, source,
versions, paths, link prefixes and unreadable versions, and per aligned row of sections each
version's heading (level, title, line, explicit id) and how many blocks it holds there.  Worker
processes send it back instead of the aligned article (far less to pickle), the result cache
stores it (:mod:`parallelcheck.run.cache`), and the text, markdown and JSON formats read it.
Sequences are tuples, so that a fresh outline and one read back from the cache are equal.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from parallelcheck.model.aligned import AlignedArticle, UnreadableVersion, first_title


@dataclass(frozen=True)
class OutlineHeading:
    """One version's section in an aligned row: its heading and how many blocks it holds."""

    level: int
    title: str
    line: int
    anchor: str | None
    blocks: int


@dataclass(frozen=True)
class OutlineRow:
    """One aligned row of sections: each version's heading, or ``None`` where it lacks it."""

    cells: dict[str, OutlineHeading | None] = field(default_factory=dict)


@dataclass(frozen=True)
class Outline:
    """The outline of one aligned article (see the module's docstring)."""

    id: str
    source: str
    langs: tuple[str, ...]
    expected: tuple[str, ...]
    paths: dict[str, str]
    sections: tuple[OutlineRow, ...]
    link_prefixes: tuple[str, ...]
    unreadable: tuple[UnreadableVersion, ...] = ()

    def section_title(self, row: OutlineRow) -> str:
        """The row's heading as the source (or the first version that has it) writes it."""
        return first_title(self.langs, row.cells)


def outline_of(article: AlignedArticle | Outline) -> Outline:
    """The outline of an aligned article (an outline is its own)."""
    if isinstance(article, Outline):
        return article
    return Outline(
        id=article.id,
        source=article.source,
        langs=tuple(article.langs),
        expected=tuple(article.expected),
        paths=dict(article.paths),
        sections=tuple(
            OutlineRow(
                {
                    lang: None
                    if section is None
                    else OutlineHeading(
                        section.level,
                        section.title,
                        section.line,
                        section.anchor,
                        len(section.blocks),
                    )
                    for lang, section in row.cells.items()
                }
            )
            for row in article.sections
        ),
        link_prefixes=tuple(article.link_prefixes),
        unreadable=tuple(article.unreadable),
    )
