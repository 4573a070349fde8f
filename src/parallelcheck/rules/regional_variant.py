"""regional-variant: Chinese written in the other script, or with the other region's words."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher, get_close_matches
from functools import cache
from typing import Any

from parallelcheck.errors import describe_kind
from parallelcheck.model.aligned import AlignedArticle, AlignedSection
from parallelcheck.model.document import Block, BlockKind
from parallelcheck.model.finding import Finding
from parallelcheck.rules._common import excerpt
from parallelcheck.rules._lines import line_in
from parallelcheck.rules.base import Option, OptionError, RuleContext, rule
from parallelcheck.text.kept import TABLES, KeptTable
from parallelcheck.text.langtag import canonical_tag, primary_language
from parallelcheck.text.regexes import compile_pattern
from parallelcheck.text.script import HAN_CHAR as _HAN
from parallelcheck.text.script import HAN_CHARS

TRADITIONAL_REGIONS = frozenset({"TW", "HK", "MO"})
SIMPLIFIED_REGIONS = frozenset({"CN", "SG", "MY"})
REGION_NAMES = {
    "TW": "Taiwan",
    "HK": "Hong Kong",
    "MO": "Macau",
    "CN": "mainland",
    "SG": "Singapore",
    "MY": "Malaysia",
}

#: Characters OpenCC turns into another Traditional form although they are standard in
#: Traditional writing too (占 is the Taiwan standard form of 佔).
SHARED_CHARACTERS = frozenset("占")

#: Words OpenCC's Taiwan phrase tables replace although Taiwan writing uses them as well, each
#: with a meaning of its own there: 文件 (document; file is 檔案), 項目 (item; project is 專案),
#: 參數 (parameter; OpenCC makes it 引數, argument), 用戶 (user, as in 用戶端 client), 對象
#: (counterpart), 消息 (news), 通信 (correspondence), 保存 (preserve), 聲明 (statement),
#: 實例, 類型, 權限, 發送, 查看, 打開, 連接, 前綴, 程序, 進程, 數據, 優化, 發佈, 圖像, 禁用,
#: 像素, 腳本, 擴展, 拋出, 循環, 卸載, 點擊 (all in common Taiwan use).  A configuration may
#: allow more with ``allow:``.
ALLOWED_TERMS = frozenset(
    {
        "文件",
        "項目",
        "參數",
        "用戶",
        "對象",
        "消息",
        "通信",
        "保存",
        "聲明",
        "實例",
        "類型",
        "權限",
        "發送",
        "查看",
        "打開",
        "連接",
        "前綴",
        "程序",
        "進程",
        "數據",
        "優化",
        "發佈",
        "圖像",
        "禁用",
        "像素",
        "腳本",
        "擴展",
        "拋出",
        "循環",
        "卸載",
        "點擊",
    }
)

#: The same for a Simplified text, whose Taiwan phrase table (``tw2sp``) also turns ordinary
#: mainland words into others: 序列 (sequence), 新增, 建立, 核心, 整合, 向量, 行程, 截图 …
ALLOWED_TERMS_SIMPLIFIED = frozenset(
    {
        "序列",
        "多工",
        "新增",
        "行程",
        "建立",
        "核心",
        "整合",
        "向量",
        "启用",
        "复制",
        "执行",
        "查询",
        "进阶",
        "类比",
        "开启",
        "原生",
        "文件",
        "项目",
        "参数",
        "程序",
        "数据",
        "截图",
        "离线",
        "存档",
    }
)


#: Terms that are the other region's word in one sense only, and a word of the text's own
#: region in another: reported only where the aligned block of the source (English) says the
#: sense in which they are the other region's word.  Keyed by Traditional characters (one
#: entry serves both scripts), each with the English words of that sense.  指標 in a mainland
#: text is "metric" (Taiwan's 指標 "pointer" is the mainland 指针); 局部 in a Taiwan text is
#: "partial" unless it translates "local" (區域); 資料 in a mainland text is "material,
#: profile" unless it translates "data" (数据); 設備 "equipment" vs "device" (裝置) …
CONTEXT_TERMS = {
    "指標": r"\bpointers?\b",
    "指針": r"\bpointers?\b",
    "資料": r"\bdata\b",
    "局部": r"\blocal(?:ly)?\b",
    "全局": r"\bglobal(?:ly)?\b",
    "即時": r"\breal[- ]?time\b",
    "設備": r"\bdevices?\b",
    "導入": r"\bimport",
    "運行": r"\b(?:run|runs|running|ran|runtime)\b",
    "分區": r"\bpartition",
    "儲存": r"\bsav(?:e|es|ed|ing)\b",
}
_CONTEXT_PATTERNS = {
    term: compile_pattern(words, re.IGNORECASE) for term, words in CONTEXT_TERMS.items()
}


def in_context(term: str, traditional: bool, source_text: str | None) -> bool:
    """Whether a term found in a text (in its own script: *traditional* or not) is meant in
    the other region's sense: always, unless it is one of :data:`CONTEXT_TERMS`; then only
    when *source_text* (the aligned source block, ``None`` when there is none) says that
    sense."""
    key = term if traditional else convert("s2tw", term)
    pattern = _CONTEXT_PATTERNS.get(key)
    if pattern is None:
        return True
    return source_text is not None and pattern.search(source_text) is not None


@dataclass(frozen=True)
class RegionalSettings:
    """What the rule checks in one Chinese version.

    ``traditional`` says which script the version is meant to be written in, ``region`` whose
    vocabulary it follows (``TW`` or ``CN`` when the tag names none), ``script`` and
    ``vocabulary`` which checks run, ``allow`` further terms never reported.
    """

    traditional: bool
    region: str
    script: bool
    vocabulary: bool
    allow: frozenset[str] = frozenset()


#: The keys of one language's settings in the ``languages`` option.
LANGUAGE_KEYS = ("script", "vocabulary", "allow")
_ON = frozenset({"on", "true", "yes", "enable", "enabled"})
_OFF = frozenset({"off", "false", "no", "disable", "disabled"})


@dataclass(frozen=True)
class LanguageOptions:
    """The configured settings of one Chinese version: ``script`` and ``vocabulary`` switch
    the two checks (``None`` keeps the default), ``allow`` lists terms never reported."""

    script: bool | None = None
    vocabulary: bool | None = None
    allow: tuple[str, ...] = ()


def read_languages(value: Any) -> dict[str, LanguageOptions]:
    """The ``languages`` option (also written as the top-level ``regional:`` key): a mapping
    of language tags to true / false / on / off (both checks) or to a mapping of
    ``script``, ``vocabulary`` (true or false) and ``allow`` (a list of terms)."""
    if not isinstance(value, dict):
        raise OptionError(f"must be a mapping, not {_kind(value)}")
    languages: dict[str, LanguageOptions] = {}
    for key, setting in value.items():
        tag = canonical_tag(str(key).strip())
        if tag is None:
            raise OptionError(
                f"invalid language tag '{key}' in '{{name}}' (expected a registered BCP 47 tag "
                "such as zh-TW, zh-Hant, zh-CN)",
                (str(key),),
                (),
            )
        languages[tag] = _language(setting, str(key))
    return languages


def _language(value: Any, key: str) -> LanguageOptions:
    if isinstance(value, bool):
        return LanguageOptions(script=value, vocabulary=value)
    if isinstance(value, str) and value.strip().lower() in _ON | _OFF:
        on = value.strip().lower() in _ON
        return LanguageOptions(script=on, vocabulary=on)
    if not isinstance(value, dict):
        raise OptionError(
            f"must be true, false or a mapping of {', '.join(LANGUAGE_KEYS)}, not {_kind(value)}",
            (key,),
        )
    options: dict[str, Any] = {}
    for option, setting in value.items():
        if option in ("script", "vocabulary"):
            if not isinstance(setting, bool):
                raise OptionError(f"must be true or false, not {_kind(setting)}", (key, option))
            options[option] = setting
        elif option == "allow":
            items = [setting] if isinstance(setting, str) else setting
            if not isinstance(items, list) or not all(isinstance(i, str) for i in items):
                raise OptionError(f"must be a list of strings, not {_kind(setting)}", (key, option))
            options[option] = tuple(items)
        else:
            close = get_close_matches(str(option), LANGUAGE_KEYS, n=1, cutoff=0.6)
            hint = f"; did you mean '{close[0]}'?" if close else ""
            raise OptionError(
                f"unknown key '{option}' in '{{name}}' (expected one of: "
                f"{', '.join(LANGUAGE_KEYS)}){hint}",
                (key, str(option)),
                (key,),
            )
    return LanguageOptions(**options)


def _kind(value: object) -> str:
    return describe_kind(value, null="an empty value", mapping="a mapping")


def regional_settings(lang: str, configured: Mapping[str, Any] | None) -> RegionalSettings | None:
    """The settings for version *lang*: ``None`` for a version that is not Chinese.

    *configured* maps language tags to settings (objects or mappings with ``script``,
    ``vocabulary`` — true, false or ``None`` for the default — and ``allow``; or a plain
    true / false for both checks).  By default the script check is on for every Chinese tag
    (``zh``, ``zh-Hant``, ``zh-TW``, ``zh-Hans``, ``zh-CN`` …), the vocabulary check only for
    a tag that names a region (``zh-TW``, ``zh-HK``, ``zh-CN`` …): a ``zh-Hant`` or
    ``zh-Hans`` text may follow either region's usage.
    """
    if primary_language(lang) != "zh":
        return None
    parts = (canonical_tag(lang) or lang).split("-")[1:]
    script = next((p for p in parts if len(p) == 4), None)
    region = next((p for p in parts if len(p) == 2 and p.isalpha()), None)
    traditional = script == "Hant" if script is not None else region in TRADITIONAL_REGIONS
    default = region is not None
    chosen_region = region or ("TW" if traditional else "CN")
    check_script, check_vocabulary, allow = True, default, frozenset()
    value = _lookup(configured or {}, lang)
    if isinstance(value, bool):
        check_script = check_vocabulary = value
    elif value is not None:
        script_on = _option(value, "script")
        vocabulary_on = _option(value, "vocabulary")
        check_script = True if script_on is None else bool(script_on)
        check_vocabulary = default if vocabulary_on is None else bool(vocabulary_on)
        allow = frozenset(_option(value, "allow") or ())
    return RegionalSettings(traditional, chosen_region, check_script, check_vocabulary, allow)


def _lookup(configured: Mapping[str, Any], lang: str) -> Any:
    wanted = (canonical_tag(lang) or lang).lower()
    for key, value in configured.items():
        if (canonical_tag(str(key)) or str(key)).lower() == wanted:
            return value
    return None


def _option(value: Any, name: str) -> Any:
    if isinstance(value, Mapping):
        return value.get(name)
    return getattr(value, name, None)


# ---------------------------------------------------------------------------
# OpenCC, loaded on first use


@cache
def _converter(config: str):
    """The OpenCC converter of one configuration.  Cached: loading one reads its dictionaries;
    one entry per configuration this module names (six at most)."""
    import opencc

    return opencc.OpenCC(config)


def convert(config: str, text: str) -> str:
    """*text* converted with the OpenCC configuration *config* (``s2t``, ``s2twp`` …)."""
    return _converter(config).convert(text)


#: A character is of the other script when every one of these conversions changes it — alone
#: and in its context (so 台, which Hong Kong keeps, and 了 in 了解 are not).
_TO_TRADITIONAL = ("s2t", "s2tw", "s2hk")
_TO_SIMPLIFIED = ("t2s", "tw2s", "hk2s")


class OtherScript:
    """The Han characters that every conversion into one script changes (each of
    :data:`_TO_TRADITIONAL`, or of :data:`_TO_SIMPLIFIED`), alone and so in any context,
    known for every character :data:`~parallelcheck.text.script.HAN_CHAR` matches.

    They are worked out at once (:meth:`changed`): every such character, one per line, in
    one call per conversion — a line break ends every phrase of OpenCC's dictionaries, so
    each character converts as it does alone (``tests/test_regional.py`` checks every Han
    character).  Which characters they are is a fact of OpenCC's tables, so a run keeps them
    (*table*: :data:`KEPT_TABLE`, tagged with OpenCC's version; see
    :mod:`parallelcheck.text.kept`): a later run that is given them loads no conversion to
    tell that a version holds no character of the other script (most versions), and loads
    one only to report the characters of a version that holds some."""

    def __init__(self, traditional: bool, table: KeptTable | None = None):
        self.traditional = traditional
        self.configs = _TO_TRADITIONAL if traditional else _TO_SIMPLIFIED
        self.table = table
        self._changed: frozenset[str] | None = None

    @property
    def key(self) -> str:
        """The entry of :attr:`table` holding the characters, as one string in code order."""
        return "into-traditional" if self.traditional else "into-simplified"

    def kept(self) -> bool:
        """Whether the characters are known without loading a conversion."""
        return self._changed is not None or self._kept_entry() is not None

    def changed(self) -> frozenset[str]:
        """Every Han character each conversion changes, but :data:`SHARED_CHARACTERS`."""
        if self._changed is None:
            found = self._kept_entry()
            if found is None:
                found = self._worked_out()
                if self.table is not None:
                    self.table.put(self.key, "".join(sorted(found)))
            self._changed = found - SHARED_CHARACTERS
        return self._changed

    def among(self, chars: set[str]) -> set[str]:
        """Those of *chars* (Han characters) that every conversion changes."""
        return chars & self.changed()

    def _kept_entry(self) -> frozenset[str] | None:
        """The characters :attr:`table` holds, when it holds them as it keeps them: Han
        characters, some, in code order, each once (else they are worked out afresh)."""
        entry = self.table.get(self.key) if self.table is not None else None
        if type(entry) is not str or not _SOME_HAN.fullmatch(entry):
            return None
        found = frozenset(entry)
        return found if len(found) == len(entry) and "".join(sorted(found)) == entry else None

    def _worked_out(self) -> frozenset[str]:
        changed = set(_every_han())
        for config in self.configs:
            ordered = sorted(changed)
            converted = convert(config, "\n".join(ordered)).split("\n")
            if len(converted) != len(ordered):  # not one line a character: one by one
                converted = [convert(config, ch) for ch in ordered]
            changed.difference_update(
                ch for ch, into in zip(ordered, converted, strict=True) if into == ch
            )
        return frozenset(changed)


def _every_han() -> Iterator[str]:
    """Every character :data:`~parallelcheck.text.script.HAN_CHAR` matches."""
    for first, last in zip(HAN_CHARS[0::3], HAN_CHARS[2::3], strict=True):
        yield from map(chr, range(ord(first), ord(last) + 1))


_SOME_HAN = compile_pattern(f"[{HAN_CHARS}]+")
#: The kept table of :class:`OtherScript`'s characters.
KEPT_TABLE = "opencc-other-script"


def opencc_tag() -> str:
    """What :class:`OtherScript`'s characters depend on: OpenCC's version (its tables)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return f"opencc {version('opencc')}"
    except PackageNotFoundError:
        return "opencc"


