"""Check the virtual environment after `make` installed it: the pinned torch, and no stray GPU stack.

Usage: python tests/check_install.py TORCH_VERSION
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
    gpu_packages = sorted(d.metadata["Name"] for d in importlib.metadata.distributions()
                          if d.metadata["Name"].lower().startswith("nvidia-"))
    if gpu_packages and shutil.which("nvidia-smi") is None:
        print(f"error: this machine has no NVIDIA driver, yet pip installed {len(gpu_packages)} CUDA "
              f"packages ({', '.join(gpu_packages[:3])}, ...) with torch {installed}. Remove .venv and "
              f"run again with the CPU build: make TORCH_INDEX=https://download.pytorch.org/whl/cpu ...",
              file=sys.stderr)
        return 1
    print(f"torch {installed} installed", "(with CUDA packages)" if gpu_packages else "")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
