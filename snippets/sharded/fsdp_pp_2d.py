"""FSDP2 with pipelining: Schedule1F1B over stages fully_shard-ed on the "dp" dimension of a 2 x
2 mesh.

Run: torchrun --standalone --nproc-per-node=4 fsdp_pp_2d.py
Variants: gloo-cpu, nccl-cuda
GPUs: 4
Timeout: 120
"""
import copy
import gc
import os

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

backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
device_type = os.environ.get("DEVICE", "cpu")
device = torch.device("cpu")
if device_type == "cuda":
    device = torch.device("cuda", int(os.environ["LOCAL_RANK"]))
    torch.cuda.set_device(device)
dist.init_process_group(backend, device_id=device if device.type == "cuda" else None)
rank = dist.get_rank()

# pipeline stages along "pp" (outer), data-parallel replicas along "dp" (inner)
mesh = init_device_mesh(device_type, (2, 2), mesh_dim_names=("pp", "dp"))
pp, dp = mesh.get_local_rank("pp"), mesh.get_local_rank("dp")
torch.manual_seed(0)
full = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 16), nn.ReLU(),
                     nn.Linear(16, 1)).to(device)
reference = copy.deepcopy(full)  # the whole model, trained in one process alongside
part = full[:2] if pp == 0 else full[2:]  # this rank's stage
for layer in part:
    if isinstance(layer, nn.Linear):
        fully_shard(layer, mesh=mesh["dp"])
fully_shard(part, mesh=mesh["dp"])  # the stage module itself: the schedule checks it
stage = PipelineStage(part, stage_index=pp, num_stages=2, device=device,
                      group=mesh["pp"].get_group())  # sends and receives within "pp"
schedule = Schedule1F1B(stage, n_microbatches=4, loss_fn=nn.functional.mse_loss)
optimizer = torch.optim.SGD(part.parameters(), lr=0.05)
reference_optimizer = torch.optim.SGD(reference.parameters(), lr=0.05)
weight = part[0].weight
print(f"rank {rank} (pp, dp) {mesh.get_coordinate()}: stage {pp}, 0.weight"
      f" {list(weight.shape)} {weight.placements}, local {list(weight.to_local().shape)}")

forwards = []  # what the first layer holds when a micro-batch's forward starts
part.register_forward_pre_hook(lambda module, args: forwards.append(
    "sharded" if isinstance(part[0].weight, DTensor) else "gathered"))
reductions = []  # FSDP runs these hooks when a reduced gradient shard lands
for param in part.parameters():
    param.register_post_accumulate_grad_hook(reductions.append)
n_params = len(list(part.parameters()))


def check(step, losses, n_batches):
    """This rank's result against one process running the whole model on the whole batches."""
    reference_optimizer.zero_grad()
    nn.functional.mse_loss(reference(xs[:n_batches]), ys[:n_batches]).backward()
    if stage.is_last:  # the losses of this replica's micro-batches
        with torch.no_grad():
            output = reference(xs[:n_batches, rows])
            expected = nn.functional.mse_loss(output, ys[:n_batches, rows]).item()
        loss = torch.stack(losses).mean().item()
        print(f"rank {rank} step {step} loss {loss:.4f} reference {expected:.4f}"
              f" equal {abs(loss - expected) < 1e-5}")
    else:  # the first stage has no loss: its gradient shards, cut the same way
        mine, cut = [], []
        for param, full_param in zip(part.parameters(), reference[:2].parameters()):
            mine.append(param.grad.to_local())
            cut.append(distribute_tensor(full_param.grad, param.grad.device_mesh,
                                         param.grad.placements, src_data_rank=None).to_local())
        same = all(torch.allclose(a, b, atol=1e-6) for a, b in zip(mine, cut))
        norm, expected = (torch.cat([g.flatten() for g in grads]).norm().item()
                          for grads in (mine, cut))
        print(f"rank {rank} step {step} gradient shards: norm {norm:.4f}"
              f" reference {expected:.4f} equal {same}")
    optimizer.step()
    reference_optimizer.step()


torch.manual_seed(1)
xs = torch.randn(2, 16, 8, device=device)  # two batches of 16 rows
ys = xs.sum(dim=2, keepdim=True)  # a target the model can learn
rows = slice(8 * dp, 8 * dp + 8)  # each "dp" replica takes half of a batch
for step in range(2):
    optimizer.zero_grad()
    forwards.clear()
    reductions.clear()
    losses = []
    if stage.is_first:
        schedule.step(xs[0, rows])
    else:
        schedule.step(target=ys[0, rows], losses=losses)
    if step == 1:  # step 0 also runs the shape-inference pass
        print(f"rank {rank} step 1: 0.weight at each micro-batch's forward:"
              f" {', '.join(forwards)}; gradient reductions per parameter:"
              f" {len(reductions) // n_params}; after step() 0.weight is"
              f" {type(part[0].weight).__name__}")
    check(step, losses, 1)

# Gradient accumulation over two step() calls, one per batch: the micro-batches keep
# their shape (the first step() fixed it). Reduce and reshard after the second call only.
optimizer.zero_grad()
reductions.clear()
losses = []
for batch in (0, 1):
    finalize = batch == 1
    mine = []  # step() clears the list it is given
    if stage.is_first:
        schedule.step(xs[batch, rows], finalize_gradients=finalize)
    else:
        schedule.step(target=ys[batch, rows], losses=mine, finalize_gradients=finalize)
        losses += mine
    print(f"rank {rank} step 2 after step(finalize_gradients={finalize}): 0.weight is"
          f" {type(part[0].weight).__name__}, reductions per parameter"
          f" {len(reductions) // n_params}")
for param in part.parameters():
    param.grad.div_(2)  # the schedule divided by 4 micro-batches, not by 2 calls of 4
check(2, losses, 2)

reductions.clear()  # it holds the parameters
del schedule, stage, optimizer, part, full, layer, weight, param, losses, mine, mesh
gc.collect()  # FSDP's modules, hooks and graphs form cycles: free them now
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
