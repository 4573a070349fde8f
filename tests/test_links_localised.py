"""Link targets compared localisation-aware, and link text contradicting its own target
(issue 20, items 3 and 4)."""

from __future__ import annotations

import pytest

from parallelcheck.text.links import compared_target, localisation, site_path, text_contradiction

KO = localisation("ko", ("/{lang}/",), "en")
EN = localisation("en", ("/{lang}/",), "en")


@pytest.mark.parametrize(
    ("ours", "theirs"),
    [
        ("/ko/docs/x/#파드-필드-저장", "/docs/x/#store-pod-fields"),  # own page's fragment
        ("../ko/tutorial/testing.md", "../tutorial/testing.md"),  # a segment deeper in
        ("https://ko.wikipedia.org/wiki/XML", "https://en.wikipedia.org/wiki/XML"),
        (
            "https://developer.mozilla.org/ko/docs/Web",
            "https://developer.mozilla.org/en-US/docs/Web",
        ),
        ("{% link ko/_posts/a.md %}", "{% link _posts/a.md %}"),
        ("{{ site.url }}/ko/docs/start/", "{{ site.baseurl }}/docs/start"),
        ("./behind-a-proxy.md", "behind-a-proxy.md"),
        ("https://fastapi.tiangolo.com//img/a.png", "https://fastapi.tiangolo.com/img/a.png"),
        ("index.md#_10", "index.md#performance"),
        ("https://ko.vite.dev/guide/build#compat", "https://vite.dev/guide/build#compat"),
    ],
)
def test_localised_targets_compare_equal(ours, theirs):
    assert compared_target(ours, KO) == compared_target(theirs, EN)


@pytest.mark.parametrize(
    ("ours", "theirs"),
    [
        ("/ko/docs/x", "/docs/x/#store-pod-fields"),  # the fragment left out
        ("https://vite.dev/guide/#a", "https://vite.dev/guide/#b"),  # an external page's
        ("https://ko.vite.dev/guide/#가", "https://vite.dev/guide/#a"),  # even a localised one
        ("#other", "#store"),  # in-page fragments are the rule's (aligned headings)
        ("https://ja.wikipedia.org/wiki/XML", "https://en.wikipedia.org/wiki/XML"),  # not ko
        ("/ko/docs/y", "/docs/x"),
    ],
)
def test_other_targets_still_differ(ours, theirs):
    assert compared_target(ours, KO) != compared_target(theirs, EN)


ZH = localisation("zh-CN", ("/{lang}/",), "en")


@pytest.mark.parametrize(
    ("ours", "theirs"),
    [
        ("https://cn.vite.dev/guide/env.html", "https://vite.dev/guide/env.html"),  # region
        ("https://d.chrome.com/blog/x?hl=zh-cn#limits", "https://d.chrome.com/blog/x#limits"),
        ("https://x.org/a?hl=zh-cn&b=1", "https://x.org/a?b=1"),
    ],
)
def test_a_region_subdomain_or_a_language_parameter_is_localisation(ours, theirs):
    assert compared_target(ours, ZH) == compared_target(theirs, EN)


def test_a_url_inside_a_token_keeps_its_double_slash():
    token = 'src="https://www.example.com/a.png"'
    assert compared_target(token, EN) == token
    assert compared_target("/docs//x", EN) == "/docs/x"


def test_a_translated_fragment_of_another_site_s_localised_copy_is_its_own():
    mdn = "https://developer.mozilla.org/ko/docs/Web/A#%ED%82%A4%EC%9B%8C%EB%93%9C"
    assert compared_target(mdn, KO) == "https://developer.mozilla.org/docs/Web/A#…"
    english = "https://developer.mozilla.org/en-US/docs/Web/A#keywords"
    assert compared_target(english, EN).endswith("#keywords")  # the rule unifies the two


def test_site_path_of_an_absolute_url():
    assert site_path(compared_target("https://kubernetes.io/docs/x/", EN)) == "/docs/x"
    assert site_path("mailto:a@b.c") is None
    assert site_path("/docs/x") is None


@pytest.mark.parametrize(
    ("text", "target", "said"),
    [
        ("#123", "https://github.com/a/b/issues/132", "issue 132"),
        ("`#7`", "https://gitlab.com/a/b/-/merge_requests/8", "issue 8"),
        ("v2.4.2", "https://github.com/a/b/releases/tag/v2.4.1", "2.4.1"),
        ("config.py", "https://github.com/a/b/blob/main/settings.py", "settings.py"),
        ("#132", "https://github.com/a/b/issues/132", None),
        ("2.4.1", "https://github.com/a/b/releases/tag/v2.4.1", None),
        ("README.md", "README.ko.md", None),  # the localised copy of the file
        ("example.com", "https://example.com/x.md", None),  # not the same kind of file
        ("kapa.ai", "https://www.kapa.ai/", None),  # a site, not a file
        ("3.12", "https://docs.python.org/3/whatsnew/", None),  # the target states none
        ("the issue", "https://github.com/a/b/issues/1", None),
    ],
)
def test_link_text_against_its_own_target(text, target, said):
    assert text_contradiction(text, target, KO.tags) == said


def test_a_query_value_of_prose_is_the_translator_s():
    # FastAPI's de help page translates the tweet a link prepares; a safe fix put the
    # English text back.
    de = localisation("de", (), "en")
    ours = "https://x.com/compose/tweet?text=Ich liebe @fastapi, weil ... https://github.com/x"
    theirs = "https://x.com/compose/tweet?text=I'm loving @fastapi because... https://github.com/x"
    assert compared_target(ours, de) == compared_target(theirs, de)
    assert compared_target("mailto:a@b.io?subject=Hallo%20Welt&cc=x", de) == (
        compared_target("mailto:a@b.io?subject=Hello+world&cc=x", de)
    )
    # Japanese writes without spaces (Astro's ja share link; a safe fix put English back)
    ja = localisation("ja", (), "en")
    assert compared_target("https://r.io/submit?title=Astroブログを学び終えました！", ja) == (
        compared_target("https://r.io/submit?title=Just%20finished%20my%20blog!", ja)
    )
    # values that are no prose still count: a term searched for, a sum, another parameter
    for one, other in [
        ("https://a.io/s?q=fastapi", "https://a.io/s?q=flask"),
        ("https://a.io/?a=1+2", "https://a.io/?a=1+3"),
        ("mailto:a@b.io?subject=Hallo%20Welt&cc=x", "mailto:a@b.io?subject=Hello+world&cc=y"),
    ]:
        assert compared_target(one, de) != compared_target(other, de)
