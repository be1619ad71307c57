"""The site's build: both languages, then the landing page that offers them, one built site
per state of its inputs. ``docs/build.py`` is its command (:func:`main`).

Usage: ``python docs/build.py OUTDIR [extra sphinx-build options]``

Runs ``sphinx-build -W --keep-going -n -c <root> -t <lang> docs/<lang> OUTDIR/<lang>`` for each
language (the tag tells ``conf.py`` which one; :mod:`refsite.sphinxext.sphinx_build` sets the garbage
collector's thresholds first), one process per language side by side, streaming
their progress with a ``[lang]`` prefix, and copies ``docs/landing.html`` to ``OUTDIR/index.html``.
Exits non-zero if any build fails.

The build goes to ``_build/site-cache/<digest of its inputs>`` and is copied to the folder asked
for, so ``make test`` (whose browser tests need the site) and ``make html`` after it build it once
between them: with nothing changed since the last successful build, it is reused and says so.
Extra sphinx-build options always build anew.

The digest covers every file the site is built from (:data:`SITE_INPUTS`, but the ``apidocs``
the build writes itself), the interpreter and the installed distributions. Standard library only.
"""

from __future__ import annotations

import fcntl
import hashlib
import importlib.metadata
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

from refsite.languages import LANGUAGES

#: What the built site is made of, relative to the checkout.
SITE_INPUTS = ("conf.py", "docs", "snippets", "src", "tooling")
#: What decides how a page is read and rendered: Sphinx notices a changed page or a changed
#: record it depends on, not a changed extension, so a change here reads every page again.
CODE_INPUTS = ("conf.py", "src", "tooling")
#: Where the builds are kept, relative to the checkout; only the newest is kept.
CACHE = Path("_build") / "site-cache"
#: The file a complete, successful build leaves in its folder.
DONE = "built"
#: How the command is called.
USAGE = "Usage: python docs/build.py OUTDIR [extra sphinx-build options]"
_print_lock = threading.Lock()


def site_digest(root: Path, inputs: tuple[str, ...] = SITE_INPUTS) -> str:
    """The digest of everything the site at ``root`` is built from (or of ``inputs`` only)."""
    sha = hashlib.sha256()
    for name in inputs:
        top = root / name
        for path in sorted([top] if top.is_file() else top.rglob("*")):
            if path.is_file() and "apidocs" not in path.parts and "__pycache__" not in path.parts:
                sha.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    sha.update(sys.version.encode() + b"\0")
    dists = sorted({f"{d.metadata['Name']}=={d.version}" for d in importlib.metadata.distributions()})
    sha.update("\n".join(dists).encode())
    return sha.hexdigest()


def build_dir(root: Path) -> Path:
    """The folder the site's current inputs build into (it may not exist yet)."""
    return root / CACHE / site_digest(root)[:16]


def doctrees_dir(root: Path) -> Path:
    """Where Sphinx keeps what it read, per state of the code that renders the pages: a build
    with the same code reads only the pages (and records) that changed."""
    return root / "_build" / "doctrees" / site_digest(root, CODE_INPUTS)[:16]


def sphinx_command(lang: str, out: Path, extra: list[str], root: Path) -> list[str]:
    """The ``sphinx-build`` command line for one language. A cached build keeps Sphinx's
    doctrees across builds made with the same tooling (:func:`doctrees_dir`), so that
    it reads changed pages only."""
    if not extra:
        extra = ["-d", str(doctrees_dir(root) / lang)]
    return [sys.executable, "-m", "refsite.sphinxext.sphinx_build", "-W", "--keep-going", "-n", "-c", str(root),
            "-t", lang, str(root / "docs" / lang), str(out / lang), *extra]


def _stream(lang: str, proc: subprocess.Popen[str]) -> None:
    assert proc.stdout is not None
    for line in proc.stdout:
        with _print_lock:
            print(f"[{lang}] {line}", end="", flush=True)


def build(out: Path, extra: list[str], root: Path) -> dict[str, tuple[int, float]]:
    """Build every language into ``out``; return each one's exit status and seconds."""
    started = time.monotonic()
    procs = {lang: subprocess.Popen(sphinx_command(lang, out, extra, root), cwd=root, text=True,
                                    stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
             for lang in LANGUAGES}
    readers = [threading.Thread(target=_stream, args=(lang, proc)) for lang, proc in procs.items()]
    for reader in readers:
        reader.start()
    results = {}
    for lang, proc in procs.items():
        results[lang] = (proc.wait(), time.monotonic() - started)
    for reader in readers:
        reader.join()
    return results


def build_site(out: Path, extra: list[str], root: Path) -> bool:
    """Build both languages and the landing page into ``out``; report; True if all succeeded."""
    out.mkdir(parents=True, exist_ok=True)
    results = build(out, extra, root)
    shutil.copyfile(root / "docs" / "landing.html", out / "index.html")
    for lang, (status, seconds) in results.items():
        verdict = "ok" if status == 0 else f"FAILED (exit status {status})"
        print(f"{lang}: {verdict} in {seconds:.1f}s -> {out / lang}")
    return all(status == 0 for status, _ in results.values())


def cached_build(cache: Path, out: Path, root: Path) -> bool:
    """Build into ``cache`` unless a successful build is already there (older ones are removed),
    then copy it to ``out``; one process at a time, the others wait and reuse its build."""
    cache.parent.mkdir(parents=True, exist_ok=True)
    with open(cache.parent / "build.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if (cache / DONE).exists():
            print(f"nothing changed since the build in {cache}: reused", flush=True)
            ok = True
        else:
            doctrees = doctrees_dir(root)
            for old in [*cache.parent.iterdir(), *doctrees.parent.glob("*")]:
                if old.is_dir() and old != doctrees:
                    shutil.rmtree(old)
            ok = build_site(cache, [], root)
            if ok:
                (cache / DONE).write_text("built by docs/build.py\n")
            else:  # its doctrees hold the pages that warned: kept, the next build would not
                shutil.rmtree(doctrees, ignore_errors=True)  # read them again, nor warn
        if out != cache:
            shutil.copytree(cache, out, dirs_exist_ok=True)
        return ok


def main(argv: list[str], root: Path) -> int:
    """``docs/build.py``'s command line, for the checkout at ``root``."""
    if not argv or argv[0].startswith("-"):
        print(USAGE, file=sys.stderr)
        return 2
    out = Path(argv[0]).resolve()
    if argv[1:]:
        ok = build_site(out, argv[1:], root)
    else:
        ok = cached_build(build_dir(root), out, root)
    print(f"landing page: {out / 'index.html'}")
    return 0 if ok else 1
