"""Small preview files for search results: a page's prose, without its code, outputs or tables
of results, where the search page fetches a result's preview from.

Sphinx's search shows under each result a few lines of the page around the query's first word
(``Search.makeSearchSummary`` in searchtools.js), cut from the page's HTML, so each preview cost a
whole page (100-400 KB here, for its sources and recorded outputs). For each page this writes
``_previews/<page>.html``: its sections (with the page's ids, so a result that links to a
section previews that section) holding their titles, paragraphs, lists and table cells as plain
text, and nothing else. The search page (:mod:`refsite.sphinxext.search_ranking`) fetches that
file instead of the page and makes the same summary of it.
"""

from __future__ import annotations

import html
import typing
from pathlib import Path

from docutils import nodes
from sphinx.application import Sphinx

from refsite import __version__

#: Where the preview files go, under each language's output folder.
FOLDER = "_previews"
#: Nodes whose text a preview keeps, each as one paragraph.
TEXT_NODES = (nodes.paragraph, nodes.term, nodes.rubric)
#: The prose a preview keeps of one section, and of the whole page, in characters (every title is
#: kept): a summary is cut around a query's first word in a section, most often near its start,
#: and the A-Z index or the coverage table would otherwise make a preview of 300 KB.
SECTION_CHARS = 1200
PAGE_CHARS = 8000


def _shown(node: nodes.Node) -> bool:
    """Whether ``node`` is prose a reader reads: not inside a snippet's block, an output, a
    literal block, a raw block, the page stamp or anything marked out of search."""
    for parent in [node, *_ancestors(node)]:
        if isinstance(parent, (nodes.literal_block, nodes.raw, nodes.container, nodes.comment)):
            return False
        if isinstance(parent, nodes.Element) and ({"no-search", "vs-page-stamp"} & set(parent["classes"])):
            return False
    return True


def _is_text(node: nodes.Node) -> bool:
    return isinstance(node, TEXT_NODES)


def _ancestors(node: nodes.Node) -> typing.Iterator[nodes.Node]:
    while node.parent is not None:
        node = node.parent
        yield node


def _prose(node: nodes.Node, budget: list[int], room: int) -> tuple[list[str], int]:
    """The prose paragraphs of ``node`` as preview HTML, while ``room`` characters and the page's
    ``budget`` last (both used up by what is kept), and the room left."""
    parts = []
    for text_node in node.findall(_is_text):
        if room <= 0 or budget[0] <= 0:
            break
        if _shown(text_node) and not isinstance(text_node.parent, TEXT_NODES):
            text = text_node.astext()
            room -= len(text)
            budget[0] -= len(text)
            parts.append(f"<p>{html.escape(text)}</p>\n")
    return parts, room


def section_html(section: nodes.Element, budget: list[int]) -> str:
    """One section as preview HTML: its ids, title, prose (at most :data:`SECTION_CHARS`, and
    what is left of the page's ``budget``), then its subsections."""
    ids = section.get("ids", [])
    opening = f'<section id="{html.escape(ids[0])}">' if ids else "<section>"
    parts = [opening, *(f'<span id="{html.escape(extra)}"></span>' for extra in ids[1:])]
    room = SECTION_CHARS
    for child in section.children:
        if isinstance(child, nodes.section):
            parts.append(section_html(child, budget))
        elif isinstance(child, nodes.title):
            parts.append(f"<h2>{html.escape(child.astext())}</h2>\n")
        else:
            prose, room = _prose(child, budget, room)
            parts += prose
    return "".join(parts) + "</section>\n"


def preview_html(doctree: nodes.document) -> str:
    """The whole preview file of one page (at most :data:`PAGE_CHARS` of prose)."""
    budget = [PAGE_CHARS]
    body = "".join(section_html(s, budget) if isinstance(s, nodes.section) else "".join(_prose(s, budget, SECTION_CHARS)[0])
                   for s in doctree.children)
    return f'<!DOCTYPE html><meta charset="utf-8"><div role="main">{body}</div>\n'


def write_preview(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """``doctree-resolved``: write the page's preview beside the built site."""
    if app.builder.format != "html":
        return
    path = Path(app.outdir, FOLDER, docname + app.builder.out_suffix)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(preview_html(doctree), encoding="utf-8")


def setup(app: Sphinx) -> dict[str, typing.Any]:
    app.connect("doctree-resolved", write_preview)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
