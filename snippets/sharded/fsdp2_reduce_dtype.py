"""MixedPrecisionPolicy: reduce_dtype, output_dtype and cast_forward_inputs, seen per rank.

Run: torchrun --standalone --nproc-per-node=2 fsdp2_reduce_dtype.py
Variants: gloo-cpu, nccl-cuda
"""
import gc
import os

import torch
import torch.distributed as dist
# Before init_process_group: imported later (as optimizers do), it keeps a reference
# to the default group, and destroy_process_group() cannot free it (torch 2.15).
import torch.distributed.nn  # noqa: F401
from torch import nn
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard

backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
device_type = os.environ.get("DEVICE", "cpu")
device_id = None
if device_type == "cuda":
    device_id = torch.device("cuda", int(os.environ["LOCAL_RANK"]))
    torch.cuda.set_device(device_id)
dist.init_process_group(backend, device_id=device_id)
rank = dist.get_rank()

mesh = init_device_mesh(device_type, (2,))
reduced = []


class LoggedReduceScatter:
    """The default reduce-scatter, plus the dtype it reduces in: set_custom_reduce_scatter."""

    def allocate(self, size, *, dtype, device):
        return torch.empty(size, dtype=dtype, device=device)

    def __call__(self, output_tensor, input_tensor, group, op, async_op=False):
        reduced.append(input_tensor.dtype)
        return dist.reduce_scatter_tensor(output_tensor, input_tensor, op=op, group=group,
                                          async_op=async_op)


policies = {
    "reduce_dtype None": MixedPrecisionPolicy(param_dtype=torch.bfloat16),
    "reduce float32": MixedPrecisionPolicy(param_dtype=torch.bfloat16,
                                           reduce_dtype=torch.float32),
    "reduce bfloat16": MixedPrecisionPolicy(param_dtype=torch.bfloat16,
                                            reduce_dtype=torch.bfloat16),
    "output float32": MixedPrecisionPolicy(param_dtype=torch.bfloat16,
                                           output_dtype=torch.float32),
    "no input cast": MixedPrecisionPolicy(param_dtype=torch.bfloat16,
                                          cast_forward_inputs=False),
}
for name, policy in policies.items():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 2)).to(device_type)
    for module in (model[0], model[2]):
        fully_shard(module, mesh=mesh, mp_policy=policy)
        module.set_custom_reduce_scatter(LoggedReduceScatter())
    fully_shard(model, mesh=mesh, mp_policy=policy)
    seen = []
    model[0].register_forward_pre_hook(lambda m, args: seen.append(args[0].dtype))
    try:
        out = model(torch.ones(2, 4, device=device_type))
        out.float().sum().backward()
        grad = model[0].weight.grad.to_local()
        print(f"rank {rank} {name}: layer input {seen[0]}, output {out.dtype},"
              f" reduce-scatter in {reduced[0]}, gradient shard {grad.dtype}")
        del out, grad
    except RuntimeError as exc:  # printed on purpose
        print(f"rank {rank} {name}: RuntimeError: {str(exc).splitlines()[0]}")
    reduced.clear()
    del model, module

del mesh
gc.collect()  # FSDP's modules, hooks and graphs form cycles: free them now
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
