"""code-mismatch's findings: what differs decides the severity, and the finding stands at
the line where it differs."""

from __future__ import annotations

from conftest import parse_versions, rule_findings
from hypothesis import given, settings
from hypothesis import strategies as st

from parallelcheck.align.progressive import align_article
from parallelcheck.facts import ArticleFacts
from parallelcheck.model.document import BlockKind
from parallelcheck.rules import REGISTRY
from parallelcheck.rules.base import RuleContext
from parallelcheck.rules.code_mismatch import _code_findings, _info_findings
from parallelcheck.text.listings import code_form, renaming
from parallelcheck.text.listings.form import syntax_for
from parallelcheck.text.listings.languages import syntax_of


def _findings(en: str, other: str, lang: str = "fr") -> list:
    article = align_article("a", parse_versions(en=en, **{lang: other}), "en")
    return rule_findings(article, "code-mismatch")


def _page(title: str, code: str, info: str = "js", text: str = "Some text here.") -> str:
    return f"# {title}\n\n{text}\n\n```{info}\n{code}\n```\n"


EXAMPLE = 'import myImage from "../assets/my-image.png";\nconst alt = myImage.alt;'


def test_a_translated_example_that_nothing_else_names_is_not_reported():
    renamed = EXAMPLE.replace("myImage", "monImage")
    en = _page("Images", EXAMPLE, text="Read `myImage.alt` for the text.")
    assert _findings(en, _page("Les images", renamed, text="Lisez `monImage.alt`.")) == []
    assert _findings(en, _page("Les images", renamed, text="Lisez le texte.")) == []


def test_a_renaming_the_page_contradicts_elsewhere_is_a_warning_naming_the_names():
    renamed = EXAMPLE.replace("myImage", "monImage")
    en = _page("Images", EXAMPLE, text="Read `myImage.alt` for the text.")
    fr = _page("Les images", renamed, text="Lisez `myImage.alt` pour le texte.")
    (finding,) = _findings(en, fr)
    assert finding.severity == "warning"
    assert finding.evidence == {
        "kind": "renamed",
        "names": {"myImage": "monImage"},
        "still_written": ["myImage"],
    }
    assert "“monImage” for “myImage”, but fr still writes “myImage” elsewhere" in finding.message
    # another example of the same page that keeps the name contradicts the renaming too
    kept = f"{fr}\n```js\nshow(myImage);\n```\n"
    (finding,) = _findings(f"{en}\n```js\nshow(myImage);\n```\n", kept)
    assert finding.evidence["kind"] == "renamed"


def test_a_renaming_in_one_place_only_is_an_error_at_its_line():
    half = EXAMPLE.replace("myImage.alt", "monImage.alt")
    (finding,) = _findings(_page("Images", EXAMPLE), _page("Les images", half))
    assert finding.severity == "error"
    assert {loc.lang: loc.line for loc in finding.locations} == {"en": 7, "fr": 7}
    assert finding.evidence["found"] == "monImage"
    assert finding.evidence["expected"] == "myImage"


def test_of_two_versions_renaming_alike_only_the_one_the_page_contradicts_is_reported():
    renamed = EXAMPLE.replace("myImage", "monImage")
    en = _page("Images", EXAMPLE, text="Read `myImage.alt` for the text.")
    fr = _page("Les images", renamed, text="Lisez `monImage.alt`.")
    de = _page("Bilder", renamed, text="Lesen Sie `myImage.alt`.")
    article = align_article("a", parse_versions(en=en, fr=fr, de=de), "en")
    (finding,) = rule_findings(article, "code-mismatch")
    assert finding.langs == ("de",)
    assert {loc.lang for loc in finding.locations} == {"en", "de"}
    assert "but de still writes “myImage”" in finding.message


def test_a_renamed_word_is_not_named_by_a_longer_name_that_holds_it():
    en = _page("Logs", 'const entry = { kind: "log" };\nsend(entry);', text="Uses `console.log`.")
    code = 'const entry = { kind: "journal" };\nsend(entry);'
    assert _findings(en, _page("Journaux", code, text="Utilise `console.log`.")) == []
    (kept,) = _findings(en, _page("Journaux", code, text="Le type `log` ou `console.log`."))
    assert kept.evidence["still_written"] == ['"log"']


def test_a_version_or_number_changed_is_never_a_renaming():
    ours, theirs = code_form("npm i astro@4.1.0", "shell"), code_form("npm i astro@4.2.0", "shell")
    assert renaming(theirs, ours) is None
    # Keywords are no names either.
    assert renaming(code_form("let x = 1;", "js"), code_form("const x = 1;", "js")) is None


def test_an_added_comment_is_a_warning_at_its_line_and_a_changed_command_an_error():
    en = _page("Run", "$ fastapi run main.py", "console")
    commented = _page("Lancer", "// lance le serveur\n$ fastapi run main.py", "console")
    changed = _page("Lancer", "// lance le serveur\n$ fastapi dev main.py", "console")
    (comment,) = _findings(en, commented)
    assert comment.severity == "warning"
    assert comment.evidence["kind"] == "comment"
    assert {loc.lang: loc.line for loc in comment.locations} == {"en": 6, "fr": 6}
    (command,) = _findings(en, changed)
    assert command.severity == "error"
    assert {loc.lang: loc.line for loc in command.locations} == {"en": 6, "fr": 7}
    assert "“$ fastapi dev main.py”" in command.message


