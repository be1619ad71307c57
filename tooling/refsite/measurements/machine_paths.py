"""The build machine's file system, kept out of what the measurement files store.

An error line or a diff from ``make compat`` names files where they lay on the machine that
measured: a release's environment under the user's home, the interpreter's own library, the
checkout, a temporary directory. The pages show those lines, so every such path is written in a
form that names no machine (:func:`normalise_result`) before a result is stored, and ``make
compat`` ends by rewriting every measurement file so (:func:`normalise_file`), results kept from
earlier runs included. Standard library only.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from refsite.measurements import compat_results

#: A path segment: no separator, quote or white space.
_SEG = r"[^\s/\"'`<>():]+"
#: In the order they apply (the more specific first): what each kind of directory becomes.
_RULES = (
    (re.compile(rf"(?:/{_SEG})+/(?:site|dist)-packages/"), "<site-packages>/"),
    (re.compile(rf"(?:/{_SEG})+/lib/python3\.\d+/"), "<python>/"),
    # A temporary directory, alone (``--log-dir /tmp/tmpab12``) or with a file under it.
    (re.compile(rf"/tmp/{_SEG}"), "<tmp>"),
)
#: An absolute path of the machine, left after normalising: what a stored text must not hold.
ABSOLUTE = re.compile(rf"(?<![\w.<>~/:-])/(?:root|home|tmp|work|usr|opt|var|srv|mnt|Users)/{_SEG}")


def normalise(text: str, checkout: Path) -> str:
    """``text`` with every path of this machine written as ``<site-packages>/…``, ``<python>/…``,
    ``<checkout>/…``, ``<tmp>/…`` or ``~/…``."""
    text = text.replace(f"{checkout.resolve()}/", "<checkout>/")
    for pattern, replacement in _RULES:
        text = pattern.sub(replacement, text)
    home = str(Path.home())
    return text.replace(f"{home}/", "~/") if home not in ("/", "") else text


def normalise_result(result: dict, checkout: Path) -> dict:
    """A stored compat result with its ``error`` and ``diff`` lines normalised."""
    found = dict(result)
    if "error" in found:
        found["error"] = normalise(found["error"], checkout)
    if "diff" in found:
        found["diff"] = [normalise(line, checkout) for line in found["diff"]]
    return found


def absolute_paths(text: str) -> list[str]:
    """The machine paths ``text`` still holds (none in a stored measurement)."""
    return ABSOLUTE.findall(text)


def this_machines_paths(text: str, checkout: Path) -> list[str]:
    """Paths of this very machine in ``text`` (its home, the checkout, an environment's
    packages, a temporary directory): for a page, whose prose may well name ``/usr/bin/python3``."""
    home = str(Path.home())
    marks = [re.escape(f"{checkout.resolve()}/"), rf"(?:/{_SEG})+/(?:site|dist)-packages/", rf"/tmp/tmp{_SEG}"]
    if home not in ("/", ""):
        marks.append(re.escape(f"{home}/"))
    return re.findall("|".join(marks), text)


def normalise_file(path: Path, checkout: Path) -> bool:
    """Rewrite a compat measurement file with every result normalised; whether it changed."""
    data = json.loads(path.read_text(encoding="utf-8"))
    data["variants"] = {key: normalise_result(found, checkout) for key, found in data["variants"].items()}
    return compat_results.write_run(path, data)
