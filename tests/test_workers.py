"""Worker processes: largest first, results in the given order, documents read ahead."""

from __future__ import annotations

import gc

from parallelcheck import workers
from parallelcheck.article import ArticleSet


def test_results_come_in_the_given_order_whatever_the_sizes():
    items = list(range(-20, 20))
    sizes = [abs(item) * 7 % 13 for item in items]
    assert list(workers.map_largest_first(abs, items, sizes, jobs=2)) == [abs(i) for i in items]


def _article(folder, name: str, texts: dict[str, str]) -> ArticleSet:
    versions = {}
    for lang, text in texts.items():
        path = folder / f"{name}-{lang}.md"
        path.write_text(text, encoding="utf-8")
        versions[lang] = str(path)
    return ArticleSet(id=name, versions=versions)


def test_documents_read_ahead_are_handed_over_once_and_only_while_waiting(tmp_path):
    first = _article(tmp_path, "a", {"en": "# A\n\nOne.\n", "ja": "# A\n\n一つ。\n"})
    second = _article(tmp_path, "b", {"en": "# B\n\nTwo.\n"})
    answers = iter([True, True, False])
    workers.read_ahead([first, second], lambda: next(answers))
    english = workers.read_before(first.versions["en"], "en")
    assert english is not None and english.sections[1].title == "A"
    assert workers.read_before(first.versions["en"], "en") is None  # handed over once
    assert workers.read_before(first.versions["ja"], "ja") is not None
    assert workers.read_before(second.versions["en"], "en") is None  # the wait was over


def test_the_largest_article_set_counts_every_file(tmp_path):
    article = _article(tmp_path, "a", {"en": "x" * 10, "ja": "y" * 5})
    assert workers.size(article) == 15
    missing = ArticleSet(id="m", versions={"en": str(tmp_path / "gone.md")})
    assert workers.size(missing) == 0


def _frozen_objects(_item: object) -> int:
    return gc.get_freeze_count()


def test_workers_inherit_frozen_objects_and_the_main_process_unfreezes_them():
    assert gc.get_freeze_count() == 0
    found = list(workers.map_largest_first(_frozen_objects, [1, 2, 3, 4], [1, 1, 1, 1], jobs=2))
    if workers.INHERIT:  # forked: what existed before the pool is frozen in every worker
        assert all(count > 0 for count in found)
    assert gc.get_freeze_count() == 0  # and in this process again as it was
