"""Configuration loading: parallelcheck.yaml, [tool.parallelcheck], defaults and errors."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from parallelcheck.config import Config, LinkConfig, RuleConfig, load_config
from parallelcheck.errors import InputError

KNOWN = frozenset({"length-ratio", "list-shape", "heading-level", "missing-table", "term-missing"})


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


def load(tmp_path: Path, explicit: str | None = None) -> Config:
    return load_config(explicit, cwd=str(tmp_path), known_rules=KNOWN)


def error(tmp_path: Path, explicit: str | None = None) -> InputError:
    with pytest.raises(InputError) as caught:
        load(tmp_path, explicit)
    return caught.value


# ---------------------------------------------------------------------------
# Accepted forms


def test_defaults_without_any_file(tmp_path: Path) -> None:
    config = load(tmp_path)
    assert config.root == "articles"
    assert config.source is None
    assert config.languages is None
    assert config.glossary == ()
    assert config.rules == {}
    assert config.links == LinkConfig(localized_prefixes=("/{lang}/",))
    assert config.path is None
    assert config.base_dir == str(tmp_path)


def test_glossary_folder_in_cwd_is_the_default(tmp_path: Path) -> None:
    (tmp_path / "glossary").mkdir()
    assert load(tmp_path).glossary == ("glossary",)


def test_contract_example(tmp_path: Path) -> None:
    (tmp_path / "glossary").mkdir()
    write(
        tmp_path / "parallelcheck.yaml",
        """
        root: articles
        source: en                      # reference language; default en when present
        languages: [en, zh-hant, JA, ko]  # expected versions; missing ones are reported
        glossary: [glossary/]
        rules:
          length-ratio: off
          list-shape: {severity: error}
        """,
    )
    config = load(tmp_path)
    assert config.path == "parallelcheck.yaml"
    assert config.root == "articles"
    assert config.source == "en"
    assert config.languages == ("en", "zh-Hant", "ja", "ko")
    assert config.glossary == ("glossary",)
    assert config.rules == {
        "length-ratio": RuleConfig(enabled=False, severity=None),
        "list-shape": RuleConfig(enabled=True, severity="error"),
    }


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("off", RuleConfig(enabled=False)),
        ("false", RuleConfig(enabled=False)),
        ("'off'", RuleConfig(enabled=False)),
        ("'false'", RuleConfig(enabled=False)),
        ("'disabled'", RuleConfig(enabled=False)),
        ("true", RuleConfig(enabled=True)),
        ("on", RuleConfig(enabled=True)),
        ("warning", RuleConfig(severity="warning")),
        ("Info", RuleConfig(severity="info")),
        ("{severity: error}", RuleConfig(severity="error")),
        ("{severity: off}", RuleConfig(enabled=False)),
        ("{enabled: false}", RuleConfig(enabled=False)),
        ("{enabled: true, severity: info}", RuleConfig(severity="info")),
    ],
)
def test_rule_forms(tmp_path: Path, value: str, expected: RuleConfig) -> None:
    write(tmp_path / "parallelcheck.yaml", f"rules:\n  heading-level: {value}\n")
    assert load(tmp_path).rules == {"heading-level": expected}


def test_links_options(tmp_path: Path) -> None:
    write(
        tmp_path / "parallelcheck.yaml",
        """
        links:
          localized_prefixes: ["/{lang}/", "/docs/{lang}/"]
          ignore_targets: ["https://example.com/*", "*.png"]
        """,
    )
    config = load(tmp_path)
    assert config.links == LinkConfig(localized_prefixes=("/{lang}/", "/docs/{lang}/"))
    # links.ignore_targets is the link-mismatch rule's ignore_targets option
    assert config.rules["link-mismatch"].options == {
        "ignore_targets": ("https://example.com/*", "*.png")
    }


def test_single_string_values_are_accepted_for_lists(tmp_path: Path) -> None:
    (tmp_path / "terms.yaml").write_text("terms: []\n", encoding="utf-8")
    write(tmp_path / "parallelcheck.yaml", "languages: ko\nglossary: terms.yaml\n")
    config = load(tmp_path)
    assert config.languages == ("ko",)
    assert config.glossary == ("terms.yaml",)


def test_empty_file_gives_defaults(tmp_path: Path) -> None:
    write(tmp_path / "parallelcheck.yaml", "# nothing yet\n")
    config = load(tmp_path)
    assert config.path == "parallelcheck.yaml"
    assert config.root == "articles"


def test_hidden_yaml_name(tmp_path: Path) -> None:
    write(tmp_path / ".parallelcheck.yaml", "root: content\n")
    config = load(tmp_path)
    assert (config.path, config.root) == (".parallelcheck.yaml", "content")


def test_yaml_wins_over_pyproject(tmp_path: Path) -> None:
    write(tmp_path / "parallelcheck.yaml", "root: from-yaml\n")
    write(tmp_path / "pyproject.toml", '[tool.parallelcheck]\nroot = "from-toml"\n')
    assert load(tmp_path).root == "from-yaml"


def test_explicit_config_paths_are_relative_to_its_folder(tmp_path: Path) -> None:
    write(tmp_path / "conf/pc.yaml", "root: ../content\nglossary: [terms]\n")
    (tmp_path / "conf/terms").mkdir()
    (tmp_path / "conf/glossary").mkdir()  # not used: glossary is given
    write(tmp_path / "parallelcheck.yaml", "root: ignored\n")  # --config wins
    config = load(tmp_path, "conf/pc.yaml")
    assert config.path == "conf/pc.yaml"
    assert config.base_dir == str(tmp_path / "conf")
    assert config.root == "content"
    assert config.glossary == ("conf/terms",)


def test_default_glossary_is_next_to_the_config_file(tmp_path: Path) -> None:
    write(tmp_path / "conf/pc.yaml", "source: en\n")
    (tmp_path / "conf/glossary").mkdir()
    (tmp_path / "glossary").mkdir()  # the working directory's is not the config's
    assert load(tmp_path, "conf/pc.yaml").glossary == ("conf/glossary",)


def test_working_directory_glossary_is_not_used_with_a_config_elsewhere(tmp_path: Path) -> None:
    write(tmp_path / "conf/pc.yaml", "source: en\n")
    (tmp_path / "glossary").mkdir()
    assert load(tmp_path, "conf/pc.yaml").glossary == ()


def test_pyproject_table(tmp_path: Path) -> None:
    write(
        tmp_path / "pyproject.toml",
        """
        [project]
        name = "site"

        [tool.parallelcheck]
        root = "docs"
        source = "en"
        languages = ["en", "pt_br"]

        [tool.parallelcheck.rules]
        length-ratio = "off"
        list-shape = { severity = "error" }
        "heading-level" = false

        [tool.parallelcheck.links]
        ignore_targets = ["*.svg"]

        [tool.other]
        x = 1
        """,
    )
    config = load(tmp_path)
    assert config.path == "pyproject.toml"
    assert config.root == "docs"
    assert config.languages == ("en", "pt-BR")
    assert config.rules == {
        "length-ratio": RuleConfig(enabled=False),
        "list-shape": RuleConfig(severity="error"),
        "heading-level": RuleConfig(enabled=False),
        "link-mismatch": RuleConfig(options={"ignore_targets": ("*.svg",)}),
    }


def test_pyproject_without_table_gives_defaults(tmp_path: Path) -> None:
    write(tmp_path / "pyproject.toml", '[project]\nname = "x"\n')
    config = load(tmp_path)
    assert config.path is None


def test_another_tools_broken_pyproject_is_not_ours_to_judge(tmp_path: Path) -> None:
    write(tmp_path / "pyproject.toml", "[project\nname = \n")
    assert load(tmp_path).path is None


def test_standalone_toml_config(tmp_path: Path) -> None:
    write(tmp_path / "pc.toml", 'root = "docs"\n[rules]\nlist-shape = "info"\n')
    config = load(tmp_path, "pc.toml")
    assert config.root == "docs"
    assert config.rules == {"list-shape": RuleConfig(severity="info")}


# ---------------------------------------------------------------------------
# Errors name the file, the line and the key


YAML_ERRORS = [
    pytest.param(
        """
        root: articles
        source: en
        # a comment
        langauges: [en, ja]
        """,
        4,
        "unknown key 'langauges' (expected one of: root, source, languages, layout, glossary, "
        "exclude, rules, overrides, links, regional); did you mean 'languages'?",
        id="unknown-top-key",
    ),
    pytest.param(
        """
        root: articles
        langauges:
          - en
          - ja
        """,
        2,
        "unknown key 'langauges'",
        id="unknown-key-value-below",
    ),
    pytest.param(
        """
        rules:
          list-shape:
            fatal
        """,
        2,
        "unknown severity 'fatal'",
        id="severity-on-next-line",
    ),
    pytest.param(
        """
        rules:
          length-ratio: off
          lenght-ratio: info
        """,
        3,
        "unknown rule id 'lenght-ratio'",
        id="unknown-rule",
    ),
    pytest.param(
        """
        rules:
          list-shape:
            severity: error
            treshold: 3
        """,
        4,
        "unknown option 'treshold' for rule 'list-shape' (expected one of: severity, enabled)",
        id="unknown-rule-option",
    ),
    pytest.param(
        """
        rules:

          list-shape: fatal
        """,
        3,
        "unknown severity 'fatal' for rule 'list-shape'",
        id="unknown-severity",
    ),
    pytest.param(
        """
        rules:
          list-shape:
            severity: warn
        """,
        3,
        "unknown severity 'warn' for rule 'list-shape' (expected one of: error, warning, "
        "info, or off); did you mean 'warning'?",
        id="unknown-severity-in-mapping",
    ),
    pytest.param(
        "rules:\n  list-shape: 3\n", 2, "rule 'list-shape': expected off", id="rule-bad-type"
    ),
    pytest.param(
        "rules:\n  list-shape: {enabled: maybe}\n",
        2,
        "'enabled' of rule 'list-shape' must be true or false",
        id="enabled-not-bool",
    ),
    pytest.param("rules: [a, b]\n", 1, "'rules' must be a mapping, not a list", id="rules-list"),
    pytest.param(
        "root: articles\nlanguages: 5\n",
        2,
        "'languages' must be a list of strings, not a number",
        id="languages-number",
    ),
    pytest.param(
        """
        languages:
          - en
          - ja
          - english
        """,
        4,
        "invalid language tag 'english' in 'languages'",
        id="bad-tag-item",
    ),
    pytest.param("languages: [en, 7]\n", 1, "item 2 is a number", id="languages-item-type"),
    pytest.param(
        "root: a\n\nsource: Klingon\n", 3, "invalid language tag 'Klingon'", id="bad-source"
    ),
    pytest.param(
        "source: ko\nlanguages: [en, ja]\n",
        1,
        "source language 'ko' is not among the configured languages (en, ja)",
        id="source-not-in-languages",
    ),
    pytest.param("root: [a, b]\n", 1, "'root' must be a non-empty string", id="root-list"),
    pytest.param(
        "root: a\nroot: b\n", 2, "duplicate key 'root' (first given on line 1)", id="dup-key"
    ),
    pytest.param(
        "glossary:\n  - glossary\n  - nowhere/\n",
        3,
        "glossary path 'nowhere/' does not exist",
        id="missing-glossary",
    ),
    pytest.param(
        "links:\n  localized_prefixes: ['/docs/']\n",
        2,
        "localized prefix '/docs/' has no {lang} placeholder",
        id="prefix-without-lang",
    ),
    pytest.param(
        "links:\n  localised_prefixes: ['/{lang}/']\n",
        2,
        "unknown key 'localised_prefixes' (expected one of: localized_prefixes, "
        "ignore_targets); did you mean 'localized_prefixes'?",
        id="unknown-links-key",
    ),
    pytest.param("- root\n- source\n", 1, "must be a mapping of keys", id="top-level-list"),
    pytest.param(
        "root: articles\nlanguages: [en, ja\nsource: en\n",
        3,
        "invalid YAML: expected ',' or ']'",
        id="broken-yaml",
    ),
    pytest.param("root: a\n---\nroot: b\n", 2, "invalid YAML", id="two-documents"),
    pytest.param(
        "root: !!python/object/apply:os.system ['echo hacked']\n",
        1,
        "invalid YAML: could not determine a constructor",
        id="python-tag",
    ),
]


@pytest.mark.parametrize(("text", "line", "message"), YAML_ERRORS)
def test_yaml_errors(tmp_path: Path, text: str, line: int, message: str) -> None:
    write(tmp_path / "glossary/x.yaml", "terms: []\n")
    write(tmp_path / "parallelcheck.yaml", text)
    caught = error(tmp_path)
    assert caught.path == "parallelcheck.yaml"
    assert (caught.line, message in caught.message) == (line, True), caught.message
    assert caught.describe().startswith(f"parallelcheck.yaml:{line}: ")


def test_exact_message_for_unknown_key(tmp_path: Path) -> None:
    write(tmp_path / "parallelcheck.yaml", "root: a\nsource: en\nglossary: []\nlangauges: [en]\n")
    assert str(error(tmp_path)).startswith(
        "parallelcheck.yaml:4: unknown key 'langauges' (expected one of: root, source, "
        "languages, layout, glossary, exclude, rules, overrides, links, regional)"
    )


TOML_ERRORS = [
    pytest.param(
        """
        [project]
        name = "x"
        langauges = 1

        [tool.parallelcheck]
        root = "docs"
        langauges = ["en"]
        """,
        7,
        "unknown key 'langauges'",
        id="unknown-top-key",
    ),
    pytest.param(
        """
        [tool.parallelcheck]
        root = "docs"

        [tool.parallelcheck.rules]
        length-ratio = "off"
        list-shap = "error"
        """,
        6,
        "unknown rule id 'list-shap'",
        id="unknown-rule-in-subtable",
    ),
    pytest.param(
        """
        [tool.parallelcheck]
        root = "docs"
        rules = { length-ratio = "off", list-shape = "loud" }
        """,
        3,
        "unknown severity 'loud'",
        id="inline-table",
    ),
    pytest.param(
        """
        [tool.parallelcheck]
        languages = [
            "en",
            "ja",
            "not a tag",
        ]
        """,
        5,
        "invalid language tag 'not a tag'",
        id="array-item",
    ),
    pytest.param(
        """
        [tool.parallelcheck.rules.list-shape]
        severity = "error"
        colour = "red"
        """,
        3,
        "unknown option 'colour' for rule 'list-shape'",
        id="rule-table",
    ),
    pytest.param(
        """
        [tool]
        parallelcheck.root = "docs"
        parallelcheck.sorce = "en"
        """,
        3,
        "unknown key 'sorce'",
        id="dotted-keys",
    ),
    pytest.param(
        """
        [tool.parallelcheck]
        root = "docs"
        languages = ["en",
        """,
        4,
        "invalid TOML",
        id="broken-toml",
    ),
]


@pytest.mark.parametrize(("text", "line", "message"), TOML_ERRORS)
def test_pyproject_errors(tmp_path: Path, text: str, line: int, message: str) -> None:
    write(tmp_path / "pyproject.toml", text)
    caught = error(tmp_path)
    assert caught.path == "pyproject.toml"
    assert (caught.line, message in caught.message) == (line, True), caught.message


def test_missing_explicit_config(tmp_path: Path) -> None:
    caught = error(tmp_path, "nope.yaml")
    assert caught.path == "nope.yaml"
    assert "not found" in caught.message


def test_pyproject_given_explicitly_must_have_the_table(tmp_path: Path) -> None:
    write(tmp_path / "pyproject.toml", '[project]\nname = "x"\n')
    assert "no [tool.parallelcheck] table" in error(tmp_path, "pyproject.toml").message


def test_non_utf8_config(tmp_path: Path) -> None:
    (tmp_path / "parallelcheck.yaml").write_bytes(b"root: a\nsource: \xff\xfe\n")
    caught = error(tmp_path)
    assert (caught.line, "UTF-8" in caught.message) == (2, True)


# ---------------------------------------------------------------------------
# Hostile YAML


def test_alias_bomb_is_refused(tmp_path: Path) -> None:
    lines = ["a: &a [x, x, x, x, x, x, x, x, x, x]"]
    for index, name in enumerate("bcdefgh"):
        prev = "abcdefgh"[index]
        lines.append(f"{name}: &{name} [{', '.join([f'*{prev}'] * 10)}]")
    write(tmp_path / "parallelcheck.yaml", "\n".join(lines) + "\n")
    caught = error(tmp_path)
    assert "aliases are expanded" in caught.message
    assert caught.path == "parallelcheck.yaml"


def test_recursive_alias_is_refused(tmp_path: Path) -> None:
    write(tmp_path / "parallelcheck.yaml", "root: articles\nlinks: &l {x: *l}\n")
    assert "recursive alias" in error(tmp_path).message


def test_moderate_aliases_are_fine(tmp_path: Path) -> None:
    write(
        tmp_path / "parallelcheck.yaml",
        "languages: &langs [en, ja]\nrules:\n  list-shape: &sev {severity: info}\n"
        "  heading-level: *sev\n",
    )
    config = load(tmp_path)
    assert config.rules["heading-level"] == RuleConfig(severity="info")


def test_huge_file_is_refused(tmp_path: Path) -> None:
    write(tmp_path / "parallelcheck.yaml", "root: articles\n" + "# padding\n" * 120_000)
    assert "too large" in error(tmp_path).message


def test_deep_nesting_is_an_input_error(tmp_path: Path) -> None:
    write(tmp_path / "parallelcheck.yaml", "root: " + "[" * 5000 + "]" * 5000 + "\n")
    caught = error(tmp_path)
    assert caught.path == "parallelcheck.yaml"
