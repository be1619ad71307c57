"""A page's search preview holds its prose under the page's section ids, and none of its code,
outputs or snippet blocks (``refsite.sphinxext.search_previews``)."""

from __future__ import annotations

from docutils import nodes
from docutils.frontend import get_default_settings
from docutils.parsers.rst import Parser
from docutils.utils import new_document

from refsite.sphinxext.search_previews import preview_html

PAGE = """\
All-reduce
==========

Every rank ends with the sum.

.. code-block:: python

   dist.all_reduce(tensor)  # code is not prose

Pitfalls
--------

A rank that skips it hangs the others.

* a list item counts too

.. container:: vs-snippet

   A snippet block's caption is not prose either.

====  =========
name  meaning
====  =========
sum   the total
====  =========
"""


def test_the_preview_keeps_prose_and_section_ids_and_drops_code() -> None:
    document = new_document("page", get_default_settings(Parser))
    Parser().parse(PAGE, document)
    preview = preview_html(document)
    assert preview.startswith('<!DOCTYPE html><meta charset="utf-8"><div role="main"><section id="all-reduce">')
    # one element a line: a summary is cut from the text, where a title must not run into its text
    assert "<h2>All-reduce</h2>\n<p>Every rank ends with the sum.</p>\n" in preview
    assert '<section id="pitfalls"><h2>Pitfalls</h2>\n<p>A rank that skips it hangs the others.</p>' in preview
    assert "<p>a list item counts too</p>" in preview and "<p>the total</p>" in preview
    assert "all_reduce(tensor)" not in preview and "caption" not in preview
    assert len(preview) < len(PAGE)
    # Planted: a snippet's output block is prose-free too, whatever its class
    document.children[0] += nodes.container("", nodes.paragraph(text="rank 0: tensor([3.])"), classes=["vs-rank"])
    assert "tensor([3.])" not in preview_html(document)


def test_a_long_page_keeps_every_title_and_a_bounded_prose() -> None:
    from refsite.sphinxext import search_previews

    long_page = "".join(f"Part {n}\n{'-' * (5 + len(str(n)))}\n\n{'word ' * 300}\n\n{'more ' * 300}\n\n"
                        for n in range(40))
    document = new_document("page", get_default_settings(Parser))
    Parser().parse("Index\n=====\n\n" + long_page, document)
    preview = preview_html(document)
    assert all(f"<h2>Part {n}</h2>" in preview for n in range(40))  # every anchor can be previewed
    prose = len(preview) - sum(len(f"<h2>Part {n}</h2>") for n in range(40))
    assert prose < search_previews.PAGE_CHARS + 40 * 120, len(preview)
    assert "more" not in preview.split("<h2>Part 0</h2>")[1].split("<h2>Part 1</h2>")[0]  # the section's cap
