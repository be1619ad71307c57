"""Check the virtual environment after `make` installed it: the pinned torch, exactly.

Usage: python -m refsite.commands.check_install TORCH_VERSION

On Linux, PyPI serves torch with its CUDA libraries; that build runs on the CPU of a machine
without an NVIDIA driver (every CPU variant), so it is accepted there and said so in one line.
"""

import importlib.metadata
import shutil
import sys


def main(wanted: str) -> int:
    installed = importlib.metadata.version("torch")
    if installed.split("+")[0] != wanted:
        print(f"error: torch {installed} is installed in .venv, but TORCH={wanted} was asked for; "
              f"remove .venv and run make again", file=sys.stderr)
        return 1
    cuda_packages = [d.metadata["Name"] for d in importlib.metadata.distributions()
                     if d.metadata["Name"].lower().startswith("nvidia-")]
    note = ""
    if cuda_packages and shutil.which("nvidia-smi") is None:
        note = (f" (the CUDA build, {len(cuda_packages)} CUDA packages, on a machine without an NVIDIA "
                f"driver: it runs the CPU variants; TORCH_INDEX=https://download.pytorch.org/whl/cpu "
                f"installs the smaller CPU build)")
    elif cuda_packages:
        note = " (the CUDA build)"
    print(f"torch {installed} installed{note}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
