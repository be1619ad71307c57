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

from refsite.sphinxext import compat_notes
from refsite.snippets import localized
from refsite.sphinxext.output_nodes import code_block, rank_tabs, tab_label
from refsite import snippets
from refsite.snippets import Record, Spec, SpecError, Variant
from refsite import __version__

logger = logging.getLogger(__name__)

#: Static files (tabs script and styles) added to every HTML page.
STATIC_DIR = Path(__file__).with_name("static")
#: Attribute of a ``{snippet}`` block naming its snippet (the API objects anchor there).
SNIPPET_ATTRIBUTE = "vs_snippet"
#: ``copybutton_selector`` that gives copy buttons to sources and commands, not to outputs.
COPYBUTTON_SELECTOR = "div.vs-source div.highlight pre, div.vs-command div.highlight pre"


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


@dataclasses.dataclass(frozen=True)
class Strings:
    """The words a snippet block shows, in one language."""

    source: str
    download: str
    rank: str
    provenance: str
    provenance_single: str
    gpu: str
    gpu_unnamed: str
    not_captured: tuple[str, str]
    unavailable: str


#: UI strings by language code; :func:`strings_for` picks one from ``language``.
STRINGS: dict[str, Strings] = {
    "en": Strings(
        source="Source",
        download="Download {name}",
        rank="rank {rank}",
        provenance=("Recorded with torch {torch} · backend {backend} · device {device} · "
                    "world size {world_size}"),
        provenance_single="Recorded with torch {torch} · device {device} · single process",
        gpu="on {count}× {model}, driver {driver}, CUDA {cuda}, NCCL {nccl}",
        gpu_unnamed="GPU not named (recorded before records named their GPU)",
        not_captured=("needs 1 GPU; not captured yet", "needs {gpus} GPUs; not captured yet"),
        unavailable="No verified output to show (the build reported why).",
    ),
    "zh": Strings(
        source="源代码",
        download="下载 {name}",
        rank="rank {rank}",
        provenance="录制环境：torch {torch} · 后端 {backend} · 设备 {device} · world size {world_size}",
        provenance_single="录制环境：torch {torch} · 设备 {device} · 单进程",
        gpu="{count}× {model}，驱动 {driver}，CUDA {cuda}，NCCL {nccl}",
        gpu_unnamed="未记录 GPU 型号（录制时输出文件尚不记录 GPU）",
        not_captured=("需要 1 块 GPU，尚未录制输出", "需要 {gpus} 块 GPU，尚未录制输出"),
        unavailable="暂无经过验证的输出（原因见构建日志）。",
    ),
}


def strings_for(language: str | None) -> Strings:
    """UI strings for a Sphinx ``language`` such as ``en`` or ``zh_CN`` (English otherwise)."""
    return STRINGS.get((language or "en").split("_")[0].split("-")[0], STRINGS["en"])