def test_a_dropped_language_tag_is_one_warning_not_a_code_change_too():
    code = 'title = "TOML Example"  # Title of the document'
    untagged = 'title = "TOML Example"  # Titre du document'
    (finding,) = _findings(_page("T", code, "toml"), _page("T", untagged, ""))
    assert finding.evidence == {"kind": "info-string"}
    assert finding.severity == "warning"


def test_space_between_the_words_of_an_info_string_is_no_change():
    # FastAPI's it/ja/ko index pages write hl_lines="9 14" where en writes hl_lines="9  14".
    code = "from fastapi import FastAPI\napp = FastAPI()"
    en = _page("T", code, 'Python hl_lines="9  14"')
    assert _findings(en, _page("T", code, 'Python  hl_lines="9 14" ')) == []
    (moved,) = _findings(en, _page("T", code, 'Python hl_lines="7 12"'))
    assert moved.evidence == {"kind": "info-string"}


def test_a_text_marker_translated_with_the_code_is_no_change():
    # Astro's de astro-components page: ins="= \\"Hallo\\"" where en has ins="= \\"Hello\\"".
    en = _page("T", 'const greeting = "Hello";', 'astro ins="= \\"Hello\\""')
    de = _page("T", 'const greeting = "Hallo";', 'astro ins="= \\"Hallo\\""')
    assert _findings(en, de) == []
    # a marker whose text its own code lacks is compared as written
    stale = _page("T", 'const greeting = "Hallo";', 'astro ins="= \\"Hello\\""')
    (finding,) = _findings(en.replace("Hello", "Hi"), stale)
    assert finding.evidence == {"kind": "info-string"}


REACT = """export default function Form() {
  return (
    <select onChange={(e) => navigate(e.target.value)}>
      <option value="/play">Play the game</option>
    </select>
  );
}"""


def test_text_between_jsx_tags_in_a_js_block_is_prose():
    # Astro's view-transitions page tags a React component "js": Jouer for Play was an error.
    translated = REACT.replace("Play the game", "Jouer au jeu")
    assert _findings(_page("T", REACT, "js"), _page("T", translated, "js")) == []
    (changed,) = _findings(
        _page("T", REACT, "js"), _page("T", translated.replace("/play", "/jeu"), "js")
    )
    assert "“/jeu”" in changed.message or "/jeu" in changed.message
    # no closing tag, no JSX: a generic type or a comparison stays JavaScript
    for code in ("const a: Array<string> = [];", "if (a < b && c > d) { run(); }"):
        assert syntax_for(code, "ts") is syntax_of("ts")
    assert syntax_for("const el = <div>Hi</div>;", "js") is syntax_of("jsx")


def test_a_localised_language_tag_is_no_change():
    en = _page("Page", '<html lang="en">\n  <body><p>Hello</p></body>\n</html>', "astro")
    fr = _page("Page", '<html lang="fr">\n  <body><p>Bonjour</p></body>\n</html>', "astro")
    assert _findings(en, fr) == []


def test_renamed_strings_are_named_as_written_even_those_compared_as_prose():
    en = _page("Pets", 'const dog = { breed: "poodle", coat: "curly" };\nshow(dog);', "js")
    code = 'const dog = { breed: "caniche", coat: "bouclé" };\nshow(dog);'
    fr = _page("Pets", code, "js", text="Le résultat : `poodle`.")
    (renamed,) = _findings(en, fr, "fr")
    # "bouclé" is compared as a prose string (its form is ""): the message quotes its text
    assert renamed.evidence["names"] == {'"poodle"': '"caniche"', '"curly"': '"bouclé"'}
    assert '“"bouclé"” for “"curly"”' in renamed.message
    assert "what en calls otherwise" in renamed.message


def test_an_example_name_renamed_once_is_a_warning_another_name_an_error():
    en = _page("Config", "export default defineConfig({\n  base: '/my-repo',\n});")
    es = _page(
        "Config",
        "export default defineConfig({\n  base: '/mi-repo',\n});",
        text="Visita `https://x.github.io/my-repo/`.",
    )
    (renamed,) = _findings(en, es, "es")
    assert renamed.severity == "warning"
    assert renamed.evidence["names"] == {"'/my-repo'": "'/mi-repo'"}  # as the code writes them
    changed = _page("Config", "export default defineConfig({\n  base: '/docs',\n});")
    (error,) = _findings(
        _page("Config", "export default defineConfig({\n  base: '/guides',\n});"), changed, "es"
    )
    assert error.severity == "error"


def test_text_after_an_html_entity_is_still_prose():
    en = _page("Footer", "<footer>\n  &#169; {year}, Built with Astro\n</footer>", "astro")
    fr = _page("Pied", "<footer>\n  &#169; {year}, Créé avec Astro\n</footer>", "astro")
    assert _findings(en, fr) == []


