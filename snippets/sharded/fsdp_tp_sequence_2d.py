"""2-D parallelism on a 2 x 2 mesh ("dp", "tp"): tensor parallel with SequenceParallel for the
norm and loss_parallel for the cross-entropy over vocabulary-sharded logits, FSDP2 over "dp".
Three SGD steps; rank 0 also trains the same model in one process on the full batch.

Run: torchrun --standalone --nproc-per-node=4 fsdp_tp_sequence_2d.py
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
from torch.distributed.tensor import Replicate, Shard
from torch.distributed.tensor.parallel import (
    ColwiseParallel,
    RowwiseParallel,
    SequenceParallel,
    loss_parallel,
    parallelize_module,
)

backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
device_type = os.environ.get("DEVICE", "cpu")
device_id = None
if device_type == "cuda":
    device_id = torch.device("cuda", int(os.environ["LOCAL_RANK"]))
    torch.cuda.set_device(device_id)
dist.init_process_group(backend, device_id=device_id)
rank = dist.get_rank()


class Block(nn.Module):
    """Embedding, LayerNorm, an MLP with a residual connection, and an output head."""

    def __init__(self, vocab=8, dim=4, hidden=8):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.norm = nn.LayerNorm(dim)
        self.up = nn.Linear(dim, hidden)
        self.down = nn.Linear(hidden, dim)
        self.head = nn.Linear(dim, vocab, bias=False)

    def forward(self, tokens):
        h = self.norm(self.embed(tokens))
        h = h + self.down(torch.relu(self.up(h)))
        return self.head(h)


mesh = init_device_mesh(device_type, (2, 2), mesh_dim_names=("dp", "tp"))
torch.manual_seed(0)  # the same full weights on every rank
model = Block().to(device_type)
reference = copy.deepcopy(model)
parallelize_module(model, mesh["tp"], {
    # vocabulary rows split; the output is reduce-scattered on the sequence (dim 1)
    "embed": RowwiseParallel(input_layouts=Replicate(), output_layouts=Shard(1)),
    "norm": SequenceParallel(),  # weights replicated, works on its sequence shard
    # all-gather the sequence, then split the hidden features
    "up": ColwiseParallel(input_layouts=Shard(1)),
    # reduce-scatter back to sequence shards, kept as a DTensor for the residual addition
    "down": RowwiseParallel(output_layouts=Shard(1), use_local_output=False),
    # logits sharded on the vocabulary (last) dimension, as loss_parallel needs them
    "head": ColwiseParallel(input_layouts=Shard(1), output_layouts=Shard(-1),
                            use_local_output=False),
})
fully_shard(model, mesh=mesh["dp"])  # then FSDP2 over "dp", on top of the tensor parallel shards
optimizer = torch.optim.SGD(model.parameters(), lr=0.5)
ref_optimizer = torch.optim.SGD(reference.parameters(), lr=0.5)

torch.manual_seed(1)  # one batch of 4 sequences of 6 tokens: each "dp" row takes 2 sequences
tokens = torch.randint(0, 8, (4, 6), device=device_type)
labels = torch.randint(0, 8, (4, 6), device=device_type)
dp = mesh.get_local_rank("dp")
mine = slice(2 * dp, 2 * dp + 2)  # the "tp" ranks of one row get the same sequences

for step in range(3):
    optimizer.zero_grad()
    logits = model(tokens[mine])
    if step == 0:
        print(f"rank {rank} logits: {logits.placements}, global {list(logits.shape)},"
              f" local {list(logits.to_local().shape)}")
    with loss_parallel():  # the forward and the backward both inside
        loss = nn.functional.cross_entropy(logits.flatten(0, 1), labels[mine].flatten())
        loss.backward()
    optimizer.step()  # FSDP2 averaged the gradients over "dp": the full batch's gradient
    # the loss of the full batch: the mean of the two rows' losses (equal halves)
    full_loss = loss.full_tensor().detach()
    dist.all_reduce(full_loss, group=mesh.get_group("dp"))
    print(f"rank {rank} step {step} loss {full_loss.item() / 2:.6f}")
    if rank == 0:
        ref_optimizer.zero_grad()
        ref_loss = nn.functional.cross_entropy(reference(tokens).flatten(0, 1), labels.flatten())
        ref_loss.backward()
        ref_optimizer.step()
        print(f"reference step {step} loss {ref_loss.item():.6f}")

del model, optimizer, logits, loss, mesh
gc.collect()  # FSDP's modules, hooks and graphs form cycles: free them now
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