class SnippetDirective(SphinxDirective):
    """``{snippet} PATH``: a snippet, its commands and the output each variant recorded."""

    required_arguments = 1
    has_content = False

    def run(self) -> list[nodes.Node]:
        options = Options.from_config(self.config)
        self.strings = strings_for(self.config.language)
        root = Path(options.verified_snippets_root)
        rel = self.arguments[0]
        path = (root / rel).resolve()
        if not path.is_file():
            self._warn(
                f"snippet {rel!r} not found in {root}; fix: correct the path (it is relative to "
                f"verified_snippets_root) or add the snippet",
                "missing",
            )
            return []
        self.env.note_dependency(str(path))
        try:
            spec = snippets.read_spec(path)
        except SpecError as exc:
            self._warn(f"snippet {rel!r} has an invalid header: {exc}; fix: correct the "
                       f"module docstring of {path.name}", "header")
            return []
        block = nodes.container(classes=["vs-snippet"])
        block[SNIPPET_ATTRIBUTE] = rel
        block += self._source(spec)
        tabs = nodes.container(classes=["vs-tabs", "vs-variants"])
        shown: list[Record] = []
        for variant in spec.variants:
            tabs += self._variant(spec, variant, options, shown)
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
        shown, code = localized.for_page(
            self.env, Path(self.config.verified_snippets_root), spec.path,
            self.config.language, self._warn)
        doc_dir = Path(self.env.doc2path(self.env.docname)).parent
        target = Path(os.path.relpath(shown, doc_dir)).as_posix()
        text = self.strings.download.format(name=spec.path.name)
        link = addnodes.download_reference("", "", reftarget=target, refdoc=self.env.docname,
                                           refexplicit=True, reftype="download")
        link += nodes.literal(text, text, classes=["download"])
        caption = nodes.paragraph("", "", classes=["vs-caption"])
        caption += nodes.strong(self.strings.source, self.strings.source)
        caption += nodes.Text(" · ")
        caption += link
        source += caption
        source += code_block(code, "python", [])
        return source

    def _variant(self, spec: Spec, variant: Variant, options: Options, shown: list[Record]) -> nodes.container:
        """One variant's tab: its command, provenance, output (or why there is none) and, for a
        CPU variant, the torch releases it runs on; ``shown`` collects the records shown."""
        panel = nodes.container(classes=["vs-tab-panel", "vs-variant"])
        panel += tab_label(variant.name)
        command = nodes.container(classes=["vs-command"])
        command += code_block(spec.command(variant), "bash", [])
        panel += command
        record = self._record(spec, variant, options)
        if record is None:
            if variant.device != "cpu" and not spec.record_path(variant).exists():
                singular, plural = self.strings.not_captured
                text = (singular if variant.gpus == 1 else plural).format(gpus=variant.gpus)
            else:
                text = self.strings.unavailable
            panel += nodes.paragraph(text, text, classes=["vs-notice"])
            return panel
        shown.append(record)
        panel += self._provenance(record)
        if variant.device == "cpu":
            panel += self._compat(spec, variant, record)
        if len(record.ranks) == 1:
            panel += code_block(record.ranks[0], "text", ["vs-output"])
            return panel
        panel += rank_tabs([(self.strings.rank.format(rank=rank), stdout)
                            for rank, stdout in enumerate(record.ranks)])
        return panel

    def _record(self, spec: Spec, variant: Variant, options: Options) -> Record | None:
        """The variant's record, or ``None`` after warning (or when CUDA was never captured)."""
        path = spec.record_path(variant)
        cuda = variant.device != "cpu"
        self.env.note_dependency(str(path))
        if cuda and not path.exists() and not options.verified_snippets_require_all:
            return None
        try:
            record = snippets.read_record(path)
        except SpecError as exc:
            where = f" on a machine with {variant.gpus} GPU(s)" if cuda else ""
            if cuda and path.exists():
                where += f", or delete {path.name} so the page shows 'not captured yet'"
            self._warn(f"snippet {spec.path.name!r}, variant {variant.id}: {exc}{where}", "record")
            return None
        reason = snippets.stale_reason(spec, record)
        if reason is not None:
            fix = f"run '{snippets.FIX_COMMAND}'"
            if cuda:
                fix = (f"re-run '{snippets.FIX_COMMAND}' on a machine with {variant.gpus} "
                       f"GPU(s), or delete {path.name} so the page shows 'not captured yet'")
            self._warn(f"snippet {spec.path.name!r}, variant {variant.id}: {path.name} is stale "
                       f"({reason}); fix: {fix}", "stale")
            return None
        return record

    def _compat(self, spec: Spec, variant: Variant, record: Record) -> nodes.container:
        """The line that says on which torch releases this variant prints the same."""
        runs = compat_notes.runs_in(Path(self.config.verified_snippets_compat_dir))
        for run in runs:
            self.env.note_dependency(str(run.path))
        found = compat_notes.panel_outcomes(runs, spec, variant, record, Path(self.config.verified_snippets_root))
        return compat_notes.compat_line(found, compat_notes.strings_for(self.config.language))

    def _provenance(self, record: Record) -> nodes.paragraph:
        """Where the output came from: torch version, backend, device, world size, and for a GPU
        variant the GPUs (model, how many, driver, CUDA, NCCL) its record names."""
        form = self.strings.provenance_single
        if record.backend is not None or record.world_size > 1:
            form = self.strings.provenance
        text = form.format(torch=record.torch, backend=record.backend, device=record.device,
                           world_size=record.world_size)
        if record.device != "cpu":
            gpu = record.gpu
            text += " · " + (self.strings.gpu.format(**dataclasses.asdict(gpu)) if gpu else self.strings.gpu_unnamed)
        return nodes.paragraph(text, text, classes=["vs-provenance"])


class SignatureDirective(SphinxDirective):
    """``{signature}``: an API signature, highlighted as Python, with no copy button."""

    has_content = True

    def run(self) -> list[nodes.Node]:
        return [code_block("\n".join(self.content), "python", ["vs-signature"])]


def _resolve_root(app: Sphinx, config: object) -> None:
    """Make ``verified_snippets_root`` absolute (relative to the configuration directory)."""
    config.verified_snippets_root = str(Path(app.confdir, config.verified_snippets_root))


def _add_static_path(app: Sphinx) -> None:
    if str(STATIC_DIR) not in app.config.html_static_path:
        app.config.html_static_path.append(str(STATIC_DIR))


def setup(app: Sphinx) -> dict[str, typing.Any]:
    """Register the directives, the configuration values of :class:`Options` and the assets."""
    hints = typing.get_type_hints(Options)
    for field in dataclasses.fields(Options):
        app.add_config_value(field.name, field.default, "env", types=frozenset({hints[field.name]}))
    app.setup_extension("refsite.sphinxext.compat_notes")  # each CPU panel says which torch releases run it
    app.add_directive("snippet", SnippetDirective)
    app.add_directive("signature", SignatureDirective)
    app.connect("config-inited", _resolve_root)
    app.connect("builder-inited", _add_static_path)
    app.add_css_file("verified_snippets.css")
    app.add_js_file("verified_snippets.js")
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
