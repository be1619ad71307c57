"""param_dtype_override_fn: gather most weights in bfloat16, keep a router in float32.

Run: torchrun --standalone --nproc-per-node=2 fsdp2_param_dtype_override.py
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


class Block(nn.Module):
    """A gated layer whose router computes in float32."""

    def __init__(self):
        super().__init__()
        self.router = nn.Linear(4, 1)
        self.proj = nn.Linear(4, 4)

    def forward(self, x):
        gate = torch.sigmoid(self.router(x.float()))  # the input arrives in bfloat16
        return self.proj(x) * gate.to(x.dtype)


gathered = []


class LoggedAllGather:
    """The default all-gather, plus the dtype it sends: set with set_custom_all_gather."""

    def __init__(self, name):
        self.name = name

    def allocate(self, size, *, dtype, device):
        return torch.empty(size, dtype=dtype, device=device)

    def __call__(self, output_tensor, input_tensor, group, async_op=False):
        gathered.append(f"{self.name} {input_tensor.dtype}")
        return dist.all_gather_into_tensor(output_tensor, input_tensor, group=group,
                                           async_op=async_op)


mesh = init_device_mesh(device_type, (2,))
torch.manual_seed(0)
model = nn.Sequential(Block(), nn.Linear(4, 2)).to(device_type)
router = {id(p) for p in model[0].router.parameters()}


def keep_router(param):  # called once per parameter, by fully_shard
    return param.dtype if id(param) in router else None  # None: param_dtype


policy = MixedPrecisionPolicy(param_dtype=torch.bfloat16, reduce_dtype=torch.float32,
                              param_dtype_override_fn=keep_router)
for name, module in (("block", model[0]), ("head", model[1])):
    fully_shard(module, mesh=mesh, mp_policy=policy)
    module.set_custom_all_gather(LoggedAllGather(name))
fully_shard(model, mesh=mesh, mp_policy=policy)


def show_dtypes(module, args):
    dtypes = ", ".join(f"{n} {p.dtype}" for n, p in module.named_parameters())
    print(f"rank {rank} in forward: {dtypes}")


model[0].register_forward_pre_hook(show_dtypes)
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
torch.manual_seed(1 + rank)
out = model(torch.randn(3, 4, device=device_type))
out.float().pow(2).mean().backward()
optimizer.step()
print(f"rank {rank} output {out.dtype}")
print(f"rank {rank} all-gathers, forward then backward: {', '.join(gathered)}")
params = list(model.parameters())
shards = {p.to_local().dtype for p in params}
grads = {p.grad.to_local().dtype for p in params}
states = {optimizer.state[p]["exp_avg"].dtype for p in params}
print(f"rank {rank} all {len(params)} parameters: shards {shards}, gradients {grads},"
      f" Adam exp_avg {states}")

half = MixedPrecisionPolicy(param_dtype=torch.bfloat16,
                            param_dtype_override_fn=lambda param: torch.float16)
try:  # only param_dtype or the parameter's own dtype are allowed
    fully_shard(nn.Linear(4, 4).to(device_type), mesh=mesh, mp_policy=half)
except ValueError as error:
    print(f"rank {rank} ValueError: {error}")

del model, optimizer, out, params, module, mesh
gc.collect()  # FSDP's modules, hooks and graphs form cycles: free them now
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
