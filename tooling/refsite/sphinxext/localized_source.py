"""The source a snippet block shows and offers for download, in the page's language.

On the pages of the translated language (:data:`refsite.snippets.localized.LANGUAGE`) that is
the snippet with its docstring and comments translated (:func:`refsite.snippets.localized.localize`,
the pure part), written under the build's doctree directory with the same relative path and
file name, so that its ``Run:`` line still works; on the others, the snippet itself. The Sphinx
side of :mod:`refsite.snippets.localized`: it notes the dependency, writes the file and turns the
translation's problems into build warnings.
"""

from __future__ import annotations

import os
import tokenize
import typing
from pathlib import Path

from refsite.snippets import localized
from refsite.sphinxext.page_language import page_language


def for_page(env: typing.Any, root: Path, snippet: Path,
             warn: typing.Callable[[str, str], None]) -> tuple[Path, str]:
    """The file a page of ``env``'s build shows and links for download, and its text; each
    problem of the translation goes to ``warn(message, subtype)``. ``env`` is the Sphinx build
    environment, ``root`` the snippets root."""
    snippet = Path(snippet)
    if page_language(env) != localized.LANGUAGE:
        return snippet, snippet.read_text(encoding="utf-8")
    env.note_dependency(str(localized.translations_path(snippet)))
    try:
        result = localized.localize(snippet)
    except (SyntaxError, tokenize.TokenError, ValueError) as exc:
        warn(f"snippet {snippet.name!r}: its comments cannot be localized ({exc}); the page "
             f"shows it in English", "translation")
        return snippet, snippet.read_text(encoding="utf-8")
    for problem in result.problems:
        warn(f"{problem.message} (Chinese comments of the zh pages)", "translation")
    try:
        rel = snippet.resolve().relative_to(Path(root).resolve())
    except ValueError:
        rel = Path(snippet.name)
    target = Path(env.doctreedir, "localized", localized.LANGUAGE, rel)
    if not target.is_file() or target.read_text(encoding="utf-8") != result.text:
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_name(f".{target.name}.{os.getpid()}")
        partial.write_text(result.text, encoding="utf-8")
        os.replace(partial, target)  # a parallel reader never sees half a file
    return target, result.text
