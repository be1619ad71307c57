"""Quote a recorded output or a measured figure in prose, checked at build time.

Two inline roles, for MyST Markdown (shown) or reStructuredText::

    {recorded}`distributed/all_reduce.py rank 1: after all_reduce`
    {recorded}`distributed/all_reduce.py[gloo-cpu-2] rank 1: after all_reduce`
    {recorded}`tensors/creation_pitfalls.py: ValueError`
    {measured}`ddp_exit_abort.json: results.destroy_only.text`

``recorded`` names a snippet (path relative to ``verified_snippets_root``), optionally one of
its variants by id (``[cpu]``, ``[gloo-cpu-2]``; default: the first variant, the one its
``Run:`` line runs), optionally a rank (default: any rank), and after ``: `` the text quoted.
The text must occur, exactly, in what that rank printed according to the variant's
expected-output file; the role shows it in code font.

``measured`` names a measurement file in ``recorded_quotes_measurements`` (default
``docs/measurements``) and a dotted key in it; the role shows the value found there. A
measurement file is JSON written by a measurement command, never by hand; it holds at least
``command``, ``torch``, ``machine``, ``date`` and ``results`` (see
``python -m refsite.commands.exit_abort``). Pages quote ``date``, ``torch`` and ``machine`` next to the
figure, so that it reads as what it is: a measurement, not a recorded output.

When the snippet, the variant, the record, the rank, the text, the file or the key is missing,
or the record is stale, the role logs a warning at the page and line, naming the record and what
is missing, so ``sphinx-build -W`` fails. The module reads files only; it never imports torch.
"""

from __future__ import annotations

import json
import re
import typing
from pathlib import Path

from docutils import nodes
from docutils.parsers.rst.states import Inliner
from sphinx.application import Sphinx
from sphinx.util import logging

from refsite import snippets
from refsite import __version__

logger = logging.getLogger(__name__)

_RECORDED = re.compile(
    r"^(?P<reference>[^\s\[\]:]+\.py(?:\[[\w-]+\])?)"
    r"(?:\s+rank\s+(?P<rank>\d+))?:\s(?P<text>.+)$",
    re.DOTALL,
)
_MEASURED = re.compile(r"^(?P<file>[^\s:]+\.json):\s*(?P<key>[\w.-]+)$")

#: Keys every measurement file must hold.
MEASUREMENT_KEYS = ("command", "torch", "machine", "date", "results")


class QuoteError(ValueError):
    """A quotation that its record does not hold (the message says what is missing)."""


def _unescape(text: str) -> str:
    return text.replace("\x00", "")


def recorded_text(root: Path, spec_text: str) -> tuple[str, list[Path]]:
    """Check one ``recorded`` quotation; return the text to show and the files it read."""
    match = _RECORDED.match(spec_text.strip())
    if not match:
        raise QuoteError(f"cannot parse {spec_text!r}; write 'AREA/FILE.py[VARIANT] rank N: TEXT' "
                         f"(variant and rank optional)")
    reference, rank, text = match.group("reference", "rank", "text")
    text = " ".join(text.split()) if "\n" in text else text
    try:
        found = snippets.resolve(reference, root)
        record = found.current()
    except snippets.ReferenceProblem as exc:
        raise QuoteError(str(exc)) from exc
    record_path = found.record_path
    ranks = list(enumerate(record.ranks))
    if rank is not None:
        if int(rank) >= len(record.ranks):
            raise QuoteError(f"record {record_path.name} has no rank {rank} "
                             f"(world size {len(record.ranks)})")
        ranks = [ranks[int(rank)]]
    if not any(text in output for _, output in ranks):
        who = f"rank {rank}" if rank is not None else "any rank"
        raise QuoteError(f"record {record_path.name} ({who}) does not hold the quoted text "
                         f"{text!r}; re-record it or change the quotation")
    return text, [found.spec.path, record_path]


def measured_value(directory: Path, spec_text: str) -> tuple[str, list[Path]]:
    """Check one ``measured`` quotation; return the value to show and the file it read."""
    match = _MEASURED.match(spec_text.strip())
    if not match:
        raise QuoteError(f"cannot parse {spec_text!r}; write 'FILE.json: dotted.key'")
    name, key = match.group("file", "key")
    path = directory / name
    if not path.is_file():
        raise QuoteError(f"measurement file {name!r} not found in {directory}")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise QuoteError(f"measurement file {name!r} is not valid JSON: {exc}") from exc
    missing = [k for k in MEASUREMENT_KEYS if k not in data]
    if missing:
        raise QuoteError(f"measurement file {name!r} lacks its provenance: {', '.join(missing)}")
    value: typing.Any = data
    for part in key.split("."):
        if not isinstance(value, dict) or part not in value:
            raise QuoteError(f"measurement file {name!r} has no key {key!r}")
        value = value[part]
    if isinstance(value, (dict, list)) or value is None:
        raise QuoteError(f"key {key!r} of {name!r} is not a single value")
    return str(value), [path]


def checked_role(kind: str, check: typing.Callable[[typing.Any, str], tuple[str, list[Path]]],
                 node: typing.Callable[[str, str, list[str]], nodes.Node], what: str, logger_type: str):
    """A role that shows what ``check(env, text)`` finds (the text to show and the files it read,
    noted as dependencies of the page). A :class:`QuoteError` or
    :class:`~refsite.snippets.SpecError` becomes a warning at the page and line, and the role
    shows its text as written, with the class ``rq-broken``. ``node(rawtext, text, classes)``
    makes the node; ``what`` names the role's text in the warning."""
    def role(name: str, rawtext: str, text: str, lineno: int, inliner: Inliner,
             options: dict | None = None, content: list | None = None):
        env = inliner.document.settings.env
        try:
            shown, files = check(env, _unescape(text))
        except (QuoteError, snippets.SpecError) as exc:
            logger.warning(f"{{{kind}}} {what}: {exc}", location=(env.docname, lineno),
                           type=logger_type, subtype=kind)
            return [node(rawtext, _unescape(text), ["rq-broken"])], []
        for path in files:
            env.note_dependency(str(path))
        return [node(rawtext, shown, [])], []

    return role


def _literal(kind: str) -> typing.Callable[[str, str, list[str]], nodes.Node]:
    return lambda rawtext, text, classes: nodes.literal(rawtext, text, classes=[f"rq-{kind}", *classes])


def _recorded(env: typing.Any, text: str) -> tuple[str, list[Path]]:
    return recorded_text(Path(env.config.verified_snippets_root), text)


def _measured(env: typing.Any, text: str) -> tuple[str, list[Path]]:
    return measured_value(Path(env.app.confdir, env.config.recorded_quotes_measurements), text)


def setup(app: Sphinx) -> dict[str, typing.Any]:
    """Register the ``recorded`` and ``measured`` roles."""
    app.add_config_value("recorded_quotes_measurements", "docs/measurements", "env",
                         types=frozenset({str}))
    app.add_role("recorded", checked_role("recorded", _recorded, _literal("recorded"), "quotation", "recorded_quotes"))
    app.add_role("measured", checked_role("measured", _measured, _literal("measured"), "quotation", "recorded_quotes"))
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
