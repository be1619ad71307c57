"""3-D parallelism: pipeline stages over "pp", FSDP2 over "dp", tensor parallel over "tp" (2 x 2
x 2).

Run: torchrun --standalone --nproc-per-node=8 fsdp_tp_pp_3d.py
Variants: gloo-cpu, nccl-cuda
GPUs: 8
Timeout: 180
"""
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
from torch.distributed.pipelining import PipelineStage, ScheduleGPipe
from torch.distributed.tensor import distribute_tensor
from torch.distributed.tensor.parallel import (
    ColwiseParallel,
    RowwiseParallel,
    parallelize_module,
)

backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
device_type = os.environ.get("DEVICE", "cpu")
device = torch.device("cpu")
if device_type == "cuda":
    device = torch.device("cuda", int(os.environ["LOCAL_RANK"]))
    torch.cuda.set_device(device)
dist.init_process_group(backend, device_id=device if device.type == "cuda" else None)
rank = dist.get_rank()

# FSDP2 warns when the root's output is a view (the tensor parallel output is one):
# an in-place op on it would skip FSDP's hooks. The schedule does none.
warnings.filterwarnings("ignore", message="FSDP2-wrapped module .* returned a view")


class Block(nn.Module):
    """An MLP block; a stage holds whole blocks, as a transformer stage holds whole layers."""

    def __init__(self):
        super().__init__()
        self.up, self.down = nn.Linear(8, 32), nn.Linear(32, 8)

    def forward(self, x):
        return self.down(torch.relu(self.up(x)))


# "pp" outermost, "tp" innermost: the ranks of a tensor parallel group are neighbours
mesh = init_device_mesh(device_type, (2, 2, 2), mesh_dim_names=("pp", "dp", "tp"))
pp, dp = mesh.get_local_rank("pp"), mesh.get_local_rank("dp")
torch.manual_seed(0)
blocks = [Block().to(device) for _ in range(2)]
reference = nn.Sequential(*copy.deepcopy(blocks))  # the whole model, in one process
block = blocks[pp]  # this rank's stage
# 1. tensor parallel inside the stage, on "tp"
parallelize_module(block, mesh["tp"], {"up": ColwiseParallel(), "down": RowwiseParallel()})
# 2. FSDP on "dp": each layer, then the stage module
fully_shard(block.up, mesh=mesh["dp"])
fully_shard(block.down, mesh=mesh["dp"])
fully_shard(block, mesh=mesh["dp"])
# 3. the pipeline stage on "pp". Example micro-batches (2 rows) replace the shape-inference
# pass, whose tensor parallel all-reduce is never waited on (a warning at exit, torch 2.15).
# The output, and a later stage's input, must require grad: backward follows this metadata.
stage = PipelineStage(block, stage_index=pp, num_stages=2, device=device,
                      input_args=torch.empty(2, 8, device=device, requires_grad=pp > 0),
                      output_args=torch.empty(2, 8, device=device, requires_grad=True),
                      group=mesh["pp"].get_group())
schedule = ScheduleGPipe(stage, n_microbatches=2, loss_fn=nn.functional.mse_loss)
up = block.up.weight
print(f"rank {rank} (pp, dp, tp) {mesh.get_coordinate()}: up.weight {list(up.shape)}"
      f" {up.placements}, local {list(up.to_local().shape)}")

torch.manual_seed(1)
x = torch.randn(8, 8, device=device)
y = x.flip(1)  # a target the model can learn
rows = slice(4 * dp, 4 * dp + 4)  # both "tp" ranks of a replica take the same rows
losses = []
if stage.is_first:
    schedule.step(x[rows])
else:
    schedule.step(target=y[rows], losses=losses)

nn.functional.mse_loss(reference(x), y).backward()
if stage.is_last:  # the losses of this replica's micro-batches
    with torch.no_grad():
        expected = nn.functional.mse_loss(reference(x[rows]), y[rows]).item()
    loss = torch.stack(losses).mean().item()
    print(f"rank {rank} step 0 loss {loss:.4f} reference {expected:.4f}"
          f" equal {abs(loss - expected) < 1e-5}")
# each rank's gradient shards, against the same shards cut from the reference's gradients
mine, cut = [], []
for param, full_param in zip(block.parameters(), reference[pp].parameters()):
    mine.append(param.grad.to_local())
    cut.append(distribute_tensor(full_param.grad, param.grad.device_mesh,
                                 param.grad.placements, src_data_rank=None).to_local())
same = all(torch.allclose(a, b, atol=1e-6) for a, b in zip(mine, cut))
norm, expected = (torch.cat([g.flatten() for g in grads]).norm().item() for grads in (mine, cut))
print(f"rank {rank} step 0 gradient shards: norm {norm:.4f} reference {expected:.4f}"
      f" equal {same}")

del schedule, stage, block, blocks, up, param, losses, mesh
gc.collect()  # FSDP's modules, hooks and graphs form cycles: free them now
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
