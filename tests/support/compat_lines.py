"""Holding a panel's compat line to the measurement files, read here on their own.

:func:`line_problems` parses an English line ("Same output on torch 2.6–2.15; differs on 2.5;
fails on 2.4: AttributeError: ...") back into per-release claims and compares them with what the
files say for that variant, read directly as JSON (not through the code that wrote the line).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from refsite.snippets import compat_results
from refsite import snippets
from refsite.snippets import COMPARISON_RULES

_PART = re.compile(r"^(?:Same output on torch|same on|differs on|fails on) (\d+\.\d+)(?:–(\d+\.\d+))?(?:: (.*))?$")


def measured(folder: Path, spec: snippets.Spec, variant: snippets.Variant, root: Path) -> dict[str, str]:
    """Release (``2.5``) -> ``same``/``differs``/``fails: TYPE: MESSAGE`` for the variant, from
    every file whose result was measured on this code and record (``None`` for a release whose
    file has none); the record's own release is ``same``. Empty when no file has a valid result."""
    record = snippets.read_record(spec.record_path(variant))
    key = compat_results.variant_key(spec.path.relative_to(root).as_posix(), variant.id)
    code, digest = compat_results.code_digest(spec.path), compat_results.record_digest(record)
    found = {}
    for path in folder.glob("torch-*.json"):
        data = json.loads(path.read_text(encoding="utf-8"))
        if not data["install"]["ok"]:
            continue
        result = data["variants"].get(key)
        found[".".join(data["torch"].split(".")[:2])] = None
        judged_now = result and (result["result"] != "differs" or result.get("compare_rules") == COMPARISON_RULES)
        if result and result["code_sha256"] == code and result["record_sha256"] == digest and judged_now:
            claim = result["result"]
            if claim == "fails":
                claim += f": {result['error_type']}: {result['error']}" if result["error"] else f": {result['error_type']}"
            found[".".join(data["torch"].split(".")[:2])] = claim
    if any(found.values()):
        found[".".join(record.torch.split("+")[0].split(".")[:2])] = "same"
        return found
    return {}


def line_problems(line: str, truth: dict[str, str]) -> list[str]:
    """What ``line`` claims that ``truth`` (from :func:`measured`) does not say, and the other
    way round."""
    if not truth:
        return [] if line.startswith("No results on older torch releases yet") else [
            f"{line!r}: the files hold no result for this variant"]
    releases = sorted(truth, key=compat_results.release_key)
    claimed: dict[str, str] = {}
    problems = []
    for part in line.split("; "):
        match = _PART.match(part)
        if not match:
            problems.append(f"{line!r}: cannot read {part!r}")
            continue
        first, last = match.group(1), match.group(2) or match.group(1)
        if truth.get(first) is None or truth.get(last) is None:
            problems.append(f"{line!r}: names {first}–{last}, the files measured {', '.join(r for r in releases if truth[r])}")
            continue
        kind = "same" if part.startswith(("Same", "same")) else part.split(" ", 1)[0]
        claim = kind if kind != "fails" else f"fails: {match.group(3)}"
        for release in releases[releases.index(first):releases.index(last) + 1]:
            claimed[release] = claim
    for release in releases:
        said = claimed.get(release)
        if said and said.endswith("…") and (truth[release] or "").startswith(said.split(": ")[0] + ": "
                                                                              + said.split(": ")[1]):
            continue  # an error cut short on the line: its type holds for each release it spans
        if said != truth[release] and not problems:
            problems.append(f"{line!r}: on torch {release} the files say {truth[release]!r}, "
                            f"the line says {claimed.get(release)!r}")
    return problems
