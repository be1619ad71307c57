"""``make compat``: run every CPU variant on older torch releases, one measurement file each.

For each release of ``docs/measurements/compat/releases.txt`` (or ``--releases 2.4.1,2.5.1``),
one at a time (the next one installing meanwhile): a fresh virtual environment outside the
repository (``--envs``) gets that torch and what the snippets need besides (:data:`SNIPPET_NEEDS`:
numpy, py-spy, safetensors), ``python -m refsite.commands.compat.run`` runs every CPU variant
there with the project's runner and writes ``docs/measurements/compat/torch-<release>.json``
(keeping the results of that file that are still current: same code, same record; ``--all``
runs every variant, ``--again`` those whose keys match its patterns), and the environment is
removed (``--keep`` keeps it, and a kept one is reused). A release that cannot be installed gets
a file that says so, with pip's last lines. Progress: one line per release step and per variant.
At the end every measurement file is rewritten with no path of this machine
(``refsite.measurements.machine_paths``), and a table says, per listed release, how many CPU variants
still lack a current result (``refsite.measurements.compat_status``). ``--check`` prints that table
alone (no install, no run) and exits non-zero when any variant lacks one. Not part of ``make
test``; the doc build reads the files (see ``refsite.measurements.compat_results``).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import datetime
import os
import platform
import shutil
import subprocess
import sys
import time
from pathlib import Path

from refsite.measurements import compat_results, compat_status, machine_paths, provenance
from refsite.snippets.errors import SpecError
from refsite.testing import doctest_env
from refsite import project

ROOT = project.root()
OUT = ROOT / compat_results.COMPAT_DIR
RELEASES = OUT / "releases.txt"
#: The pinned torch, which every CPU record must name (refsite.measurements.compat_matrix).
PIN = project.pinned_torch(ROOT)
DEFAULT_ENVS = Path.home() / ".cache" / "pytorch-verified-reference" / "compat"
#: What the snippets need besides torch: every pin of requirements-doctest.txt but the runner's
#: own tools (safetensors too: without it the Hugging Face DCP snippets "fail" for want of it).
REQUIREMENTS = ROOT / "requirements-doctest.txt"
SNIPPET_NEEDS = tuple(name for name in doctest_env.pins(REQUIREMENTS) if name not in doctest_env.RUNNER_TOOLS)


def _release_lines() -> dict[str, tuple[str, ...]]:
    """The committed list: one release a line, then any pins that replace requirements-doctest.txt's
    for that release (``2.2.2 numpy==1.26.4``); ``#`` starts a comment."""
    path, found = RELEASES, {}
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        words = raw.split("#")[0].split()
        if not words:
            continue
        release, *pins = words
        for pin in pins:
            name, eq, version = pin.partition("==")
            if not eq or not version or name not in SNIPPET_NEEDS:
                raise SystemExit(f"{path}:{number}: {pin!r} must be name==version for one of "
                                 f"{', '.join(SNIPPET_NEEDS)} (what the snippets need besides torch)")
        found[release] = tuple(pins)
    return found


def listed_releases() -> list[str]:
    """The releases of the committed list, in its order."""
    return list(_release_lines())


def requirements(release: str) -> list[str]:
    """What a release's environment gets besides torch: requirements-doctest.txt's pin of each of
    :data:`SNIPPET_NEEDS`, or the one releases.txt gives for that release (an older NumPy for a
    torch built against NumPy 1.x)."""
    pins = {name: f"{name}=={version}" for name, version in doctest_env.pins(REQUIREMENTS).items()
            if name in SNIPPET_NEEDS}
    pins.update({pin.partition("==")[0]: pin for pin in _release_lines().get(release, ())})
    return list(pins.values())


def install(release: str, env: Path) -> tuple[bool, str, float]:
    """Create ``env`` with torch ``release`` and :func:`requirements`; (ok, pip's last lines on
    failure, seconds)."""
    start = time.monotonic()
    python = env / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(env)], check=True)
    pip = subprocess.run([str(python), "-m", "pip", "install", "--quiet", f"torch=={release}", *requirements(release)],
                         capture_output=True, text=True)
    tail = "\n".join((pip.stdout + pip.stderr).strip().splitlines()[-3:])
    return pip.returncode == 0, tail, time.monotonic() - start


def installed_before(release: str) -> bool:
    """Whether the release's measurement file records a successful install (its results are
    then never replaced by an install failure, which says more about this machine)."""
    path = OUT / f"torch-{release}.json"
    try:
        return path.exists() and compat_results.read_run(path).installed
    except SpecError:  # a file that does not read holds no results to keep
        return False


def write_install_failure(release: str, error: str, seconds: float, command: str) -> Path:
    path = OUT / f"torch-{release}.json"
    compat_results.write_run(path, compat_results.measurement(
        release, torch_build=None, python=platform.python_version(),
        date=datetime.date.today().isoformat(), machine=provenance.machine(), command=command,
        install={"ok": False, "seconds": round(seconds, 1), "error": error,
                 "requirements": requirements(release)}, variants={}))
    return path


def install_into(release: str, envs: Path) -> tuple[bool, str, float]:
    """:func:`install` into the release's environment under ``envs``, saying so."""
    env = envs / f"torch-{release}"
    print(f"== torch {release}: installing into {env}", flush=True)
    return install(release, env)


