"""Show a snippet with the output it really printed, per variant and per rank.

Two directives, for MyST Markdown (shown) or reStructuredText::

    ```{snippet} distributed/all_reduce.py
    ```

    ```{signature}
    torch.arange(start=0, end, step=1, *, dtype=None) -> Tensor
    ```

``snippet`` embeds the file (path relative to :attr:`Options.verified_snippets_root`): its
source, a download link, and per variant the command that runs it, a provenance line and what
each rank printed, read from the expected-output files the runner wrote beside it (see
:mod:`refsite.snippets`). Short outputs of 2-4 ranks show side by side (``rank_columns.side_by_side``
decides), longer ones one tab per rank. ``signature`` shows an API signature as highlighted Python, without a copy
button.

Problems are logged as warnings at the directive's page and line, each with its fix, so
``sphinx-build -W --keep-going`` lists them all and fails. The module reads files only; it
never imports torch.
"""

from __future__ import annotations

import dataclasses
import os
import typing
from pathlib import Path

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective
from sphinx.util.osutil import relative_uri

from refsite import __version__, snippets
from refsite.snippets import Record, Resolved, Spec, Variant, references
from refsite.sphinxext import add_static_path, build_inputs, compat_notes, localized_source
from refsite.sphinxext.output_nodes import code_block, rank_tabs, tab_label
from refsite.sphinxext.page_language import page_words

logger = logging.getLogger(__name__)

#: Attribute of a ``{snippet}`` block naming its snippet (the API objects anchor there).
SNIPPET_ATTRIBUTE = "vs_snippet"
#: The warning subtype (``suppress_warnings``) of each kind of reference problem.
_SUBTYPES = {"syntax": "missing", "no-snippet": "missing", "header": "header", "no-variant": "missing",
             "no-record": "record", "unreadable": "record", "stale": "stale"}
#: ``copybutton_selector`` that gives copy buttons to sources and commands, not to outputs.
COPYBUTTON_SELECTOR = "div.vs-source div.highlight pre, div.vs-command div.highlight pre"


#: The page that says how to capture GPU variants, and its section on the commands.
GPU_RUNNERS_PAGE, GPU_RUNNERS_ANCHOR = "distributed/gpu_runners", "gpu-runners-commands"


@dataclasses.dataclass(frozen=True)
class Options:
    """Configuration values read from ``conf.py`` (shown with their defaults)."""

    verified_snippets_root: str = "snippets"
    """Directory holding the snippets: absolute, or relative to the configuration directory."""

    verified_snippets_require_all: bool = False
    """Also fail on CUDA variants without an expected output, instead of showing
    "not captured yet" (for a build on a machine where every variant was captured)."""

    @classmethod
    def from_config(cls, config: object) -> Options:
        return cls(**{f.name: getattr(config, f.name) for f in dataclasses.fields(cls)})


