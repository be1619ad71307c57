"""The command line of :mod:`refsite.snippets.localized`, and writing a translation file.

``python -m refsite.snippets.translations check snippets/<area>/<api>.py`` lists what is untranslated or
stale in that snippet's ``.zh.toml``; ``show`` prints the Chinese file; ``template`` prints a
new translation file for a snippet (every English text, each ``zh`` empty, in the fixed format of
:func:`render`) to fill in.
"""

from __future__ import annotations

import json
from pathlib import Path

from refsite.snippets.localized import english_texts, localize


def _toml_multiline(text: str) -> str:
    """``text`` as a TOML multi-line basic string that reads back exactly."""
    body = text.replace("\\", "\\\\").replace('"""', '""\\"')
    if body.endswith('"'):
        body = body[:-1] + '\\"'
    return f'"""\n{body}"""' if body.startswith("\n") else f'"""{body}"""'


def _toml_key_or_value(text: str) -> str:
    """``text`` as a TOML basic string (JSON's escapes are TOML's)."""
    return json.dumps(text, ensure_ascii=False)


def render(snippet: Path, docstring_zh: str, comments_zh: dict[str, str]) -> str:
    """The text of a translation file for ``snippet``, in the fixed format.

    Comments are listed in the order they first appear in the snippet.
    """
    snippet = Path(snippet)
    docstring, keys = english_texts(snippet.read_text(encoding="utf-8"))
    lines = [f"# Chinese docstring and comments for {snippet.name}, keyed by the exact English "
             f"text they replace."]
    if docstring is not None:
        lines += ["[docstring]", f"en = {_toml_multiline(docstring)}",
                  f"zh = {_toml_multiline(docstring_zh)}", ""]
    lines.append("[comments]")
    for key in dict.fromkeys(keys):
        if key in comments_zh:
            lines.append(f"{_toml_key_or_value(key)} = {_toml_key_or_value(comments_zh[key])}")
    for key, value in comments_zh.items():
        if key not in keys:  # a directive comment given a translation anyway
            lines.append(f"{_toml_key_or_value(key)} = {_toml_key_or_value(value)}")
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    """``python -m refsite.snippets.translations check|show|template FILE.py...``: report
    problems, print the Chinese file, or print a translation file to fill in."""
    import sys

    if len(argv) < 2 or argv[0] not in ("check", "show", "template"):
        print(main.__doc__, file=sys.stderr)
        return 2
    if argv[0] == "template":
        for name in argv[1:]:
            _docstring, keys = english_texts(Path(name).read_text(encoding="utf-8"))
            print(render(Path(name), "", dict.fromkeys(keys, "")), end="")
        return 0
    status = 0
    for name in argv[1:]:
        result = localize(Path(name))
        for problem in result.problems:
            print(f"{name}: {problem.message}", file=sys.stderr)
            status = 1
        if argv[0] == "show":
            print(result.text, end="")
    return status


if __name__ == "__main__":
    import sys

    sys.exit(main(sys.argv[1:]))
