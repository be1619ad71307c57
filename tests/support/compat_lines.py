"""Holding a panel's compat line to the measurement files, read here on their own.

:func:`line_problems` parses an English line ("Same output on torch 2.6–2.15; differs on 2.5;
fails on 2.4: AttributeError: ...") back into per-release claims and compares them with what the
files say for that variant, read directly as JSON (not through the code that wrote the line).
"""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path

from refsite.measurements import compat_results
from refsite import snippets
from refsite.snippets import COMPARISON_RULES

_PART = re.compile(r"^(?:Same output on torch|same on|differs on|fails on|mixed on) (\d+\.\d+)(?:–(\d+\.\d+))?(?:: (.*))?$")
#: A result that varied from run to run: "same in 11 of 12 runs on 2.6, hangs in 1".
_REPEATED = re.compile(r"^(\w+ in \d+ of \d+) runs on (\d+\.\d+)((?:, \w+ in \d+)*)$")
_KIND_ORDER = ("same", "differs", "fails", "hangs")


def _repeated_claim(counts: dict[str, int]) -> str:
    """How the files' counts read as a claim: "same in 11 of 12, hangs in 1" (most runs first)."""
    ordered = sorted(counts.items(), key=lambda item: (-item[1], _KIND_ORDER.index(item[0])))
    (kind, count), *others = ordered
    return f"{kind} in {count} of {sum(counts.values())}" + "".join(f", {k} in {n}" for k, n in others)


@functools.lru_cache(maxsize=64)
def _read(path: Path, _mtime_ns: int) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def measured(folder: Path, spec: snippets.Spec, variant: snippets.Variant, root: Path) -> dict[str, str]:
    """Release (``2.5``) -> ``same``/``differs``/``fails: TYPE: MESSAGE`` for the variant, from
    every file whose result was measured on this code and record (``None`` for a release whose
    file has none); the record's own release is ``same``. Empty when no file has a valid result."""
    record = snippets.read_record(spec.record_path(variant))
    key = compat_results.variant_key(spec.path.relative_to(root).as_posix(), variant.id)
    code, digest = compat_results.code_digest(spec.path), compat_results.record_digest(record)
    found = {}
    for path in folder.glob("torch-*.json"):
        data = _read(path, path.stat().st_mtime_ns)
        if not data["install"]["ok"]:
            continue
        result = data["variants"].get(key)
        found[".".join(data["torch"].split(".")[:2])] = None
        judged_now = result and (result["result"] != "differs" or result.get("compare_rules") == COMPARISON_RULES)
        if result and result["code_sha256"] == code and result["record_sha256"] == digest and judged_now:
            claim = result["result"]
            if claim == "fails":
                claim += f": {result['error_type']}: {result['error']}" if result["error"] else f": {result['error_type']}"
            if "repeated" in result:
                claim = _repeated_claim(result["repeated"]["counts"])
            found[".".join(data["torch"].split(".")[:2])] = claim
    if any(found.values()):
        found[".".join(record.torch.split("+")[0].split(".")[:2])] = "same"
        return found
    return {}


def _holds(claim: str, truth: str | None) -> bool:
    """Whether one release's claim on the line fits the files: ``fails: TYPE`` any failure of
    that type, ``fails`` any failure, ``mixed`` anything measured (the span as a whole is checked
    apart)."""
    if claim == "mixed":
        return True
    if claim == "fails":
        return bool(truth) and truth.startswith("fails")
    if claim.startswith("fails: "):
        return bool(truth) and (truth == claim or truth.startswith(claim + ": "))
    return claim == truth


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
        if repeated := _REPEATED.match(part):
            claimed[repeated.group(2)] = repeated.group(1) + repeated.group(3)
            continue
        match = _PART.match(part)
        if not match:
            problems.append(f"{line!r}: cannot read {part!r}")
            continue
        first, last = match.group(1), match.group(2) or match.group(1)
        if first not in truth or last not in truth or truth.get(first) is None or truth.get(last) is None:
            problems.append(f"{line!r}: names {first}–{last}, the files measured {', '.join(r for r in releases if truth[r])}")
            continue
        kind = "same" if part.startswith(("Same", "same")) else part.split(" ", 1)[0]
        claim = f"fails: {match.group(3)}" if kind == "fails" and match.group(3) else kind
        spanned = releases[releases.index(first):releases.index(last) + 1]
        if kind == "mixed" and len({": ".join(truth[r].split(": ")[:2]) for r in spanned if truth[r]}) < 2:
            problems.append(f"{line!r}: 'mixed on {first}–{last}', but the files say one result there")
        for release in spanned:
            claimed[release] = claim
    for release in releases:
        said = claimed.get(release)
        if said == "mixed" or (said == "fails" and truth[release] is None):
            continue  # a summed-up span of older releases may reach over one not measured
        if not (said and _holds(said, truth[release])) and not (said is None and truth[release] is None) and not problems:
            problems.append(f"{line!r}: on torch {release} the files say {truth[release]!r}, "
                            f"the line says {claimed.get(release)!r}")
    return problems
