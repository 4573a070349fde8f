"""What every page of the html site shares: escaping, page names, links, the page shell.

**Escaping.**  All text from articles, paths and messages is escaped with
``html.escape(…, quote=True)``; article markup never becomes markup of a page, and article
links are shown as text, never as links.  Before that, control characters, DEL, C1 controls
and bidirectional overrides and isolates are shown as visible escapes (``\\x1b``,
``\\u202e``; see :mod:`parallelcheck.report.inert`), so a side-by-side view cannot be
reordered; line feed and tab are kept, being the layout of the code blocks and paragraphs the
pages show as written.

**Loading nothing.**  Each page carries its CSS and its small script inline, and a
Content-Security-Policy allows exactly those two (by SHA-256 hash) and nothing else
(``default-src 'none'``).  The only links are to the site's own pages, by relative address.

**Page names.**  An article's page is named after its id alone (:func:`page_name`), so the
name is known before any other article is checked, is the same from run to run, and is a safe
file name on every system: a slug of the id's ASCII letters and digits and the first eight
hex digits of the id's SHA-256 (two ids that slug alike still get two names).
"""

from __future__ import annotations

import base64
import hashlib
import html
import re

from parallelcheck.report.inert import inert

_LAYOUT = "\n\t"  # kept by esc(): shown as written by white-space: pre / pre-wrap
_NOT_SLUG = re.compile(r"[^a-z0-9_]+")
#: The longest slug a page name starts with.
SLUG_LENGTH = 48


def esc(value: object) -> str:
    """Text (or a number) as HTML text or attribute value, unsafe characters made visible."""
    return html.escape(inert(str(value), keep=_LAYOUT), quote=True)


def page_name(article_id: str) -> str:
    """The file name of an article's page: ``deployment_docker-1a2b3c4d.html`` (see the
    module's docstring)."""
    slug = _NOT_SLUG.sub("-", article_id.lower()).strip("-")[:SLUG_LENGTH].rstrip("-")
    digest = hashlib.sha256(article_id.encode("utf-8", "surrogatepass")).hexdigest()[:8]
    return f"{slug}-{digest}.html" if slug else f"{digest}.html"


def csp_hash(text: str) -> str:
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return "'sha256-" + base64.b64encode(digest).decode("ascii") + "'"


def policy(style: str, script: str) -> str:
    """The Content-Security-Policy of a page whose only style and script are these."""
    return (
        f"default-src 'none'; style-src {csp_hash(style)}; script-src {csp_hash(script)}; "
        "img-src 'none'; base-uri 'none'; form-action 'none'"
    )


def document(*, title: str, style: str, script: str, body: str, body_class: str) -> str:
    """A whole page: the shell (charset, policy, no referrer), its style, body and script.
    ``title`` and ``body`` are HTML already escaped."""
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{esc(policy(style, script))}">'
        '<meta name="referrer" content="no-referrer">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<meta name="generator" content="parallelcheck">'
        f"<title>{title}</title>"
        f'<style>{style}</style></head><body class="{body_class}">'
        f"{body}<script>{script}</script></body></html>\n"
    )


def severity_counts(counts: dict[str, int]) -> str:
    """``2 error 0 warning 1 info`` as badges."""
    return " ".join(
        f'<span class="pc-count pc-sev-{severity}">{count} {severity}</span>'
        for severity, count in counts.items()
    )