@cache
def shared_other_script(traditional: bool) -> OtherScript:
    """The process's :class:`OtherScript` for one script, shared by every check it runs, its
    characters kept between runs.  Cached: two entries at most."""
    return OtherScript(traditional, TABLES.table(KEPT_TABLE, opencc_tag()))


def wrong_script(
    text: str, traditional: bool, other: OtherScript | None = None
) -> list[tuple[int, str, str]]:
    """Characters of the other script in *text*: ``(offset, character, its form in the
    intended script)``.  *traditional* says which script the text is meant to be in; *other*
    keeps, across the texts of one check, which characters every conversion changes."""
    other = shared_other_script(traditional) if other is None else other
    configs = other.configs
    suspects = other.among(set(_HAN.findall(text)))
    if not suspects:
        return []
    converted = [convert(config, text) for config in configs]
    if any(len(c) != len(text) for c in converted):
        converted = []
    found = []
    for offset, ch in enumerate(text):
        if ch in suspects and all(c[offset] != ch for c in converted):
            found.append(
                (offset, ch, converted[0][offset] if converted else convert(configs[0], ch))
            )
    return found


def _vocabulary_configs(settings: RegionalSettings) -> tuple[str, str] | None:
    if settings.traditional:
        if settings.region == "HK":
            return "s2hk", "s2hkp"
        return "s2tw", "s2twp"
    return "tw2s", "tw2sp"


