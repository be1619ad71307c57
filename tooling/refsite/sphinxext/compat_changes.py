"""``{compat-changes}``: the examples that behave differently between two torch releases the
reader picks (from, to), built from the results ``compat/v1/`` publishes.

The chooser reads the results as ``compat/v1`` publishes them, no other format: the build reads
the same entries (``compat_export.variant_entry``), and the page's script fetches the area files
of ``compat/v1/`` when the reader picks another pair (so the page itself stays small). Each result
on each release is reduced to a code (:func:`code`): ``same``,
``differs``, ``fails: <exception type>``, or none where the release has no result for this
version of the example. A variant *changed* between two releases when both have a code and the
codes differ (:func:`changed`); a variant without a code on either is counted apart, never
guessed. The page gets the list for one pair at build time (the release before the pin to the
pin: the upgrade most readers make next); ``compat_changes.js`` redraws the list from the
fetched entries when another pair is picked, with the same codes and rule.
Reads files only; never imports torch.
"""

from __future__ import annotations

import html
import json
import typing

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util.docutils import SphinxDirective
from sphinx.util.osutil import relative_uri

from refsite import __version__
from refsite.measurements import compat_export, compat_results
from refsite.measurements.compat_matrix import Matrix
from refsite.sphinxext import build_inputs, compat_notes
from refsite.sphinxext.page_language import page_words

#: The script that redraws the list (under the extensions' static folder).
SCRIPT = "compat_changes.js"
#: Metadata key of a page that holds the chooser (it gets the script).
HAS_CHOOSER = "vs_compat_changes"
#: The interface words the chooser and its script use (``between.<name>``).
WORDS = ("between.from", "between.to", "between.example", "between.on", "between.summary",
         "between.same", "between.differs", "between.fails", "between.loading", "between.load_failed")


def code(result: dict) -> str:
    """A variant's result on one release as one comparable code ('' when not measured)."""
    if result["result"] == compat_results.FAILS:
        return f"fails: {result['error_type']}"
    return "" if result["result"] == compat_results.UNMEASURED else result["result"]


def changed(codes: dict[str, str], old: str, new: str) -> bool | None:
    """Whether the variant behaves differently on ``new`` than on ``old``; ``None`` when either
    release has no result for it."""
    if not codes.get(old) or not codes.get(new):
        return None
    return codes[old] != codes[new]


def codes(entry: dict) -> dict[str, str]:
    """Minor release (``2.6``) -> code, for one variant as ``compat/v1`` lists it."""
    return {compat_results.short_release(release): code(result) for release, result in entry["results"].items()}


def rows(matrix: Matrix) -> tuple[list[str], str, list[dict]]:
    """(releases measured, oldest first; the pinned release; one entry per recorded CPU variant,
    exactly as its area file of ``compat/v1`` lists it), the releases as "2.6"."""
    found = [compat_export.variant_entry(matrix, variant.key) for variant in matrix.recorded]
    releases = sorted({r for entry in found for r in codes(entry)}, key=compat_results.release_key)
    return releases, compat_results.short_release(matrix.pinned) if matrix.pinned else "", found


class chooser(nodes.General, nodes.Element):
    """The chooser until its page is written: its data and list, without the links to the
    pages that show each example (:class:`LinkExamples` adds them)."""


class CompatChangesDirective(SphinxDirective):
    """``{compat-changes}``: the chooser, its list for the default pair, and its data."""

    def run(self) -> list[nodes.Node]:
        build_inputs.note_tree(self.env, "snippets", "measurements")  # new ones too
        build_inputs.note_links(self.env)  # written again when an example moves to another page
        words = page_words(self)
        releases, pinned, found = rows(compat_notes.matrix_of(self.env))
        if len(releases) < 2:
            return [nodes.paragraph("", words["between.none_measured"])]
        self.env.metadata[self.env.docname][HAS_CHOOSER] = True
        old = releases[-2] if releases[-1] == pinned else releases[-1]
        # compat/v1/ sits at the root of each language's output (refsite.sphinxext.compat_data)
        up = "../" * self.env.docname.count("/")
        data = {"releases": releases, "pinned": pinned, "compat": f"{up}{compat_export.FOLDER.as_posix()}/",
                "urls": {}, "words": {key.removeprefix("between."): words[key] for key in WORDS}}
        return [chooser("", data=data, found=found, old=old, new=pinned)]


