"""Benchmark: ``parallelcheck glossary lint`` on generated glossaries of 2,500 / 10,000 / 50,000
terms.

Usage: python bench/bench_glossary_lint.py [--counts 2500,10000,50000] [--format yaml|csv]
                                           [--seed N] [--timeout S] [--keep DIR]

Each glossary is generated (see :func:`generate`), written to a temporary folder and linted
through the real command line (``python -m parallelcheck glossary lint FILE``); the wall time
of that process and its processor time (user + system), start-up included, are printed with
the command's last line of output.  Run
on demand; the test suite never times anything this way.

The glossaries look like a technical glossary in en, ja, ko and zh-Hant: a fifth of the terms
are single words, most are compounds of two or three of them (``cache`` → ``KV cache`` →
``KV cache quantization``, concatenated in Japanese and Chinese, spaced in Korean), a few are
product names to keep as is, and some carry a forbidden variant; one English word in twenty
ends in ``y`` (which may be matched as ``-ies``, so lint must look inside words for it).  One
compound in ten is translated by an unrelated word in one language, so its parts nest in some
languages and not in the others: that is what lint's shadowing warning reports.
"""

from __future__ import annotations

import argparse
import csv
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

LANGS = ("en", "ja", "ko", "zh-Hant")
_LATIN_SYLLABLES = [c + v for c in "bdfgklmnprstvz" for v in "aeiou"]
_KANA = [chr(code) for code in range(0x30A2, 0x30F3) if chr(code) not in "ヂヅヮヰヱ"]


def _word(rng: random.Random, lang: str) -> str:
    """A random word of one language's script."""
    if lang == "en":  # one word in twenty ends in y, as English nouns do (policy, key)
        word = "".join(rng.choice(_LATIN_SYLLABLES) for _ in range(rng.randint(2, 4)))
        return word + "y" if rng.random() < 0.05 else word
    if lang == "ja":
        return "".join(rng.choice(_KANA) for _ in range(rng.randint(3, 5)))
    if lang == "ko":
        return "".join(chr(0xAC00 + rng.randrange(11172)) for _ in range(rng.randint(2, 3)))
    return "".join(chr(0x4E00 + rng.randrange(6000)) for _ in range(2))


def _join(parts: list[str], lang: str) -> str:
    """A compound as each language writes it: spaced in English and Korean, run together in
    Japanese and Chinese."""
    return ("" if lang in ("ja", "zh-Hant") else " ").join(parts)


def generate(count: int, seed: int = 17) -> list[dict[str, object]]:
    """``count`` glossary terms (docs/configuration.md mappings), every approved form unique."""
    rng = random.Random(seed)
    used: dict[str, set[str]] = {lang: set() for lang in LANGS}
    keeps: set[str] = set()

    def fresh(lang: str) -> str:
        while True:
            word = _word(rng, lang)
            if word.casefold() not in used[lang]:
                return word

    bases: list[dict[str, str]] = []
    terms: list[dict[str, object]] = []
    while len(terms) < count:
        number = len(terms)
        roll = rng.random()
        if roll < 0.05:
            name = fresh("en").capitalize() + str(rng.randint(1, 99))
            if name.casefold() in keeps or any(name.casefold() in used[lang] for lang in LANGS):
                continue
            keeps.add(name.casefold())
            terms.append({"id": f"keep-{number}", "keep": name})
            continue
        if roll < 0.25 or len(bases) < 10:
            forms = {lang: fresh(lang) for lang in LANGS}
            bases.append(forms)
        else:
            parts = rng.sample(bases, 2 if rng.random() < 0.85 else 3)
            forms = {lang: _join([part[lang] for part in parts], lang) for lang in LANGS}
            if rng.random() < 0.1:
                odd = rng.choice(LANGS)
                forms[odd] = fresh(odd)
        if any(forms[lang].casefold() in used[lang] for lang in LANGS):
            continue
        if forms["en"].casefold() in keeps:
            continue
        term: dict[str, object] = {"id": f"t{number}"}
        for lang in LANGS:
            used[lang].add(forms[lang].casefold())
            term[lang] = forms[lang]
        if rng.random() < 0.05:
            variant = forms["ja"] + "ー"
            if variant.casefold() not in used["ja"]:
                used["ja"].add(variant.casefold())
                term["ja"] = {"term": forms["ja"], "forbidden": [variant]}
        terms.append(term)
    return terms


def write_yaml(terms: list[dict[str, object]], path: Path) -> None:
    """The terms as a docs/configuration.md YAML glossary (written by hand: fast and readable)."""
    lines = ["terms:"]
    for term in terms:
        lines.append(f"  - id: {term['id']}")
        for key, value in term.items():
            if key == "id":
                continue
            if isinstance(value, dict):
                forbidden = value["forbidden"]
                lines.append(f'    {key}: {{term: "{value["term"]}", forbidden: {forbidden}}}')
            else:
                lines.append(f'    {key}: "{value}"')
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def write_csv(terms: list[dict[str, object]], path: Path) -> None:
    """The terms as a CSV glossary (``!`` marks a forbidden form)."""
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["id", "keep", *LANGS])
        for term in terms:
            cells = []
            for lang in LANGS:
                value = term.get(lang, "")
                if isinstance(value, dict):
                    value = "|".join([str(value["term"]), *(f"!{f}" for f in value["forbidden"])])
                cells.append(value)
            writer.writerow([term["id"], term.get("keep", ""), *cells])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--counts", default="2500,10000,50000")
    parser.add_argument("--format", choices=("yaml", "csv"), default="yaml")
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument("--timeout", type=float, default=600.0, help="per lint, in seconds")
    parser.add_argument("--keep", help="write the glossaries to this folder and keep them")
    args = parser.parse_args()

    folder = Path(args.keep or tempfile.mkdtemp(prefix="bench-glossary-lint-"))
    folder.mkdir(parents=True, exist_ok=True)
    for count in (int(c) for c in args.counts.split(",")):
        path = folder / f"glossary-{count}.{args.format}"
        terms = generate(count, args.seed)
        (write_yaml if args.format == "yaml" else write_csv)(terms, path)
        command = [sys.executable, "-m", "parallelcheck", "glossary", "lint", str(path)]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        try:
            proc = subprocess.run(command, capture_output=True, text=True, timeout=args.timeout)
        except subprocess.TimeoutExpired:
            print(f"{count:>7} terms  over {args.timeout:.0f} s (stopped)", flush=True)
            continue
        elapsed = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
        output = (proc.stdout + proc.stderr).strip().splitlines()
        last = output[-1] if output else ""
        size = path.stat().st_size / 1e6
        print(
            f"{count:>7} terms  {size:5.1f} MB  {elapsed:7.2f} s wall  {cpu:7.2f} s CPU  "
            f"exit {proc.returncode}  {last}",
            flush=True,
        )


if __name__ == "__main__":
    main()