def other_region_terms(text: str, settings: RegionalSettings) -> list[tuple[int, str, str]]:
    """Terms of another region in *text*: ``(offset, term, this region's term)``.

    For a Traditional text the difference between OpenCC's plain conversion to the region's
    characters (``s2tw``) and its phrase conversion (``s2twp``) is the vocabulary; a Simplified
    text is written in Taiwan characters (``s2tw``) and then compared between ``tw2s`` and
    ``tw2sp``.
    """
    configs = _vocabulary_configs(settings)
    if configs is None:
        return []
    plain_config, phrase_config = configs
    traditional = settings.traditional

    def plain(part: str) -> str:
        return convert(plain_config, part if traditional else convert("s2tw", part))

    def phrased(part: str) -> str:
        return convert(phrase_config, part if traditional else convert("s2tw", part))

    before, after = plain(text), phrased(text)
    if before == after:
        return []
    same_length = len(before) == len(text)
    allowed = (ALLOWED_TERMS if traditional else ALLOWED_TERMS_SIMPLIFIED) | settings.allow
    found: dict[tuple[int, str], str] = {}
    taken: list[tuple[int, int, int, int]] = []
    matcher = SequenceMatcher(None, before, after, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal" or any(
            (i1 < i2 and a <= i1 and i2 <= b) or (j1 < j2 and c <= j1 and j2 <= d)
            for a, b, c, d in taken
        ):
            continue  # part of a term already found (用戶 → 使用者 is two edits)
        located = _whole_term(before, after, i1, i2, j1, plain, phrased)
        if located is None:
            continue
        start, term, replacement, at = located
        taken.append((start, start + len(term), at, at + len(replacement)))
        for offset, piece, right in _split(start, term, replacement, plain, phrased):
            shown = text[offset : offset + len(piece)] if same_length else piece
            if _covered(shown, allowed) or _covered(piece, allowed):
                continue
            found.setdefault((offset, shown), right)
    return [(start, term, replacement) for (start, term), replacement in sorted(found.items())]


