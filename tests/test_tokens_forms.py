"""Token forms: inline code compared by form (quotes, empty calls, placeholders by kind), code
written as prose found in running text, tokens glued to CJK text (issue 20, item 4)."""

from __future__ import annotations

import pytest

from parallelcheck.rules.token_mismatch import _translated_example
from parallelcheck.text.tokens import extract_tokens, prose_code, token_form


@pytest.mark.parametrize(
    ("ours", "theirs"),
    [
        ('"text/html"', "text/html"),
        ("fetch()", "fetch"),
        ("git switch -c {{branch_name}}", "git switch -c {{브랜치_이름}}"),
        ("cp <file> backup/", "cp <fichier> backup/"),
        ("echo $NAME", "echo $이름"),
        ("ls [--all]", "ls [--tous]"),
        # a string literal of prose is translated with the page, as in a code block
        ("{ search: 'user input' }", "{ search: 'ユーザーの入力内容' }"),
        ('alt="a helpful description"', 'alt="une description utile"'),
        ('logger.info("Message")', 'logger.info("Сообщение")'),
        # a bracketed word of capitals, or of a script without case, is a placeholder
        ("https://[YOUR-SITE]/graphql/", "https://[VOTRE-SITE]/graphql/"),
        ("[YOUR-SITE]/wp/v2/posts", "[你的站点]/wp/v2/posts"),
    ],
)
def test_a_translated_placeholder_or_quoting_is_the_same_form(ours, theirs):
    assert token_form(ours) == token_form(theirs)


@pytest.mark.parametrize(
    ("ours", "theirs"),
    [
        ("git switch -c {{branch_name}}", "git checkout -b {{브랜치_이름}}"),  # the command
        ("cp <file> backup/", "mv <fichier> backup/"),
        ("{{a}} {{b}}", "{{a}}"),  # one placeholder fewer
        ("<div>", "<span>"),  # a lone tag is HTML, not a placeholder
        ("$HOME", "$PATH"),  # a variable alone, not in a command
        ("list[str]", "list[int]"),  # an index, not an option form
        ('fetch("/api/users")', 'fetch("/api/user")'),  # a string that is a value
        ("t('nav.home')", "t('nav.about')"),
        ("{ search: 'user input' }", "{ query: 'user input' }"),  # the code around it
        ("https://[YOUR-SITE]/graphql/", "https://[YOUR-SITE]/api/"),
        ("src/pages/[slug].astro", "src/pages/[id].astro"),  # a route parameter, as written
    ],
)
def test_a_changed_command_or_kind_is_another_form(ours, theirs):
    assert token_form(ours) != token_form(theirs)


def test_tokens_after_an_ideographic_comma_and_urls_glued_to_cjk_are_seen():
    assert "OAuth2" in extract_tokens("实际上，OAuth2 规范要求").strong
    assert (
        "http://127.0.0.1:8000"
        in extract_tokens("ブラウザでhttp://127.0.0.1:8000を開きます").strong
    )
    assert "1,234" not in extract_tokens("共 1,234 个").strong  # a number's digits stay one


def test_accented_letters_and_balanced_brackets_belong_to_the_token():
    tokens = extract_tokens("JSONről és /items/{item_id}.")
    assert "JSONr" not in tokens.names | tokens.strong
    assert "/items/{item_id}" in tokens.strong


def test_attribute_lists_are_markup_and_prose_code_is_kept_for_matching():
    text = "Voir le lien{.internal-link target=_blank} : « gzip », fetch() et fastapi.security."
    tokens = extract_tokens(text, ["Accept-Encoding"])
    assert "target=_blank" not in tokens.strong
    assert {"gzip", "fetch", "fastapi.security"} <= prose_code(text, ["Accept-Encoding"])
    assert "doesn" not in "".join(prose_code('it doesn\'t say "Unauthorized" x1'))


@pytest.mark.parametrize(
    ("text", "token"),
    [
        ("decode with nextn=3 here", "nextn=3"),  # a setting: holds a = and no /
        ("see https://example.org/x", "https://example.org/x"),
        ("edit docs/config.md first", "docs/config.md"),
        ("POST /v1/chat/completions", "/v1/chat/completions"),
    ],
)
def test_urls_paths_and_settings_are_strong_tokens(text, token):
    # They are read only from texts holding a / or a = (every match holds one).
    assert token in extract_tokens(text).strong


# --- token-mismatch: an example translated, in whatever order its words come -------------

_EN_WORDS = frozenset({"image", "path", "page", "the", "of"})
_FR_WORDS = frozenset({"chemin", "image", "de", "la", "page"})


@pytest.mark.parametrize(
    ("theirs", "ours", "translated"),
    [
        ("IMAGE_PATH", "CHEMIN_IMAGE", True),  # chemin for path, IMAGE kept: fr word order
        ("IMAGE_PATH", "IMAGE_CHEMIN", True),  # the same in the source's order
        ("IMAGE_PATH", "PATH_IMAGE", False),  # the same words in another order: a new name
        ("IMAGE_PATH", "CHEMIN_PAGE", False),  # page is a word of en's text too
        ("IMAGE_PATH", "CHEMIN_TAILLE", False),  # taille is no word of fr's text
        ("IMAGE_URL", "CHEMIN_IMAGE", False),  # url is no word of en's text
        ("<h1>Home Page</h1>", "<h1>홈 페이지</h1>", True),  # Home is capitalised only
        ("<h1>Home Page</h1>", "<h1>홈 Page</h1>", True),
        # Home and Site are no words of en's text: only one is replaced by another script
        ("<h1>Home Site</h1>", "<h1>Chemin 페이지</h1>", False),
        ("IMAGE", "CHEMIN", False),  # a single word is an identifier
    ],
)
def test_a_translated_example_changes_words_of_each_side_s_own_text(theirs, ours, translated):
    assert _translated_example(theirs, ours, _EN_WORDS, _FR_WORDS) is translated