class SnippetDirective(SphinxDirective):
    """``{snippet} PATH``: a snippet, its commands and the output each variant recorded."""

    required_arguments = 1
    has_content = False

    def run(self) -> list[nodes.Node]:
        options = Options.from_config(self.config)
        self.words = page_words(self)
        rel = self.arguments[0]
        try:
            found = references.resolve_all(rel, Path(options.verified_snippets_root))
        except snippets.ReferenceProblem as exc:
            if exc.path.is_file():  # an invalid header: read the page again once it is fixed
                self.env.note_dependency(str(exc.path))
            self._warn(str(exc), _SUBTYPES[exc.kind])
            return []
        spec = found[0].spec
        self.env.note_dependency(str(spec.path))
        build_inputs.note_embed(self.env, rel)
        # its compat lines and the page stamp read every release's results, a new release's too
        build_inputs.note_tree(self.env, "measurements")
        block = nodes.container(classes=["vs-snippet"])
        block[SNIPPET_ATTRIBUTE] = rel
        block += self._source(spec)
        tabs = nodes.container(classes=["vs-tabs", "vs-variants"])
        shown: list[Record] = []
        for ref in found:
            tabs += self._variant(ref, options, shown)
        block += tabs
        block[compat_notes.RECORDS_ATTRIBUTE] = [compat_notes.record_facts(r) for r in shown]
        return [block]

    def _warn(self, message: str, subtype: str) -> None:
        logger.warning(message, location=(self.env.docname, self.lineno),
                       type="verified_snippets", subtype=subtype)

    def _source(self, spec: Spec) -> nodes.container:
        """The snippet's code and a link that downloads the file."""
        source = nodes.container(classes=["vs-source"])
        # zh pages: the same code with Chinese docstring and comments (refsite.snippets.localized).
        shown, code = localized_source.for_page(
            self.env, Path(self.config.verified_snippets_root), spec.path, self._warn)
        doc_dir = Path(self.env.doc2path(self.env.docname)).parent
        target = Path(os.path.relpath(shown, doc_dir)).as_posix()
        text = self.words["snippet.download"].format(name=spec.path.name)
        link = addnodes.download_reference("", "", reftarget=target, refdoc=self.env.docname,
                                           refexplicit=True, reftype="download")
        link += nodes.literal(text, text, classes=["download"])
        caption = nodes.paragraph("", "", classes=["vs-caption"])
        caption += nodes.strong(self.words["snippet.source"], self.words["snippet.source"])
        caption += nodes.Text(" · ")
        caption += link
        source += caption
        source += code_block(code, "python", [])
        return source

    def _variant(self, ref: Resolved, options: Options, shown: list[Record]) -> nodes.container:
        """One variant's tab: its command, provenance, output (or why there is none) and, for a
        CPU variant, the torch releases it runs on; ``shown`` collects the records shown."""
        spec, variant = ref.spec, ref.variant
        panel = nodes.container(classes=["vs-tab-panel", "vs-variant"])
        panel += tab_label(variant.name)
        command = nodes.container(classes=["vs-command"])
        command += code_block(spec.command(variant), "bash", [])
        panel += command
        record = self._record(ref, options)
        if record is None:
            if variant.device != "cpu" and ref.missing:
                key = "snippet.not_captured_one" if variant.gpus == 1 else "snippet.not_captured_many"
                text = self.words[key].format(gpus=variant.gpus)
                panel += nodes.paragraph(text, text, classes=["vs-notice"])
                panel += self._gpu_note(ref)
                return panel
            text = self.words["snippet.unavailable"]
            panel += nodes.paragraph(text, text, classes=["vs-notice"])
            return panel
        shown.append(record)
        panel += self._provenance(record)
        if variant.device == "cpu":
            panel += self._compat(spec, variant, record)
        if len(record.ranks) == 1:
            panel += code_block(record.ranks[0], "text", ["vs-output"])
            return panel
        panel += rank_tabs([(self.words["output.rank"].format(rank=rank), stdout)
                            for rank, stdout in enumerate(record.ranks)])
        return panel

    def _gpu_note(self, ref: Resolved) -> nodes.paragraph:
        """Beside "not captured yet": whether the output should equal a CPU record (the header's
        ``Output: same on all devices``), and a link to how to capture it (the GPU-runners page)."""
        cpu = ref.spec.reference(ref.variant)
        text = (self.words["snippet.gpu_same"].format(cpu=cpu.id) if cpu is not None
                else self.words["snippet.gpu_may_differ"])
        note = nodes.paragraph("", text + " ", classes=["vs-gpu-note"])
        if GPU_RUNNERS_PAGE in self.env.found_docs:
            suffix = self.config.html_link_suffix or ".html"  # HTML only, as the whole site
            uri = relative_uri(self.env.docname + suffix, GPU_RUNNERS_PAGE + suffix)
            label = self.words["snippet.gpu_capture"]
            note += nodes.reference(label, label, refuri=f"{uri}#{GPU_RUNNERS_ANCHOR}", internal=True)
        return note

    def _record(self, ref: Resolved, options: Options) -> Record | None:
        """The variant's current record, or ``None`` after warning (or when a GPU variant was
        never captured: the page says "not captured yet")."""
        if ref.record_path.exists():
            self.env.note_dependency(str(ref.record_path))
        else:  # a record written later is a new file (noting a missing file reads the page every build)
            build_inputs.note_tree(self.env, "snippets")
        cuda = ref.variant.device != "cpu"
        if ref.problem is None or (cuda and ref.missing and not options.verified_snippets_require_all):
            return ref.record
        message = f"snippet {ref.spec.path.name!r}, variant {ref.variant.id}: {ref.problem}"
        if cuda and ref.record_path.exists():
            message += f", or delete {ref.record_path.name} so the page shows 'not captured yet'"
        self._warn(message, _SUBTYPES[ref.problem.kind])
        return None

    def _compat(self, spec: Spec, variant: Variant, record: Record) -> nodes.container:
        """The line that says on which torch releases this variant prints the same."""
        matrix = compat_notes.matrix_of(self.env)
        found = compat_notes.panel_outcomes(matrix, spec, variant, Path(self.config.verified_snippets_root))
        return compat_notes.compat_line(found, self.words)

    def _provenance(self, record: Record) -> nodes.paragraph:
        """Where the output came from: torch version, backend, device, world size, and for a GPU
        variant the GPUs (model, how many, driver, CUDA, NCCL) its record names."""
        form = self.words["snippet.provenance_single"]
        if record.backend is not None or record.world_size > 1:
            form = self.words["snippet.provenance"]
        text = form.format(torch=record.torch, backend=record.backend, device=record.device,
                           world_size=record.world_size)
        if record.device != "cpu":
            gpu = record.gpu
            text += " · " + (self.words["snippet.gpu"].format(**dataclasses.asdict(gpu)) if gpu
                             else self.words["snippet.gpu_unnamed"])
        return nodes.paragraph(text, text, classes=["vs-provenance"])


class SignatureDirective(SphinxDirective):
    """``{signature}``: an API signature, highlighted as Python, with no copy button."""

    has_content = True

    def run(self) -> list[nodes.Node]:
        return [code_block("\n".join(self.content), "python", ["vs-signature"])]


def _resolve_root(app: Sphinx, config: object) -> None:
    """Make ``verified_snippets_root`` absolute (relative to the configuration directory)."""
    config.verified_snippets_root = str(Path(app.confdir, config.verified_snippets_root))


def setup(app: Sphinx) -> dict[str, typing.Any]:
    """Register the directives, the configuration values of :class:`Options` and the assets."""
    hints = typing.get_type_hints(Options)
    for field in dataclasses.fields(Options):
        app.add_config_value(field.name, field.default, "env", types=frozenset({hints[field.name]}))
    app.setup_extension("refsite.sphinxext.compat_notes")  # each CPU panel says which torch releases run it
    app.add_directive("snippet", SnippetDirective)
    app.add_directive("signature", SignatureDirective)
    app.connect("config-inited", _resolve_root)
    app.connect("builder-inited", add_static_path)
    app.add_css_file("verified_snippets.css")
    app.add_js_file("verified_snippets.js")
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