def _split(start, term, replacement, plain, phrased) -> list[tuple[int, str, str]]:
    """Two neighbouring terms found as one (硬件兼容 → 硬件, 兼容), each with its own
    replacement, so that each is shown and allowed on its own."""
    for cut in range(1, len(term)):
        head, tail = term[:cut], term[cut:]
        new_head, new_tail = phrased(head), phrased(tail)
        if (
            new_head + new_tail == replacement
            and new_head != plain(head)
            and new_tail != plain(tail)
        ):
            return _split(start, head, new_head, plain, phrased) + _split(
                start + cut, tail, new_tail, plain, phrased
            )
    return [(start, term, replacement)]


def _covered(term: str, allowed: frozenset[str]) -> bool:
    """Whether *term* is made of allowed terms (查看文件 is 查看 + 文件)."""
    rest = term
    for word in sorted(allowed, key=len, reverse=True):
        if word in rest:
            rest = rest.replace(word, "")
    return not _HAN.search(rest)


def _whole_term(before, after, i1, i2, j1, plain, phrased) -> tuple[int, str, str, int] | None:
    """The smallest stretch of *before* around a change that its phrase conversion turns into
    what stands at the same place in *after*: the phrase OpenCC matched (硬件 → 硬體, not
    件 → 體; 實例 → 例項).  ``(start, term, replacement, its start in after)``, or ``None``."""
    for extra in range(9):
        for left in range(extra + 1):
            start, end = i1 - left, i2 + extra - left
            if start < 0 or end > len(before) or end == start:
                continue
            term = before[start:end]
            converted = phrased(term)
            at = j1 - left
            if (
                converted != plain(term)
                and at >= 0
                and after.startswith(converted, at)
                and _HAN.search(term)
            ):
                return start, term, converted, at
    return None


