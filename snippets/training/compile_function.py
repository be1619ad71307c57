"""torch.compile on a function: the first call captures a graph and compiles it (inductor, the
default backend, generates C++ on the CPU and Triton on a GPU), later calls run the compiled
code, and the results equal the eager ones up to float rounding. save_cache_artifacts() packs
the compiled code for another process.

Run: python compile_function.py
"""
import time

import torch


def gated(x, y):
    return torch.nn.functional.gelu(x) * torch.sigmoid(y) + x.mean(dim=0)


print("default backend:", torch.compiler.get_default_backend())
print("backends:", torch.compiler.list_backends())

torch.manual_seed(0)
x, y = torch.randn(64, 32), torch.randn(64, 32)
compiled = torch.compile(gated)  # mode="default": nothing is compiled yet

start = time.perf_counter()
out = compiled(x, y)  # the first call traces and compiles
first = time.perf_counter() - start
start = time.perf_counter()
compiled(x, y)  # same shapes and dtypes: the compiled code runs at once
second = time.perf_counter() - start
print("first call much slower than the second:", first > 10 * second)
print("same as eager:", torch.allclose(out, gated(x, y), atol=1e-6))


@torch.compile  # the decorator form: compiled at the first call too
def rms_norm(x):
    return x * torch.rsqrt(x.pow(2).mean(dim=-1, keepdim=True) + 1e-6)


print("decorated, same as eager:",
      torch.allclose(rms_norm(x), x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6)))

# What this process compiled, as bytes: another process loads them before its first call
data, info = torch.compiler.save_cache_artifacts()
print("saved:", type(data).__name__, len(info.inductor_artifacts), "inductor graphs")
loaded = torch.compiler.load_cache_artifacts(data)  # in a new process, a new machine
print("loaded:", len(loaded.inductor_artifacts), "inductor graphs")
