"""context_parallel: shard the sequence of the batch (and of any tensor indexed by position)
over the ranks, and run scaled_dot_product_attention as ring attention. On GPUs it compares the
output and the gradients with one process's; on CPU the buffers are sharded and SDPA raises.

Run: torchrun --standalone --nproc-per-node=2 context_parallel.py
Variants: gloo-cpu, nccl-cuda
"""
import copy
import os

import torch
import torch.distributed as dist
# Before init_process_group: imported later (as optimizers do), it keeps a reference
# to the default group, and destroy_process_group() cannot free it (torch 2.15).
import torch.distributed.nn  # noqa: F401
import torch.nn.functional as F
from torch import nn
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor.experimental import context_parallel

backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
device_type = os.environ.get("DEVICE", "cpu")
device_id = None
if device_type == "cuda":
    device_id = torch.device("cuda", int(os.environ["LOCAL_RANK"]))
    torch.cuda.set_device(device_id)
dist.init_process_group(backend, device_id=device_id)
rank = dist.get_rank()
mesh = init_device_mesh(device_type, (2,), mesh_dim_names=("cp",))


class Attention(nn.Module):
    """Causal self-attention over (batch, sequence, 16) with 2 heads, plus positions."""

    def __init__(self):
        super().__init__()
        self.qkv = nn.Linear(16, 48, bias=False)
        self.position = nn.Embedding(128, 16)
        self.out = nn.Linear(16, 16, bias=False)

    def forward(self, x, positions):
        b, s, _ = x.shape
        x = x + self.position(positions)
        # SDPA's layout: (batch, heads, sequence, head dim); the sequence is dimension 2
        q, k, v = self.qkv(x).view(b, s, 3, 2, 8).permute(2, 0, 3, 1, 4)
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.out(y.transpose(1, 2).reshape(b, s, 16))


torch.manual_seed(0)
model = Attention().to(device_type)
reference = copy.deepcopy(model)
# 128 tokens, two chunks of 32 per rank: on CUDA the memory-efficient kernel pads its
# log-sum-exp to a multiple of 32 tokens, and ring attention's merge fails on padding.
x = torch.randn(2, 128, 16, device=device_type)  # the same batch on every rank
target = torch.randn(2, 128, 16, device=device_type)
positions = torch.arange(128, device=device_type)
expected = reference(x, positions)
F.mse_loss(expected, target).backward()

# Buffers: every tensor with a sequence dimension that the step reads, sharded in place and
# restored at the exit, except those in no_restore_buffers.
with context_parallel(mesh, buffers=[x, target, positions], buffer_seq_dims=[1, 1, 0],
                      no_restore_buffers={target}):
    # this rank's two chunks, each as its first and last position
    chunks = [f"{chunk[0]}-{chunk[-1]}" for chunk in positions.view(2, -1).tolist()]
    print(f"rank {rank}: x {list(x.shape)}, holds positions {' and '.join(chunks)}")
    try:
        out = model(x, positions)  # this rank's positions only
        F.mse_loss(out, target).backward()
        # gather the output and the positions, then put the tokens back in order
        gathered = [torch.empty_like(out) for _ in range(2)]
        dist.all_gather(gathered, out.detach().contiguous())
        order = [torch.empty_like(positions) for _ in range(2)]
        dist.all_gather(order, positions)
        full = torch.empty_like(expected)
        full[:, torch.cat(order)] = torch.cat(gathered, dim=1)
        print(f"rank {rank}: output equal to one process's:"
              f" {torch.allclose(full, expected, atol=1e-5)}")
        for param in model.parameters():  # each rank saw half the tokens: average
            dist.all_reduce(param.grad, op=dist.ReduceOp.AVG)
        same = all(torch.allclose(p.grad, r.grad, atol=1e-5)
                   for p, r in zip(model.parameters(), reference.parameters()))
        print(f"rank {rank}: gradients equal to one process's: {same}")
    except NotImplementedError as error:  # printed on purpose: CPU attention has no CP rule
        print(f"rank {rank}: NotImplementedError: {error}")
print(f"rank {rank}: after the context: x {list(x.shape)}, positions {list(positions.shape)},"
      f" target {list(target.shape)}")

del mesh
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
