"""context_parallel's pitfalls: the sequence length decides how the buffers are split (nothing
is raised), a model that imported scaled_dot_product_attention by name escapes the
replacement and attends within its own shard, and the keys and values are all-gathered.

Run: torchrun --standalone --nproc-per-node=2 context_parallel_pitfalls.py
Variants: gloo-cpu, nccl-cuda
"""
import gc
import os

import torch
import torch.distributed as dist
# Before init_process_group: imported later (as optimizers do), it keeps a reference
# to the default group, and destroy_process_group() cannot free it (torch 2.15).
import torch.distributed.nn  # noqa: F401
import torch.nn.functional as F
from torch import nn
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor.debug import CommDebugMode
from torch.distributed.tensor.experimental import context_parallel
from torch.nn.attention import SDPBackend, sdpa_kernel
# What some model files do: the name is bound to the original function, at import
from torch.nn.functional import scaled_dot_product_attention

backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
device_type = os.environ.get("DEVICE", "cpu")
device_id = None
if device_type == "cuda":
    device_id = torch.device("cuda", int(os.environ["LOCAL_RANK"]))
    torch.cuda.set_device(device_id)
dist.init_process_group(backend, device_id=device_id)
rank = dist.get_rank()
mesh = init_device_mesh(device_type, (2,), mesh_dim_names=("cp",))

# 1. Any length is accepted: divisible by 2 x 2 ranks it is balanced (head and tail chunks),
# divisible by 2 it is split in two halves, otherwise the halves are unequal.
for length in (8, 6, 5):
    positions = torch.arange(length, device=device_type)
    with context_parallel(mesh, buffers=[positions], buffer_seq_dims=[0]):
        print(f"rank {rank} length {length}: holds positions {positions.tolist()}")


class Attention(nn.Module):
    """Self-attention over (batch, sequence, 8) with 2 heads, no mask."""

    def __init__(self):
        super().__init__()
        self.qkv = nn.Linear(8, 24, bias=False)

    def forward(self, x, by_name):
        b, s, _ = x.shape
        # SDPA's layout: (batch, heads, sequence, head dim); the sequence is dimension 2
        q, k, v = self.qkv(x).view(b, s, 3, 2, 4).permute(2, 0, 3, 1, 4)
        # F.scaled_dot_product_attention is looked up at each call: context_parallel's
        # replacement; the name imported above is still the original function.
        attention = scaled_dot_product_attention if by_name else F.scaled_dot_product_attention
        return attention(q, k, v).transpose(1, 2).reshape(b, s, 8)


torch.manual_seed(0)
model = Attention().to(device_type)
x = torch.randn(2, 8, 8, device=device_type)  # the same batch on every rank
# The math kernel: the one whose operations DTensor can shard, on CPU too (non-causal only)
with sdpa_kernel(SDPBackend.MATH), torch.no_grad():
    expected = model(x, by_name=False)  # one process, whole sequence
    for label, by_name in (("F.scaled_dot_product_attention", False),
                           ("imported by name", True)):
        tokens, positions = x.clone(), torch.arange(8, device=device_type)
        with context_parallel(mesh, buffers=[tokens, positions], buffer_seq_dims=[1, 0]):
            with CommDebugMode() as comm:
                out = model(tokens, by_name)
            counts = {str(op).split(".")[-1]: n for op, n in comm.get_comm_counts().items()}
            print(f"rank {rank} {label}: x {list(tokens.shape)}, output {list(out.shape)},"
                  f" collectives {counts}")
            # gather the output and the positions, then put the tokens back in order
            gathered = [torch.empty_like(out) for _ in range(2)]
            dist.all_gather(gathered, out.contiguous())
            order = [torch.empty_like(positions) for _ in range(2)]
            dist.all_gather(order, positions)
            full = torch.empty_like(expected)
            full[:, torch.cat(order)] = torch.cat(gathered, dim=1)
        print(f"rank {rank} {label}: output equal to one process's"
              f" {torch.allclose(full, expected, atol=1e-5)}")

del mesh
gc.collect()
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