# ---------------------------------------------------------------------------
# The rule


#: The line of a character of a piece's text.
LineOf = Callable[[int], int]


def _pieces(
    section: AlignedSection, lang: str, source: str
) -> Iterator[tuple[str, str, LineOf, str | None]]:
    """(what, text, the line of each of its characters, the text of the aligned source
    heading or block: ``None`` when there is none) of every piece of prose of a version's
    section: its heading, paragraphs, list items, table rows and admonition bodies (code and
    HTML are left out)."""
    heading = section.cells.get(lang)
    if heading is None:
        return
    theirs = section.cells.get(source) if source != lang else None
    if heading.level:
        yield "heading", heading.title, _at(heading.line), theirs.title if theirs else None
    for row in section.rows:
        block = row.cells.get(lang)
        if block is None:
            continue
        counterpart = row.cells.get(source) if source != lang else None
        context = counterpart.text if counterpart is not None else None
        for piece in (block, *row.extra.get(lang, [])):
            for what, text, line_of in _block_pieces(piece):
                yield what, text, line_of, context


def _block_pieces(block: Block) -> Iterator[tuple[str, str, LineOf]]:
    kind = block.kind
    if kind in (BlockKind.CODE, BlockKind.HTML):
        return
    if kind in (BlockKind.LIST, BlockKind.QUOTE, BlockKind.ADMONITION):
        if kind is BlockKind.ADMONITION and block.children:
            title = block.text.split("\n", 1)[0]
            if title and title != block.children[0].text.split("\n", 1)[0]:
                yield "admonition title", title, _at(block.line)
        for child in block.children:
            yield from _block_pieces(child)
        return
    if kind is BlockKind.TABLE:
        lines = block.file_lines()
        for index, row in enumerate(block.rows):
            line = lines[index] if index < len(lines) else block.line
            yield "table row", "\t".join(row), _at(line)
        return
    if kind is BlockKind.ITEM:
        own = block.text
        for child in block.children:
            if child.text and own.endswith(child.text):
                own = own[: -len(child.text)].rstrip("\n")
        yield "list item", own, _in(block)  # its own text begins its text
        for child in block.children:
            yield from _block_pieces(child)
        return
    yield kind.value, block.text, _in(block)


