"""``{record-changes} FILE``: what a move of the torch pin changed in the examples' records.

FILE (relative to ``docs/measurements/changes/``) is written by ``python -m refsite.testing.changes_between``
from the two sets of records. The directive shows its provenance and counts, then per changed
variant its name, whether the example itself was changed for the new release, and the per-rank
diff old record -> new record. Reads the file only; never imports torch.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective
from refsite import __version__
from refsite.snippets import change_files

logger = logging.getLogger(__name__)


@dataclasses.dataclass(frozen=True)
class Strings:
    summary: str
    example_changed: str
    example_same: str


STRINGS = {
    "en": Strings(
        summary=("{changed} of {compared} records print something else with torch {new} than they did "
                 "with torch {old} (records of commit {commit}; compared without C++ line numbers; "
                 "generated on {date} by {command})."),
        example_changed="The example was changed for torch {new}; the diff shows both effects.",
        example_same="The example is unchanged: torch alone prints this differently.",
    ),
    "zh": Strings(
        summary=("共 {compared} 份记录中，有 {changed} 份在 torch {new} 下的输出与 torch {old} 下不同"
                 "（旧记录取自提交 {commit}；比较时忽略 C++ 行号；由 {command} 于 {date} 生成）。"),
        example_changed="示例本身为 torch {new} 做了修改；差异中两方面的影响都有。",
        example_same="示例没有改动：输出的变化完全来自 torch。",
    ),
}


class RecordChangesDirective(SphinxDirective):
    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        strings = STRINGS.get((self.config.language or "en").split("_")[0], STRINGS["en"])
        path = Path(self.config.verified_snippets_compat_dir).parent / "changes" / self.arguments[0]
        self.env.note_dependency(str(path))
        try:
            found = change_files.read(path)
        except change_files.ChangeFileError as exc:
            logger.warning(str(exc), location=(self.env.docname, self.lineno), type="record_changes", subtype="file")
            return []
        old, new = found.old_torch, found.new_torch
        text = strings.summary.format(changed=len(found.changes), compared=found.compared, old=old, new=new,
                                      commit=found.commit, date=found.date, command=found.command)
        result: list[nodes.Node] = [nodes.paragraph(text, text, classes=["vs-changes-summary"])]
        for change in found.changes:
            box = nodes.container(classes=["vs-change"])
            name = f"{change.snippet} [{change.variant}]"
            title = nodes.paragraph()
            title += nodes.literal(name, name)
            box += title
            note = (strings.example_changed if change.example_changed else strings.example_same).format(new=new)
            box += nodes.paragraph(note, note)
            diff = "\n".join(change.diff)
            block = nodes.literal_block(diff, diff, classes=["vs-change-diff"])
            block["language"] = "diff"
            box += block
            result.append(box)
        return result


def setup(app: Sphinx) -> dict:
    app.add_directive("record-changes", RecordChangesDirective)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
