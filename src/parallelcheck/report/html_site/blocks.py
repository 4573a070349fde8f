"""One block of a version as HTML: tables as tables, code as ``<pre>``, lists as lists."""

from __future__ import annotations

from parallelcheck.model.document import Block, BlockKind
from parallelcheck.report.html_site.common import esc


def render_block(block: Block) -> str:
    """One block's content as HTML, every piece of text escaped."""
    kind = block.kind
    if kind is BlockKind.TABLE:
        return _render_table(block)
    if kind is BlockKind.CODE:
        label = f'<div class="pc-info">{esc(block.info)}</div>' if block.info else ""
        return f'{label}<pre class="pc-code"><code>{esc(block.text)}</code></pre>'
    if kind is BlockKind.LIST:
        tag = "ol" if block.ordered else "ul"
        items = "".join(f"<li>{esc(item.text)}</li>" for item in block.children)
        return f'<{tag} class="pc-list">{items}</{tag}>'
    if kind in (BlockKind.QUOTE, BlockKind.ADMONITION):
        inner = "".join(render_block(child) for child in block.children)
        if not inner:
            inner = f'<p class="pc-p">{esc(block.text)}</p>'
        if kind is BlockKind.ADMONITION:
            title = f'<div class="pc-info">{esc(block.info)}</div>' if block.info else ""
            return f'<div class="pc-admonition">{title}{inner}</div>'
        return f'<blockquote class="pc-quote">{inner}</blockquote>'
    if not block.text.strip() and block.all_links():
        parts = []
        for link in block.all_links():
            noun = "image" if link.is_image else "link"
            parts.append(f'<span class="pc-link">[{noun}: {esc(link.target)}]</span>')
        return f'<p class="pc-p">{" ".join(parts)}</p>'
    css = "pc-p pc-htmlblock" if kind is BlockKind.HTML else "pc-p"
    return f'<p class="{css}">{esc(block.text)}</p>'


def _render_table(block: Block) -> str:
    rows = []
    for number, row in enumerate(block.rows):
        tag = "th" if block.header and number == 0 else "td"
        rows.append("<tr>" + "".join(f"<{tag}>{esc(cell)}</{tag}>" for cell in row) + "</tr>")
    return f'<div class="pc-tablewrap"><table class="pc-inner">{"".join(rows)}</table></div>'


def kind_label(blocks: list[Block]) -> str:
    return " + ".join(dict.fromkeys(b.kind.value for b in blocks))