def measure(release: str, envs: Path, keep: bool, command: str, run_all: bool, jobs: int | None = None,
            again: str = "", installed: tuple[bool, str, float] | None = None, repeat: str = "") -> int:
    """One release: install (unless ``installed`` gives :func:`install_into`'s result), run,
    write its file; the runner's exit status (0 when the install failed and that was recorded)."""
    env = envs / f"torch-{release}"
    ok, error, seconds = installed or install_into(release, envs)
    try:
        if not ok:
            last = error.splitlines()[-1] if error else "?"
            if installed_before(release):  # this machine's trouble (a full disk, no network): keep the results
                print(f"== torch {release}: could not be installed now ({last}); it installed before, so "
                      f"{(OUT / f'torch-{release}.json').relative_to(ROOT)} keeps its results; fix the "
                      f"cause and run again", file=sys.stderr, flush=True)
                return 1
            path = write_install_failure(release, error, seconds, command)
            print(f"== torch {release}: could not be installed ({last}); recorded in {path.relative_to(ROOT)}",
                  flush=True)
            return 0
        print(f"== torch {release}: installed in {seconds:.0f} s; running every CPU variant", flush=True)
        path_entries = [str(ROOT / "src"), str(ROOT / "tooling")]
        run_env = dict(os.environ, PYTHONPATH=os.pathsep.join(path_entries),
                       PATH=os.pathsep.join([str(env / "bin"), os.environ.get("PATH", "")]),
                       VIRTUAL_ENV=str(env))
        run_env.pop("PYTHONHOME", None)
        return subprocess.run([str(env / "bin" / "python"), "-m", "refsite.commands.compat.run",
                               "--release", release, "--out", str(OUT / f"torch-{release}.json"),
                               "--install-seconds", str(seconds), "--command", command,
                               "--machine", provenance.machine(), "--requirements", ",".join(requirements(release)),
                               *(["--all"] if run_all else []), *(["--jobs", str(jobs)] if jobs else []),
                               *(["--again", again] if again else []), *(["--repeat", repeat] if repeat else [])],
                              cwd=ROOT, env=run_env).returncode
    finally:
        if not keep:
            shutil.rmtree(env, ignore_errors=True)


def check() -> bool:
    """Print the table of :mod:`refsite.measurements.compat_status` for the listed releases; whether
    every recorded CPU variant has a current result on each."""
    ok, lines = compat_status.check(listed_releases(), OUT, ROOT / "snippets", pin=PIN)
    print("\n".join(lines), flush=True)
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--releases", help="comma-separated releases (default: releases.txt)")
    parser.add_argument("--envs", type=Path, default=Path(os.environ.get("COMPAT_ENVS", DEFAULT_ENVS)),
                        help=f"where the environments go (default {DEFAULT_ENVS}; COMPAT_ENVS)")
    parser.add_argument("--keep", action="store_true", help="keep each environment (and reuse a kept one)")
    parser.add_argument("--all", action="store_true",
                        help="run every variant (default: keep each result still current: same code, same record)")
    parser.add_argument("--again", default="",
                        help="comma-separated patterns of variant keys to run even when their result is current "
                             "(COMPAT_AGAIN), e.g. after a change of how results are judged")
    parser.add_argument("--repeat", default="",
                        help="comma-separated patterns of variant keys to run 12 times alone and store as 'k of N' "
                             "(COMPAT_REPEAT; with --again for a current result); a variant whose kind of result "
                             "changes from one run to the next is repeated without asking")
    parser.add_argument("--jobs", type=int, default=None,
                        help="variants of one release run at once (default: one per core; COMPAT_JOBS)")
    parser.add_argument("--check", action="store_true",
                        help="install and run nothing: say, per listed release, which CPU variants lack a current "
                             "result, and exit non-zero when any does")
    args = parser.parse_args()
    if args.check:
        return 0 if check() else 1
    releases = args.releases.split(",") if args.releases else listed_releases()
    if args.envs.resolve().is_relative_to(ROOT):
        parser.error(f"--envs {args.envs} is inside the repository; pick a folder outside it")
    args.envs.mkdir(parents=True, exist_ok=True)
    command = ("make compat" + (f" RELEASES={args.releases}" if args.releases else "") + (" COMPAT_ALL=1" if args.all else "")
               + (f" COMPAT_AGAIN={args.again}" if args.again else "")
               + (f" COMPAT_REPEAT={args.repeat}" if args.repeat else ""))
    failed = []
    with concurrent.futures.ThreadPoolExecutor(1) as installer:
        # The next release installs while this one runs (pip mostly waits on the network and the
        # disk); a result that load changed is confirmed alone (refsite.commands.compat.run).
        installing = installer.submit(install_into, releases[0], args.envs)
        for number, release in enumerate(releases, 1):
            start = time.monotonic()
            installed = installing.result()
            print(f"== [{number}/{len(releases)}] torch {release}", flush=True)
            if number < len(releases):
                installing = installer.submit(install_into, releases[number], args.envs)
            if measure(release, args.envs, args.keep, command, args.all, args.jobs, args.again, installed,
                       args.repeat) != 0:
                failed.append(release)
            print(f"== torch {release}: done in {time.monotonic() - start:.0f} s", flush=True)
    # Every measurement file, run now or not, with no path of this machine (machine_paths).
    rewritten = [path.name for path in sorted(OUT.glob("torch-*.json")) if machine_paths.normalise_file(path, ROOT)]
    if rewritten:
        print(f"machine paths normalised in {', '.join(rewritten)}", flush=True)
    check()
    if failed:
        print(f"error: the runner failed for torch {', '.join(failed)} (see above); their files were "
              f"not written", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
