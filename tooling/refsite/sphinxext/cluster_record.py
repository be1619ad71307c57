"""Show a multi-node scenario recorded on a virtual cluster, per host and per rank.

For MyST Markdown (shown) or reStructuredText::

    ```{cluster-record} hostname
    :run: shared_hostname
    ```

The argument names a record, ``docs/measurements/cluster/<scenario>.json`` (written by
``python -m refsite.testing.measure_cluster``, see :mod:`refsite.snippets.cluster_records`);
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

import dataclasses
import typing
from pathlib import Path

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

from refsite import __version__
from refsite.snippets import cluster_records
from refsite.sphinxext.output_nodes import code_block, rank_tabs, tab_label

logger = logging.getLogger(__name__)


@dataclasses.dataclass(frozen=True)
class Strings:
    provenance: str
    exit_code: str
    killed: str
    slurm_job: str
    agent: str
    agent_condensed: str
    rank: str
    nothing: str


STRINGS = {
    "en": Strings(
        provenance=("Recorded on a virtual cluster (network-namespace hosts on one machine) with "
                    "torch {torch} · {date} · {machine} · {same} of {runs} runs printed the same"),
        exit_code="exit code {code}", killed="still running after {timeout}: killed",
        slurm_job="Slurm job {state}, exit code {code}",
        agent="printed by torchrun or Slurm on {host}",
        agent_condensed=("printed by torchrun on {host}, condensed: each line once, each "
                         "traceback's last line, and torchrun's failure summary"),
        rank="rank {rank}",
        nothing="(printed nothing)"),
    "zh": Strings(
        provenance=("录制环境：虚拟集群（同一台机器上以网络命名空间模拟的主机）· torch {torch} · "
                    "{date} · {machine} · 重复运行 {runs} 次，其中 {same} 次输出相同"),
        exit_code="退出码 {code}", killed="{timeout} 后仍在运行，被强制结束",
        slurm_job="Slurm 作业 {state}，退出码 {code}",
        agent="{host} 上由 torchrun 或 Slurm 自身打印",
        agent_condensed="{host} 上由 torchrun 打印（已精简：相同的行只留一行，每段 traceback 只留最后一行，外加 torchrun 的失败汇总）",
        rank="rank {rank}",
        nothing="（没有任何输出）"),
}


def strings_for(language: str | None) -> Strings:
    return STRINGS.get((language or "en").split("_")[0].split("-")[0], STRINGS["en"])


def _lines(lines: list[str]) -> str:
    return "".join(line + "\n" for line in lines)


class ClusterRecordDirective(SphinxDirective):
    """``{cluster-record} SCENARIO``: a recorded multi-node run, per host and per rank."""

    required_arguments = 1
    option_spec = {"run": directives.unchanged}

    def run(self) -> list[nodes.Node]:
        self.strings = strings_for(self.config.language)
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
        text = self.strings.provenance.format(
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
            text = self.strings.slurm_job.format(state=run["state"], code=run["exit_code"])
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
                text = self.strings.killed.format(timeout=timeout)
            else:
                text = self.strings.exit_code.format(code=host["exit_code"])
            panel += nodes.paragraph(text, text, classes=["vs-provenance"])
        if host["agent"]:
            caption = self.strings.agent_condensed if host.get("condensed") else self.strings.agent
            text = caption.format(host=host["host"])
            panel += nodes.paragraph(text, text, classes=["vs-caption"])
            panel += code_block(_lines(host["agent"]), "text", ["vs-output"])
        outputs = [(rank, _lines(lines)) for rank, lines in host["ranks"].items()]
        if not outputs and not host["agent"]:
            panel += nodes.paragraph(self.strings.nothing, self.strings.nothing, classes=["vs-notice"])
        if not outputs:
            return panel
        panel += rank_tabs([(self.strings.rank.format(rank=rank), text) for rank, text in outputs])
        return panel


def setup(app: Sphinx) -> dict[str, typing.Any]:
    """Register the ``cluster-record`` directive (its styles are the snippet blocks')."""
    app.setup_extension("refsite.sphinxext.verified_snippets")
    app.add_directive("cluster-record", ClusterRecordDirective)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
