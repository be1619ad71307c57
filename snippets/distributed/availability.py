"""Which backends this build of torch has, and the debug level chosen at run time.

The is_*_available() functions need no process group; they report what was compiled in
(this record comes from a CUDA build from PyPI). set_debug_level() changes what
TORCH_DISTRIBUTED_DEBUG chose at startup; process groups created afterwards follow it.

Run: python availability.py
Variants: cpu
"""
import torch.distributed as dist

print(f"is_available():      {dist.is_available()}")
print(f"is_gloo_available(): {dist.is_gloo_available()}")
print(f"is_nccl_available(): {dist.is_nccl_available()}")
print(f"is_mpi_available():  {dist.is_mpi_available()}")
print(f"is_ucc_available():  {dist.is_ucc_available()}")
print(f"is_xccl_available(): {dist.is_xccl_available()}")  # Intel GPUs

# from TORCH_DISTRIBUTED_DEBUG, unset here
print(f"get_debug_level() at start: {dist.get_debug_level()}")
dist.set_debug_level(dist.DebugLevel.DETAIL)
print(f"after set_debug_level(DebugLevel.DETAIL): {dist.get_debug_level()}")
dist.set_debug_level(dist.DebugLevel.OFF)
print(f"after set_debug_level(DebugLevel.OFF): {dist.get_debug_level()}")
