"""``{record-changes} FILE``: what a move of the torch pin changed in the examples' records.

FILE (relative to ``docs/measurements/changes/``) is written by ``python -m refsite.commands.compat.changes_between``
from the two sets of records. The directive shows its provenance and counts, then per changed
variant its name, whether the example itself was changed for the new release, and the per-rank
diff old record -> new record. Reads the file only; never imports torch.
"""

from __future__ import annotations

from pathlib import Path

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective
from refsite import __version__
from refsite.measurements import change_files
from refsite.sphinxext.page_language import page_words

logger = logging.getLogger(__name__)


class RecordChangesDirective(SphinxDirective):
    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        words = page_words(self)
        path = Path(self.config.verified_snippets_compat_dir).parent / "changes" / self.arguments[0]
        self.env.note_dependency(str(path))
        try:
            found = change_files.read(path)
        except change_files.ChangeFileError as exc:
            logger.warning(str(exc), location=(self.env.docname, self.lineno), type="record_changes", subtype="file")
            return []
        old, new = found.old_torch, found.new_torch
        text = words["changes.summary"].format(changed=len(found.changes), compared=found.compared, old=old,
                                              new=new, commit=found.commit, date=found.date, command=found.command)
        result: list[nodes.Node] = [nodes.paragraph(text, text, classes=["vs-changes-summary"])]
        for change in found.changes:
            box = nodes.container(classes=["vs-change"])
            name = f"{change.snippet} [{change.variant}]"
            title = nodes.paragraph()
            title += nodes.literal(name, name)
            box += title
            which = "changes.example_changed" if change.example_changed else "changes.example_same"
            note = words[which].format(new=new)
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