def _han_characters(article: AlignedArticle, lang: str) -> set[str]:
    """The Han characters of every text of a version: its headings' titles and its blocks'
    texts, code and HTML too.  A container's text holds its children's and a table's its
    rows (:class:`~parallelcheck.model.document.Block`), so these are all the characters of
    the pieces :func:`_pieces` cuts, and more: one search over the version tells that none of
    them is of the other script (as in most versions) before any piece is cut."""
    texts = []
    for section in article.sections:
        heading = section.cells.get(lang)
        if heading is None:
            continue
        texts.append(heading.title)
        for row in section.rows:
            block = row.cells.get(lang)
            if block is not None:
                texts.append(block.text)
                texts.extend(extra.text for extra in row.extra.get(lang, ()))
    return set(_HAN.findall("\n".join(texts)))


def _in(block: Block) -> LineOf:
    """The line of a character of the block's text (worked out only when asked: most pieces
    give no finding)."""
    return lambda offset: line_in(block, offset)


def _at(line: int) -> LineOf:
    """Every character on one line."""
    return lambda _offset: line


def _load_conversions(langs: Sequence[str], options: Mapping[str, Any]) -> None:
    """Before a run forks its workers: work out the characters of the other script for the
    Chinese versions among *langs* unless they are kept (:class:`OtherScript`), and load
    the OpenCC conversions their vocabulary check uses on every text."""
    for lang in langs:
        settings = regional_settings(lang, options["languages"])
        if settings is None:
            continue
        configs: set[str] = set()
        if settings.script:
            shared_other_script(settings.traditional).changed()
        if settings.vocabulary:
            configs.update(_vocabulary_configs(settings))
            if not settings.traditional:
                configs.add("s2tw")  # Simplified text is compared in Traditional form
        for config in sorted(configs):
            _converter(config)