class LinkExamples(SphinxPostTransform):
    """When the chooser's page is written: each example links to the first page that embeds
    it (what every page noted while it was read: :func:`build_inputs.embedding_pages`)."""

    default_priority = 100

    def run(self, **kwargs: typing.Any) -> None:
        pages = build_inputs.embedding_pages(self.env)
        for node in list(self.document.findall(chooser)):
            data = dict(node["data"])
            data["urls"] = {row["snippet"]: self._uri(pages.get(row["snippet"])) for row in node["found"]}
            node.replace_self(nodes.raw("", _widget(data, node["found"], node["old"], node["new"]), format="html"))

    def _uri(self, page: str | None) -> str:
        suffix = self.config.html_link_suffix or ".html"  # HTML only, as the whole site
        return relative_uri(self.env.docname + suffix, page + suffix) if page else ""


def _select(name: str, label: str, releases: list[str], chosen: str) -> str:
    options = "".join(f'<option value="{r}"{" selected" if r == chosen else ""}>{r}</option>' for r in releases)
    return f'<label>{html.escape(label)} <select name="{name}">{options}</select></label>'


def _widget(data: dict, found: list[dict], old: str, new: str) -> str:
    """The chooser's HTML: two selects, the summary, the list for (old, new), and what its
    script needs to draw another pair from ``compat/v1`` (where it is, the links, the words)."""
    words = data["words"]
    verdicts = [(row, changed(codes(row), old, new)) for row in found]
    listed = [row for row, verdict in verdicts if verdict]
    unknown = sum(verdict is None for _row, verdict in verdicts)
    summary = words["summary"].format(changed=len(listed), total=len(found) - unknown,
                                      old=old, new=new, unknown=unknown)
    body = "".join(_row(row, data["urls"].get(row["snippet"], ""), old, new, words) for row in listed)
    script = json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")
    return (f'<div class="vs-compat-changes">'
            f'<p class="vs-compat-changes-pick">{_select("old", words["from"], data["releases"], old)} '
            f'{_select("new", words["to"], data["releases"], new)}</p>'
            f'<p class="vs-compat-changes-summary">{html.escape(summary)}</p>'
            f'<div class="vs-compat-changes-scroll"><table class="vs-compat-changes-list"><thead><tr><th>{html.escape(words["example"])}</th>'
            f'<th class="vs-old">{html.escape(words["on"].format(release=old))}</th>'
            f'<th class="vs-new">{html.escape(words["on"].format(release=new))}</th></tr></thead>'
            f'<tbody>{body}</tbody></table></div>'
            f'<script type="application/json" class="vs-compat-changes-data">{script}</script></div>')


def shown_code(value: str, words: dict) -> str:
    """A code as the list shows it, in the page's language."""
    kind, _sep, error_type = value.partition(": ")
    return words[kind].format(error_type=error_type)


def _row(row: dict, url: str, old: str, new: str, words: dict) -> str:
    name = html.escape(f'{row["snippet"]} [{row["variant"]}]')
    link = f'<a href="{html.escape(url)}">{name}</a>' if url else name
    found = codes(row)
    return (f'<tr><td>{link}</td><td>{html.escape(shown_code(found[old], words))}</td>'
            f'<td>{html.escape(shown_code(found[new], words))}</td></tr>')


def _page_script(app: Sphinx, pagename: str, templatename: str, context: dict, doctree: object) -> None:
    if app.env.metadata.get(pagename, {}).get(HAS_CHOOSER):
        app.add_js_file(SCRIPT)


def setup(app: Sphinx) -> dict[str, typing.Any]:
    """The directive, and its script on the pages that use it."""
    app.setup_extension("refsite.sphinxext.build_inputs")
    app.add_node(chooser)
    app.add_directive("compat-changes", CompatChangesDirective)
    app.add_post_transform(LinkExamples)
    app.connect("html-page-context", _page_script)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
