"""Backend flags: module attributes that choose kernels. Read their defaults, set one for the
whole run, or for one block with a context manager that restores it.

Run: python backend_flags.py
"""
import torch
from torch.backends import cudnn

print("cudnn enabled, benchmark, deterministic:", cudnn.enabled, cudnn.benchmark,
      cudnn.deterministic)
print("cudnn allow_tf32:", cudnn.allow_tf32)  # convolutions: TF32 allowed by default
print("cudnn benchmark_limit:", cudnn.benchmark_limit)  # algorithms tried when benchmarking
print("matmul allow_tf32:", torch.backends.cuda.matmul.allow_tf32)  # matrix products: not
# float16/bfloat16 products may sum in 16 bits
print("reduced precision:", torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction,
      torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction)
print("precision:", torch.get_float32_matmul_precision())

# "high" allows TF32 in float32 matrix products: the CUDA flag follows
torch.set_float32_matmul_precision("high")
print(torch.get_float32_matmul_precision(), torch.backends.cuda.matmul.allow_tf32)
torch.set_float32_matmul_precision("highest")
print(torch.get_float32_matmul_precision(), torch.backends.cuda.matmul.allow_tf32)

# For the whole run: assign once, at the start
torch.backends.cudnn.benchmark = True
print("benchmark:", torch.backends.cudnn.benchmark)
torch.backends.cudnn.benchmark = False

# For one block: flags() sets them all (enabled defaults to False!) and restores on exit
with torch.backends.cudnn.flags(enabled=True, deterministic=True):
    print("inside:", cudnn.enabled, cudnn.deterministic)
print("after:", cudnn.enabled, cudnn.deterministic)

# Deterministic algorithms: a switch for every operation, apart from cudnn.deterministic
torch.use_deterministic_algorithms(True)
print("deterministic:", torch.are_deterministic_algorithms_enabled(), cudnn.deterministic)
torch.use_deterministic_algorithms(False)

# oneDNN (mkldnn) is on by default; opt_einsum only where its package is installed
print("mkldnn enabled:", torch.backends.mkldnn.enabled)
print("opt_einsum:",
      torch.backends.opt_einsum.enabled == torch.backends.opt_einsum.is_available(),
      torch.backends.opt_einsum.strategy in (None, "auto"))
# Which libraries are present differs between machines: print the types only
for found in (torch.backends.cuda.is_built(), cudnn.is_available(),
              torch.backends.mps.is_available(), torch.backends.mps.is_built(),
              torch.backends.mkldnn.is_available(),
              torch.backends.mkl.is_available(), torch.backends.openmp.is_available(),
              torch.backends.cpu.get_cpu_capability()):
    print(type(found).__name__, end=" ")
print()
print(cudnn.version() is None or cudnn.version() > 0)  # None without cuDNN
