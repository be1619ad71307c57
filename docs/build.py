"""Build the site: both languages, then the landing page that offers them.

Usage: ``python docs/build.py OUTDIR [extra sphinx-build options]``

Runs ``sphinx-build -W --keep-going -n -c <root> -t <lang> docs/<lang> OUTDIR/<lang>`` for each
language (the tag tells ``conf.py`` which one), one process per language side by side, streaming
their progress with a ``[lang]`` prefix, and copies ``docs/landing.html`` to ``OUTDIR/index.html``. Exits non-zero if any build fails.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

from refsite.languages import LANGUAGES

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
_print_lock = threading.Lock()


def sphinx_command(lang: str, out: Path, extra: list[str]) -> list[str]:
    """The ``sphinx-build`` command line for one language."""
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


def main(argv: list[str]) -> int:
    if not argv or argv[0].startswith("-"):
        print(__doc__.strip().splitlines()[2].replace("``", ""), file=sys.stderr)
        return 2
    out = Path(argv[0]).resolve()
    out.mkdir(parents=True, exist_ok=True)
    results = build(out, argv[1:])
    shutil.copyfile(DOCS / "landing.html", out / "index.html")
    for lang, (status, seconds) in results.items():
        verdict = "ok" if status == 0 else f"FAILED (exit status {status})"
        print(f"{lang}: {verdict} in {seconds:.1f}s -> {out / lang}")
    failed = [lang for lang, (status, _) in results.items() if status != 0]
    print(f"landing page: {out / 'index.html'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