@rule(
    "regional-variant",
    severity="warning",
    tags=("language",),
    options={
        "languages": Option(
            {},
            "per Chinese language tag: true/false, or {script, vocabulary, allow}",
            read_languages,
        )
    },
    prepare=_load_conversions,
)
def regional_variant(ctx: RuleContext) -> Iterator[Finding]:
    """Simplified characters in a Traditional-Chinese text (and the reverse), or another
    region's vocabulary where the tag names a region.

    A Chinese version is written partly in the other script, or with another region's
    vocabulary.

    * **Script** (an **error**: wrong characters every reader of the version sees) —
      Simplified-only characters in a Traditional version (``zh-Hant``, ``zh-TW``,
      ``zh-HK``, ``zh-MO``) or Traditional-only characters in a Simplified one (``zh``,
      ``zh-Hans``, ``zh-CN``, ``zh-SG``): a character counts when OpenCC changes it into the
      other script under every regional standard (``s2t``, ``s2tw``, ``s2hk`` or ``t2s``,
      ``tw2s``, ``hk2s``), alone and in its context — characters written alike in both
      scripts (台, 了, 系) are never reported.  On by default for every Chinese tag.  A plain
      ``zh`` version (no script, no region in its tag) that is mostly written in Traditional
      characters is taken to be Traditional by choice: nothing is reported for it.
    * **Vocabulary** (a **warning**: a regional usage) — terms of another region: in a Taiwan
      (or Hong Kong) text, mainland terms that OpenCC's phrase conversion (``s2twp`` /
      ``s2hkp``) replaces — 硬件 → 硬體, 兼容 → 相容, 軟件 → 軟體, 默認 → 預設; in a
      mainland text, Taiwan terms ``tw2sp`` replaces (軟體 → 软件).  Terms in common use in
      both regions with a meaning of their own (文件, 項目, 參數, 用戶 … see
      ``ALLOWED_TERMS``) are not reported.  Terms that are the other region's word in one
      sense only (``CONTEXT_TERMS``: 指标 is the mainland word for "metric" and Taiwan's for
      "pointer"; 局部 is Taiwan's "partial" and the mainland's "local"; 资料, 设备, 导入,
      运行, 全局, 分区, 即时, 储存) are reported only where the aligned block of the source
      says that sense ("pointer", "local" …; never when the version has no aligned source
      block).  On by default only for a tag naming a region (``zh-TW``, ``zh-HK``,
      ``zh-CN`` …): a ``zh-Hant`` or ``zh-Hans`` text may follow either region's usage.

    Configure the checks per language in ``parallelcheck.yaml``::

        regional:
          zh-Hant: {script: true, vocabulary: true, allow: [質量]}
          zh: {script: false}

    A tag without a region follows Taiwan usage when Traditional, mainland when Simplified.
    A severity configured for the rule applies to both kinds of finding.
    """
    article = ctx.article
    configured = ctx.options["languages"]
    for lang in article.langs:
        settings = regional_settings(lang, configured)
        if settings is None or not (settings.script or settings.vocabulary):
            continue
        other = shared_other_script(settings.traditional)
        if not settings.vocabulary and not other.among(_han_characters(article, lang)):
            continue  # not one character of the other script in the whole version
        chinese = [
            (section, what, text, first, context)
            for section in article.sections
            for what, text, first, context in _pieces(section, lang, article.source)
            if text and _HAN.search(text)
        ]
        # The version's characters of the other script, at once; a piece holds one of them
        # only if it holds one of the version's (most versions have none).
        suspects = (
            other.among(set(_HAN.findall("".join(piece[2] for piece in chinese))))
            if settings.script
            else set()
        )
        script_found: list[Finding] = []
        vocabulary_found: list[Finding] = []
        for section, what, text, first, context in chinese:
            if suspects and not suspects.isdisjoint(text):
                chars = wrong_script(text, settings.traditional, other)
                if chars:
                    script_found.append(
                        _script_finding(
                            ctx, section, lang, settings, what, text, first(chars[0][0]), chars
                        )
                    )
            if settings.vocabulary:
                terms = [
                    found
                    for found in other_region_terms(text, settings)
                    if in_context(found[1], settings.traditional, context)
                ]
                if terms:
                    vocabulary_found.append(
                        _vocabulary_finding(
                            ctx, section, lang, settings, what, text, first(terms[0][0]), terms
                        )
                    )
        if not _written_in_other_script(lang, len(script_found), len(chinese)):
            yield from script_found
        yield from vocabulary_found