def test_a_directive_renamed_is_a_change():
    ours = code_form('{{< codenew file="a.yaml" >}} {{< codenew file="b.yaml" >}}', "directive")
    theirs = code_form(
        '{{< code_sample file="a.yaml" >}} {{< code_sample file="b.yaml" >}}', "directive"
    )
    assert renaming(ours, theirs) is None


def test_a_path_naming_a_renamed_component_is_part_of_the_renaming():
    def astro(name: str, path: str) -> object:
        return code_form(f"---\nimport {name} from '{path}';\n---\n<{name} />\n", "astro")

    en = astro("SomeComponent", "../components/SomeComponent.astro")
    es = astro("UnComponente", "../components/UnComponente.astro")
    assert renaming(es, en) == {"SomeComponent": "UnComponente"}
    # the path changed beyond the renamed name (another file), or renamed on its own
    assert renaming(astro("UnComponente", "../components/UnComponente.jsx"), en) is None
    assert renaming(astro("UnComponente", "../lib/UnComponente.astro"), en) is None
    alone = code_form("import x from './alpha.js';\nx(); x();", "js")
    assert renaming(alone, code_form("import x from './beta.js';\nx(); x();", "js")) is None
    # a name is renamed only as a word of its own: SomeComponentList stays as it was
    listed = astro("UnComponente", "../components/UnComponenteList.astro")
    assert renaming(listed, astro("SomeComponent", "../components/SomeComponentList.astro")) is None


def test_example_data_translated_is_a_renaming_and_a_title_with_a_bar_prose():
    en = code_form("const orders = { product: 'socks', key: 'YOUR_API_KEY' };", "js")
    fr = code_form("const orders = { product: 'chaussettes', key: 'VOTRE_CLE' };", "js")
    assert renaming(fr, en) == {'"socks"': '"chaussettes"', '"YOUR_API_KEY"': '"VOTRE_CLE"'}
    title = code_form("title: 'Astro Learner | Blog'", "js").tokens
    assert title == code_form("title: 'Studente Astro | Blog'", "js").tokens


# ---------------------------------------------------------------------------
# The rule's shortcut: a row whose versions all hold the very same code (or info string) is
# not compared.  The full comparison finds nothing there either.

_CODE_LINES = [
    EXAMPLE,
    "# a comment\nx = 1  # another",
    'print("Hello world")',
    "$ pip install <package>",
    "SELECT * FROM t; -- rows",
    '{"name": "value"}',
    "",
]


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.sampled_from(_CODE_LINES), min_size=1, max_size=3).map("\n".join),
    st.sampled_from(["js", "python", "console", "", 'json title="MCP Configuration"', "sql"]),
)
def test_the_same_code_and_info_in_every_version_give_nothing_to_report(code, info):
    article = align_article(
        "a",
        parse_versions(
            en=_page("T", code, info), fr=_page("T", code, info), de=_page("T", code, info)
        ),
        "en",
    )
    ctx = RuleContext(REGISTRY["code-mismatch"], article, ArticleFacts())
    rows = 0
    for section in article.sections:
        for row in section.rows:
            blocks = {lang: b for lang, b in row.cells.items() if b is not None}
            if not blocks or any(b.kind is not BlockKind.CODE for b in blocks.values()):
                continue
            rows += 1
            forms = {lang: ctx.facts.code_form(b, blocks["en"].info) for lang, b in blocks.items()}
            assert list(_code_findings(ctx, section, row, blocks, forms)) == []
            assert list(_info_findings(ctx, section, row, blocks)) == []
    assert rows == 1


def test_a_file_title_renamed_with_its_example_is_fine_one_replaced_by_words_is_not():
    en = '# T\n\nText.\n\n```js title="src/client.js"\nstart();\n```\n'
    renamed = en.replace("src/client.js", "src/klient.js")
    assert _findings(en, renamed, "de") == []  # nothing else on the page names the file
    worded = en.replace("src/client.js", "Der Client")
    (finding,) = _findings(en, worded, "de")
    assert finding.evidence == {"kind": "info-string"}
    named = renamed.replace("Text.", "Siehe `src/client.js`.")
    (finding,) = _findings(en.replace("Text.", "See `src/client.js`."), named, "de")
    assert "src/klient.js" in finding.message


def test_javascript_without_its_semicolons_is_a_warning_other_changes_stay_errors():
    en = _page("Config", "import a from 'a';\nexport default a({ x: 1 });", "ts")
    (finding,) = _findings(
        en, _page("Config", "import a from 'a'\nexport default a({ x: 1 })", "ts")
    )
    assert finding.severity == "warning"
    assert finding.evidence == {"kind": "semicolons"}
    assert "only in the semicolons" in finding.message
    (changed,) = _findings(
        en, _page("Config", "import a from 'a'\nexport default a({ x: 2 })", "ts")
    )
    assert changed.severity == "error"
    shell = _page("Run", "cd app; make", "shell")
    (command,) = _findings(shell, _page("Run", "cd app make", "shell"))
    assert command.severity == "error"  # a shell's semicolon separates commands
