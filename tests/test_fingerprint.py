"""A finding's fingerprint: what its message names, not its wording, lines or section."""

from __future__ import annotations

from parallelcheck.model.fingerprint import fingerprint, subject

LANGS = (("ja",), ("en", "de"))


def test_rewording_keeps_the_fingerprint():
    old = "paragraph “Ein Satz…” present in en, de has no counterpart in ja"
    new = "paragraph “Ein Satz…” is present in en and de but missing from ja"
    assert fingerprint("missing-paragraph", "a", *LANGS, old) == fingerprint(
        "missing-paragraph", "a", *LANGS, new
    )


def test_what_the_message_names_makes_the_fingerprint():
    base = fingerprint("number-mismatch", "a", *LANGS, "ja says “43” where en says “42”")
    assert base != fingerprint("number-mismatch", "a", *LANGS, "ja says “44” where en says “42”")
    assert base != fingerprint("token-mismatch", "a", *LANGS, "ja says “43” where en says “42”")
    assert base != fingerprint("number-mismatch", "b", *LANGS, "ja says “43” where en says “42”")
    assert base != fingerprint(
        "number-mismatch", "a", ("ko",), ("en", "de"), "ja says “43” where en says “42”"
    )


def test_values_outside_quotes_count_and_line_numbers_and_language_tags_do_not():
    assert subject(
        "list has 1 item in es-419 and vi but 2 items in en", ("es-419", "vi", "en")
    ) == [
        "1",
        "2",
    ]
    assert subject("ru links to http://example.com where en links to https://example.com") == [
        "http://example.com",
        "https://example.com",
    ]
    moved = "it stands at the top level (ko line 26), where en has it in “Step 2” (en line 34)"
    assert subject(moved, ("ko", "en")) == ["“Step 2"]
    assert subject("zh paragraph is 0.12× the length of en's (lines 4–9)", ("zh", "en")) == [
        "0.12×"
    ]
