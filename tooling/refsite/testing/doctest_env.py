"""``make doctest TORCH=system``: complete an environment whose torch is already installed.

A GPU runner is often a container or a cluster node with its own torch (NVIDIA's PyTorch
containers, a site module) and no package registry. ``make`` then makes ``.venv-system`` from
that ``PYTHON`` and runs this script in it: it puts ``PYTHON``'s own package folders on the new
environment's path (a ``.pth`` file, after the environment's own: so this works whether
``PYTHON`` is a system interpreter, a conda environment or another virtual environment, which
``--system-site-packages`` would not see through). Then the runner's own tools
(:data:`RUNNER_TOOLS`: pytest and its plugins, and setuptools, which builds the project's two
packages) are installed at their pins unless the interpreter has exactly those; what the
snippets import (numpy, ...) is the interpreter's own, whatever its version (said in one line
each), and installed at its pin only where it is missing. Installs come from ``--wheelhouse``
alone (``pip install --no-index``) when one is given. ``make wheelhouse`` fills such a directory on a
machine that reaches the registry. Standard library only: it runs before ``refsite`` is installed.

Usage: python doctest_env.py REQUIREMENTS --runner-python PYTHON [--wheelhouse DIR]
"""

from __future__ import annotations

import argparse
import importlib.metadata
import re
import subprocess
import sys
import sysconfig
from pathlib import Path

#: The harness's own tools: always at their pins (an image's older pytest or setuptools, which a
#: venv of Python 3.11 brings, would fail in ways that say nothing about the snippets).
RUNNER_TOOLS = ("pytest", "pytest-xdist", "pytest-timeout", "setuptools")
#: The file that puts the runner interpreter's package folders on this environment's path.
PTH = "runner-python.pth"
_ASK_FOLDERS = ("import site, sysconfig; paths = sysconfig.get_paths(); "
                "print('\\n'.join(dict.fromkeys([paths['purelib'], paths['platlib'], *site.getsitepackages()])))")


def see_runner_packages(runner: str) -> list[str]:
    """Write :data:`PTH` with the package folders of ``runner``; return them."""
    done = subprocess.run([runner, "-c", _ASK_FOLDERS], capture_output=True, text=True, check=True)
    folders = [line for line in done.stdout.splitlines() if Path(line).is_dir()]
    Path(sysconfig.get_paths()["purelib"], PTH).write_text("".join(f"{f}\n" for f in folders))
    return folders


def pins(requirements: Path) -> dict[str, str]:
    """``name -> version`` of every ``name==version`` line."""
    found = re.findall(r"^([A-Za-z0-9_.-]+)==(\S+)", requirements.read_text(encoding="utf-8"), re.M)
    return dict(found)


def installed(name: str) -> str | None:
    """The version of ``name`` this environment sees (its own or the runner's), if any."""
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("requirements", type=Path)
    parser.add_argument("--runner-python", required=True, help="the interpreter whose torch runs the snippets")
    parser.add_argument("--wheelhouse", type=Path, default=None,
                        help="install from this directory only (no registry)")
    args = parser.parse_args()
    folders = see_runner_packages(args.runner_python)
    importlib.invalidate_caches()
    sys.path.extend(f for f in folders if f not in sys.path)
    torch = installed("torch")
    if torch is None:
        print(f"error: TORCH=system, but PYTHON={args.runner_python} has no torch in "
              f"{', '.join(folders)}; point "
              f"PYTHON at the interpreter that has it (e.g. make doctest TORCH=system "
              f"PYTHON=/opt/conda/bin/python3), or leave TORCH at the pin", file=sys.stderr)
        return 1
    print(f"torch {torch} from {args.runner_python} (TORCH=system: not installed, not checked against the pin)")
    missing = []
    for name, version in pins(args.requirements).items():
        have = installed(name)
        if have is None or (name in RUNNER_TOOLS and have != version):
            missing.append(f"{name}=={version}")
        else:
            print(f"  {name} {have} kept" + ("" if have == version else f" (the pin is {version})"))
    if not missing:
        return 0
    where = ["--no-index", "--find-links", str(args.wheelhouse)] if args.wheelhouse else []
    if args.wheelhouse and not args.wheelhouse.is_dir():
        print(f"error: WHEELHOUSE={args.wheelhouse} is not a directory; fill one on a machine that "
              f"reaches the registry with 'make wheelhouse' and bring it along", file=sys.stderr)
        return 1
    print(f"  installing {' '.join(missing)}" + (f" from {args.wheelhouse}" if where else ""))
    done = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", *where, *missing])
    if done.returncode != 0:
        hint = (f"is every wheel in {args.wheelhouse}? ('make wheelhouse' on a connected machine, "
                f"for this machine's Python and platform)" if where else
                "this machine reaches no registry? set WHEELHOUSE (see 'make wheelhouse')")
        print(f"error: pip could not install {' '.join(missing)}: {hint}", file=sys.stderr)
    return done.returncode


if __name__ == "__main__":
    sys.exit(main())
