"""Build the site: both languages, then the landing page that offers them.

Usage: ``python docs/build.py OUTDIR [extra sphinx-build options]``

Runs ``sphinx-build -W --keep-going -n -c <root> -t <lang> docs/<lang> OUTDIR/<lang>`` for each
language (the tag tells ``conf.py`` which one), one process per language side by side, streaming
their progress with a ``[lang]`` prefix, and copies ``docs/landing.html`` to ``OUTDIR/index.html``. Exits non-zero if any build fails.

The build goes to ``_build/site-cache/<digest of its inputs>`` (``refsite.site_builds``) and is
copied to OUTDIR: with nothing changed since the last successful build (the browser tests of
``make test`` make one), it is reused and says so. Extra sphinx-build options always build anew.
"""

from __future__ import annotations

import fcntl
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

from refsite import site_builds
from refsite.languages import LANGUAGES

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
_print_lock = threading.Lock()


def sphinx_command(lang: str, out: Path, extra: list[str]) -> list[str]:
    """The ``sphinx-build`` command line for one language. A cached build keeps Sphinx's
    doctrees across builds made with the same tooling (``site_builds.doctrees_dir``), so that
    it reads changed pages only."""
    if not extra:
        extra = ["-d", str(site_builds.doctrees_dir(ROOT) / lang)]
    return [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-n", "-c", str(ROOT), "-t", lang,
            str(DOCS / lang), str(out / lang), *extra]


def _stream(lang: str, proc: subprocess.Popen[str]) -> None:
    assert proc.stdout is not None
    for line in proc.stdout:
        with _print_lock:
            print(f"[{lang}] {line}", end="", flush=True)


def build(out: Path, extra: list[str]) -> dict[str, tuple[int, float]]:
    """Build every language into ``out``; return each one's exit status and seconds."""
    started = time.monotonic()
    procs = {lang: subprocess.Popen(sphinx_command(lang, out, extra), cwd=ROOT, text=True,
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


def build_site(out: Path, extra: list[str]) -> bool:
    """Build both languages and the landing page into ``out``; report; True if all succeeded."""
    out.mkdir(parents=True, exist_ok=True)
    results = build(out, extra)
    shutil.copyfile(DOCS / "landing.html", out / "index.html")
    for lang, (status, seconds) in results.items():
        verdict = "ok" if status == 0 else f"FAILED (exit status {status})"
        print(f"{lang}: {verdict} in {seconds:.1f}s -> {out / lang}")
    return all(status == 0 for status, _ in results.values())


def cached_build(cache: Path, out: Path) -> bool:
    """Build into ``cache`` unless a successful build is already there (older ones are removed),
    then copy it to ``out``; one process at a time, the others wait and reuse its build."""
    cache.parent.mkdir(parents=True, exist_ok=True)
    with open(cache.parent / "build.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if (cache / site_builds.DONE).exists():
            print(f"nothing changed since the build in {cache}: reused", flush=True)
            ok = True
        else:
            doctrees = site_builds.doctrees_dir(ROOT)
            for old in [*cache.parent.iterdir(), *doctrees.parent.glob("*")]:
                if old.is_dir() and old != doctrees:
                    shutil.rmtree(old)
            ok = build_site(cache, [])
            if ok:
                (cache / site_builds.DONE).write_text("built by docs/build.py\n")
            else:  # its doctrees hold the pages that warned: kept, the next build would not
                shutil.rmtree(doctrees, ignore_errors=True)  # read them again, nor warn
        if out != cache:
            shutil.copytree(cache, out, dirs_exist_ok=True)
        return ok


def main(argv: list[str]) -> int:
    if not argv or argv[0].startswith("-"):
        print(__doc__.strip().splitlines()[2].replace("``", ""), file=sys.stderr)
        return 2
    out = Path(argv[0]).resolve()
    if argv[1:]:
        ok = build_site(out, argv[1:])
    else:
        ok = cached_build(site_builds.build_dir(ROOT), out)
    print(f"landing page: {out / 'index.html'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
