"""``{record-changes} FILE``: what a move of the torch pin changed in the examples' records.

FILE (relative to ``docs/measurements/changes/``) is written by ``python -m refsite.snippets.changes_between``
from the two sets of records. The directive shows its provenance and counts, then per changed
variant its name, whether the example itself was changed for the new release, and the per-rank
diff old record -> new record. Reads the file only; never imports torch.
"""

from __future__ import annotations

import json
from pathlib import Path

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective
from refsite import __version__
from refsite.sphinxext.page_language import page_words

logger = logging.getLogger(__name__)


class RecordChangesDirective(SphinxDirective):
    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        words = page_words(self)
        path = Path(self.config.verified_snippets_compat_dir).parent / "changes" / self.arguments[0]
        self.env.note_dependency(str(path))
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            logger.warning(f"{path} does not read ({exc}); fix: run python -m refsite.snippets.changes_between OLD_COMMIT",
                           location=(self.env.docname, self.lineno), type="record_changes", subtype="file")
            return []
        old, new = data["from"]["torch"], data["to"]["torch"]
        text = words["changes.summary"].format(changed=len(data["changes"]), compared=data["compared"], old=old, new=new,
                                      commit=data["from"]["commit"], date=data["date"], command=data["command"])
        result: list[nodes.Node] = [nodes.paragraph(text, text, classes=["vs-changes-summary"])]
        for change in data["changes"]:
            box = nodes.container(classes=["vs-change"])
            name = f"{change['snippet']} [{change['variant']}]"
            title = nodes.paragraph()
            title += nodes.literal(name, name)
            box += title
            which = "changes.example_changed" if change["example_changed"] else "changes.example_same"
            note = words[which].format(new=new)
            box += nodes.paragraph(note, note)
            diff = "\n".join(change["diff"])
            block = nodes.literal_block(diff, diff, classes=["vs-change-diff"])
            block["language"] = "diff"
            box += block
            result.append(box)
        return result


def setup(app: Sphinx) -> dict:
    app.add_directive("record-changes", RecordChangesDirective)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