def _written_in_other_script(lang: str, flagged: int, pieces: int) -> bool:
    """Whether a version whose tag names neither script nor region (``zh``) is written in the
    script the rule does not assume for it: most of its pieces of text are flagged (a ``zh``
    site in Traditional characters).  Its tag says nothing against it: nothing is reported."""
    parts = (canonical_tag(lang) or lang).split("-")[1:]
    return not parts and flagged * 2 > pieces


def _script_finding(ctx: RuleContext, section, lang, settings, what, text, line, chars) -> Finding:
    unique: dict[str, str] = {}
    for _, ch, right in chars:
        unique.setdefault(ch, right)
    wrong, right = (
        ("Simplified", "Traditional") if settings.traditional else ("Traditional", "Simplified")
    )
    listed = ", ".join(f"{ch} ({unique[ch]})" for ch in unique)
    message = (
        f"{what} “{excerpt(text)}” in {lang} has {wrong} characters where {right} ones are "
        f"expected: {listed}"
    )
    evidence = {"check": "script", "characters": [[ch, r] for ch, r in unique.items()]}
    return ctx.finding(section, [lang], [], {lang: line}, message, evidence, severity="error")


def _vocabulary_finding(
    ctx: RuleContext, section, lang, settings, what, text, line, terms
) -> Finding:
    unique: dict[str, str] = {}
    for _, term, right in terms:
        unique.setdefault(term, right)
    region = REGION_NAMES.get(settings.region, settings.region)
    other = "Taiwan" if not settings.traditional else "mainland"
    if settings.traditional and settings.region == "HK":
        other = "mainland"
    listed = ", ".join(f"{term} ({region}: {unique[term]})" for term in unique)
    message = f"{what} “{excerpt(text)}” in {lang} uses {other} terms: {listed}"
    evidence = {"check": "vocabulary", "terms": [[t, r] for t, r in unique.items()]}
    return ctx.finding(section, [lang], [], {lang: line}, message, evidence)
