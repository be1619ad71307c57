"""3-D parallelism with SequenceParallel on the norms and loss_parallel for the loss (2 x 2 x 2).

Run: torchrun --standalone --nproc-per-node=8 fsdp_tp_pp_3d_sp.py
Variants: gloo-cpu, nccl-cuda
GPUs: 8
Timeout: 180
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
from torch.distributed.pipelining import PipelineStage, ScheduleGPipe
from torch.distributed.tensor import DTensor, Replicate, Shard, distribute_tensor
from torch.distributed.tensor.parallel import (
    ColwiseParallel,
    RowwiseParallel,
    SequenceParallel,
    loss_parallel,
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


class Stage(nn.Module):
    """One transformer-like layer (norm, MLP, residual); the first stage adds the embedding,
    the last the output head."""

    def __init__(self, first, last, vocab=8, dim=4, hidden=8):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim) if first else None
        self.norm = nn.RMSNorm(dim)
        self.up, self.down = nn.Linear(dim, hidden), nn.Linear(hidden, dim)
        self.head = nn.Linear(dim, vocab, bias=False) if last else None

    def forward(self, h):
        if self.embed is not None:
            h = self.embed(h)
        h = h + self.down(torch.relu(self.up(self.norm(h))))
        return self.head(h) if self.head is not None else h


mesh = init_device_mesh(device_type, (2, 2, 2), mesh_dim_names=("pp", "dp", "tp"))
pp, dp = mesh.get_local_rank("pp"), mesh.get_local_rank("dp")
torch.manual_seed(0)
stages = [Stage(first=True, last=False).to(device), Stage(first=False, last=True).to(device)]
reference = nn.Sequential(*copy.deepcopy(stages))  # the whole model, in one process
stage_module = stages[pp]  # this rank's stage
# 1. tensor parallel with sequence parallel, on "tp": between stages, the activations are
# plain local tensors holding this rank's half of the sequence, (batch, sequence / 2, dim)
plan = {
    "norm": SequenceParallel(),  # weight replicated, works on its sequence shard
    "up": ColwiseParallel(input_layouts=Shard(1)),  # all-gather the sequence first
    "down": RowwiseParallel(output_layouts=Shard(1)),  # reduce-scatter back to sequence shards
}
if pp == 0:  # vocabulary rows split, output reduce-scattered on the sequence
    plan["embed"] = RowwiseParallel(input_layouts=Replicate(), output_layouts=Shard(1))
else:  # logits stay a DTensor sharded on the vocabulary, for loss_parallel
    plan["head"] = ColwiseParallel(input_layouts=Shard(1), output_layouts=Shard(-1),
                                   use_local_output=False)
parallelize_module(stage_module, mesh["tp"], plan)
# 2. FSDP on "dp"
fully_shard(stage_module, mesh=mesh["dp"])
# 3. the pipeline stage on "pp". The last stage returns a DTensor: without example inputs and
# outputs, the first step() infers every stage's shapes and placements from a micro-batch.
stage = PipelineStage(stage_module, stage_index=pp, num_stages=2, device=device,
                      group=mesh["pp"].get_group())


def loss_fn(logits, target):  # logits: a DTensor sharded on the vocabulary (last) dimension
    return nn.functional.cross_entropy(logits.flatten(0, 1), target.flatten())


schedule = ScheduleGPipe(stage, n_microbatches=2, loss_fn=loss_fn)
norm_weight = stage_module.norm.weight
print(f"rank {rank} (pp, dp, tp) {mesh.get_coordinate()}: norm.weight {norm_weight.placements}")
outputs = []  # what the stage module returns: local activations or DTensor logits


def keep(module, args, output):  # returns None: the output itself is left unchanged
    outputs.append(output)


stage_module.register_forward_hook(keep)

torch.manual_seed(1)  # 8 sequences of 4 tokens; each "dp" replica takes 4 of them
tokens = torch.randint(0, 8, (8, 4), device=device)
labels = torch.randint(0, 8, (8, 4), device=device)
rows = slice(4 * dp, 4 * dp + 4)  # both "tp" ranks of a replica take the same rows
losses = []
with loss_parallel():  # the schedule's forward, loss and backward all run inside
    if stage.is_first:
        schedule.step(tokens[rows])
    else:
        schedule.step(target=labels[rows], losses=losses)
out = outputs[-1]
if isinstance(out, DTensor):
    print(f"rank {rank} stage output: DTensor {out.placements}, global {list(out.shape)},"
          f" local {list(out.to_local().shape)}")
else:
    print(f"rank {rank} stage output: {type(out).__name__} {list(out.shape)}")

nn.functional.cross_entropy(reference(tokens).flatten(0, 1), labels.flatten()).backward()
if stage.is_last:  # the losses of this replica's micro-batches, replicated DTensors
    with torch.no_grad():
        expected = nn.functional.cross_entropy(reference(tokens[rows]).flatten(0, 1),
                                               labels[rows].flatten()).item()
    loss = torch.stack([x.full_tensor() for x in losses]).mean().item()
    print(f"rank {rank} step 0 loss {loss:.4f} reference {expected:.4f}"
          f" equal {abs(loss - expected) < 1e-5} ({type(losses[0]).__name__}"
          f" {losses[0].placements})")
# each rank's gradient shards, against the same shards cut from the reference's gradients
mine, cut = [], []
for name, param in stage_module.named_parameters():
    full_grad = reference[pp].get_parameter(name).grad
    mine.append(param.grad.to_local())
    cut.append(distribute_tensor(full_grad, param.grad.device_mesh,
                                 param.grad.placements, src_data_rank=None).to_local())
same = all(torch.allclose(a, b, atol=1e-6) for a, b in zip(mine, cut))
norm, expected = (torch.cat([g.flatten() for g in grads]).norm().item() for grads in (mine, cut))
print(f"rank {rank} step 0 gradient shards: norm {norm:.4f} reference {expected:.4f}"
      f" equal {same}; norm.weight.grad {norm_weight.grad.placements}")

del schedule, stage, stage_module, stages, param, norm_weight, out, outputs, losses, mesh
gc.collect()  # FSDP's modules, hooks and graphs form cycles: free them now
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
