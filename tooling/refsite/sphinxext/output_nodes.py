"""The docutils nodes that the snippet blocks (:mod:`verified_snippets`) and the multi-node
records (:mod:`cluster_record`) are built of: tab captions, code blocks, and the ranks' outputs
as tabs, or side by side where they are short (:func:`rank_columns.side_by_side`)."""

from __future__ import annotations

from docutils import nodes

from refsite.sphinxext.rank_columns import side_by_side


def tab_label(text: str) -> nodes.paragraph:
    """The caption of a tab panel; the site's script turns these into tab buttons."""
    return nodes.paragraph(text, text, classes=["vs-tab-label"])


def code_block(text: str, language: str, classes: list[str]) -> nodes.literal_block:
    block = nodes.literal_block(text, text, classes=classes)
    block["language"] = language
    return block


def rank_tabs(outputs: list[tuple[str, str]]) -> nodes.container:
    """One tab (or column) per rank: ``outputs`` holds each rank's caption and what it printed."""
    classes = ["vs-tabs", "vs-ranks"]
    if side_by_side([text for _, text in outputs]):
        classes += ["vs-ranks-columns", f"vs-ranks-{len(outputs)}"]
    ranks = nodes.container(classes=classes)
    for caption, text in outputs:
        pane = nodes.container(classes=["vs-tab-panel", "vs-rank"])
        pane += tab_label(caption)
        pane += code_block(text, "text", ["vs-output"])
        ranks += pane
    return ranks
