"""FSDP2 under pipelining: reshard_after_forward=True (the default) against False, the
all-gathers of one Schedule1F1B step of 4 micro-batches counted with CommDebugMode on a 2 x 2
mesh.

Run: torchrun --standalone --nproc-per-node=4 fsdp_pp_reshard.py
Variants: gloo-cpu, nccl-cuda
GPUs: 4
Timeout: 120
"""
import contextlib
import copy
import gc
import os
import warnings

import torch
import torch.distributed as dist
# Before init_process_group: imported later (as optimizers do), it keeps a reference
# to the default group, and destroy_process_group() cannot free it (torch 2.15).
import torch.distributed.nn  # noqa: F401
from torch import nn
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import fully_shard
from torch.distributed.pipelining import PipelineStage, Schedule1F1B
from torch.distributed.tensor import DTensor, distribute_tensor
from torch.distributed.tensor.debug import CommDebugMode

backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
device_type = os.environ.get("DEVICE", "cpu")
device = torch.device("cpu")
if device_type == "cuda":
    device = torch.device("cuda", int(os.environ["LOCAL_RANK"]))
    torch.cuda.set_device(device)
dist.init_process_group(backend, device_id=device if device.type == "cuda" else None)
rank = dist.get_rank()

# CommDebugMode's module backward hook turns each module's output into a view, and FSDP2 warns
# about a view returned by the stage module: an in-place op on it would skip FSDP's hooks.
warnings.filterwarnings("ignore", message="FSDP2-wrapped module .* returned a view")

# pipeline stages along "pp" (outer), data-parallel replicas along "dp" (inner)
mesh = init_device_mesh(device_type, (2, 2), mesh_dim_names=("pp", "dp"))
pp, dp = mesh.get_local_rank("pp"), mesh.get_local_rank("dp")
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 16), nn.ReLU(),
                      nn.Linear(16, 1)).to(device)
torch.manual_seed(1)
xs = torch.randn(16, 8, device=device)
ys = xs.sum(dim=1, keepdim=True)  # a target the model can learn
rows = slice(8 * dp, 8 * dp + 8)  # each "dp" replica takes half of the batch


def count(comm, name):
    """Collectives whose op name contains `name`, from CommDebugMode's counts."""
    return sum(n for op, n in comm.get_comm_counts().items() if name in str(op))


def state():
    return "sharded" if isinstance(part[0].weight, DTensor) else "gathered"


def check(setting, losses):
    """This rank's result against one process running the whole model on the whole batch."""
    reference_optimizer.zero_grad()
    nn.functional.mse_loss(reference(xs), ys).backward()
    if stage.is_last:  # the losses of this replica's micro-batches
        with torch.no_grad():
            expected = nn.functional.mse_loss(reference(xs[rows]), ys[rows]).item()
        loss = torch.stack(losses).mean().item()
        print(f"{setting} loss {loss:.4f} reference {expected:.4f}"
              f" equal {abs(loss - expected) < 1e-5}")
    else:  # the first stage has no loss: its gradient shards, cut the same way
        mine, cut = [], []
        for param, full_param in zip(part.parameters(), reference[:2].parameters()):
            mine.append(param.grad.to_local())
            cut.append(distribute_tensor(full_param.grad, param.grad.device_mesh,
                                         param.grad.placements, src_data_rank=None).to_local())
        same = all(torch.allclose(a, b, atol=1e-6) for a, b in zip(mine, cut))
        print(f"{setting} gradient shards equal {same}")


for reshard in (True, False):
    full = copy.deepcopy(model)  # both settings start from the same weights
    reference = copy.deepcopy(model)  # the whole model, trained in one process alongside
    part = full[:2] if pp == 0 else full[2:]  # this rank's stage
    n_layers = 0
    for layer in part:
        if isinstance(layer, nn.Linear):
            fully_shard(layer, mesh=mesh["dp"], reshard_after_forward=reshard)
            n_layers += 1
    fully_shard(part, mesh=mesh["dp"], reshard_after_forward=reshard)
    stage = PipelineStage(part, stage_index=pp, num_stages=2, device=device,
                          group=mesh["pp"].get_group())
    schedule = Schedule1F1B(stage, n_microbatches=4, loss_fn=nn.functional.mse_loss)
    optimizer = torch.optim.SGD(part.parameters(), lr=0.05)
    reference_optimizer = torch.optim.SGD(reference.parameters(), lr=0.05)
    starts, ends = [], []  # what the first layer holds when each forward starts and ends
    hooks = [part.register_forward_pre_hook(lambda module, args: starts.append(state())),
             part.register_forward_hook(lambda module, args, out: ends.append(state()))]
    for step in range(2):
        optimizer.zero_grad()
        starts.clear()
        ends.clear()
        losses = []
        # Not around step 0: its shape-inference pass fails under CommDebugMode (torch 2.15)
        comm = CommDebugMode() if step == 1 else contextlib.nullcontext()
        with comm:
            if stage.is_first:
                schedule.step(xs[rows])
            else:
                schedule.step(target=ys[rows], losses=losses)
        setting = f"rank {rank} reshard_after_forward={reshard} step {step}"
        if step == 1:
            print(f"{setting}: all-gathers {count(comm, 'allgather')}, reduce-scatters"
                  f" {count(comm, 'reduce_scatter')}, sharded layers {n_layers}")
            print(f"{setting}: first layer at forward start {', '.join(starts)};"
                  f" at forward end {', '.join(ends)}")
        check(setting, losses)
        optimizer.step()
        reference_optimizer.step()
    for hook in hooks:
        hook.remove()
    del schedule, stage, optimizer, part, full, losses, hooks, hook
    gc.collect()  # FSDP's modules, hooks and graphs form cycles: free them now

del layer, mesh
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
