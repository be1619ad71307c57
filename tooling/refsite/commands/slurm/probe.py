"""What ran a doctest job (``make doctest-slurm``), as JSON on stdout: the torch release, and
the GPUs the job's first node was given (model, count, driver, CUDA, NCCL). No host names.
Copied into each job's directory and run there with the job's Python: torch only."""

import json
import subprocess

import torch

found = {"torch": torch.__version__, "cuda_devices": torch.cuda.device_count()}
if found["cuda_devices"]:
    try:
        smi = subprocess.run(["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"],
                             capture_output=True, text=True, timeout=30).stdout.split()
    except (OSError, subprocess.TimeoutExpired):
        smi = []
    nccl = torch.cuda.nccl.version() if torch.distributed.is_nccl_available() else ""
    found["gpu"] = {"model": torch.cuda.get_device_name(0), "driver": smi[0] if smi else "",
                    "cuda": torch.version.cuda or "",
                    "nccl": ".".join(map(str, nccl)) if isinstance(nccl, tuple) else str(nccl)}
print(json.dumps(found))
