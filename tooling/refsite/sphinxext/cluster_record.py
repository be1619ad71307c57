"""Show a multi-node scenario recorded on a virtual cluster, per host and per rank.

For MyST Markdown (shown) or reStructuredText::

    ```{cluster-record} hostname
    :run: shared_hostname
    ```

The argument names a record, ``docs/measurements/cluster/<scenario>.json`` (written by
``python -m refsite.commands.cluster.cli``, see :mod:`refsite.measurements.cluster_records`);
``:run:`` picks one of its runs (default: all, one tab each). Each host gets a tab with the
command it ran, how it ended, what ``torchrun`` (or Slurm) printed itself and what each rank
printed (condensed where the record says so: a failing run's
retries and interleaved tracebacks vary between runs), laid out as a snippet's ranks are (``rank_columns.side_by_side``); a provenance line
says where and when it was recorded and how many repeated runs printed the same.

A missing, malformed or stale record (a script changed since) is a warning at the page and
line naming the command that re-records it, so ``sphinx-build -W`` fails. Reads files only;
never imports torch.
"""

from __future__ import annotations

import typing
from pathlib import Path

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

from refsite import __version__
from refsite.measurements import cluster_records
from refsite.sphinxext.output_nodes import code_block, rank_tabs, tab_label
from refsite.sphinxext.page_language import page_words

logger = logging.getLogger(__name__)


def _lines(lines: list[str]) -> str:
    return "".join(line + "\n" for line in lines)


class ClusterRecordDirective(SphinxDirective):
    """``{cluster-record} SCENARIO``: a recorded multi-node run, per host and per rank."""

    required_arguments = 1
    option_spec = {"run": directives.unchanged}

    def run(self) -> list[nodes.Node]:
        self.words = page_words(self)
        name = self.arguments[0]
        path = cluster_records.record_path(Path(self.env.app.confdir), name)
        self.env.note_dependency(str(path))
        try:
            record = cluster_records.check(path, Path(self.config.verified_snippets_root))
        except cluster_records.RecordError as exc:
            self._warn(str(exc))
            return []
        for rel in record.scripts:
            self.env.note_dependency(str(Path(self.config.verified_snippets_root) / rel))
        runs = record.runs
        if "run" in self.options:
            runs = [r for r in runs if r["name"] == self.options["run"]]
            if not runs:
                self._warn(f"{path.name} has no run {self.options['run']!r} (it has "
                           f"{', '.join(r['name'] for r in record.runs)})")
                return []
        block = nodes.container(classes=["vs-snippet", "cluster-record"])
        same, total = record.passed, record.repeat
        alike = record.figures.get(runs[0]["name"], {}).get("alike") if len(runs) == 1 else None
        if alike is not None:  # one run shown: how often that run alone printed the same
            same = alike
        made = record.provenance
        text = self.words["cluster.provenance"].format(
            torch=made.torch, date=made.date, machine=made.machine, same=same, runs=total)
        block += nodes.paragraph(text, text, classes=["vs-provenance"])
        if len(runs) == 1:
            block += self._run(runs[0])
        else:
            tabs = nodes.container(classes=["vs-tabs", "vs-variants"])
            for run in runs:
                panel = nodes.container(classes=["vs-tab-panel", "vs-variant"])
                panel += tab_label(run["name"])
                panel += self._run(run)
                tabs += panel
            block += tabs
        return [block]

    def _warn(self, message: str) -> None:
        logger.warning(f"{{cluster-record}}: {message}", location=(self.env.docname, self.lineno),
                       type="cluster_record", subtype="record")

    def _run(self, run: dict) -> list[nodes.Node]:
        shown: list[nodes.Node] = []
        if "state" in run:
            text = self.words["cluster.slurm_job"].format(state=run["state"], code=run["exit_code"])
            shown.append(nodes.paragraph(text, text, classes=["vs-notice"]))
            if run.get("other_output"):
                shown.append(code_block(_lines(run["other_output"]), "text", ["vs-output"]))
        hosts = nodes.container(classes=["vs-tabs", "vs-variants", "cluster-hosts"])
        for host in run["hosts"]:
            hosts += self._host(host, run)
        shown.append(hosts)
        return shown

    def _host(self, host: dict, run: dict) -> nodes.container:
        panel = nodes.container(classes=["vs-tab-panel", "vs-variant"])
        panel += tab_label(host["host"])
        if "state" not in run:
            command = nodes.container(classes=["vs-command"])
            command += code_block(host["command"], "bash", [])
            panel += command
            if host["exit_code"] is None:
                timeout = f"{run['timeout_s']:g} s"
                text = self.words["cluster.killed"].format(timeout=timeout)
            else:
                text = self.words["cluster.exit_code"].format(code=host["exit_code"])
            panel += nodes.paragraph(text, text, classes=["vs-provenance"])
        if host["agent"]:
            caption = "cluster.agent_condensed" if host.get("condensed") else "cluster.agent"
            text = self.words[caption].format(host=host["host"])
            panel += nodes.paragraph(text, text, classes=["vs-caption"])
            panel += code_block(_lines(host["agent"]), "text", ["vs-output"])
        outputs = [(rank, _lines(lines)) for rank, lines in host["ranks"].items()]
        if not outputs and not host["agent"]:
            nothing = self.words["cluster.nothing"]
            panel += nodes.paragraph(nothing, nothing, classes=["vs-notice"])
        if not outputs:
            return panel
        panel += rank_tabs([(self.words["output.rank"].format(rank=rank), text) for rank, text in outputs])
        return panel


def setup(app: Sphinx) -> dict[str, typing.Any]:
    """Register the ``cluster-record`` directive (its styles are the snippet blocks')."""
    app.setup_extension("refsite.sphinxext.verified_snippets")
    app.add_directive("cluster-record", ClusterRecordDirective)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
