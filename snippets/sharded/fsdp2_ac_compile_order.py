"""Activation checkpointing, torch.compile and fully_shard on each block, in three orders: what a
counting backend receives, and whether one step still equals a one-process eager step.

Run: torchrun --standalone --nproc-per-node=2 fsdp2_ac_compile_order.py
Variants: gloo-cpu, nccl-cuda
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
from torch.utils.checkpoint import checkpoint

backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
device_type = os.environ.get("DEVICE", "cpu")
device_id = None
if device_type == "cuda":
    device_id = torch.device("cuda", int(os.environ["LOCAL_RANK"]))
    torch.cuda.set_device(device_id)
dist.init_process_group(backend, device_id=device_id)
rank, world = dist.get_rank(), dist.get_world_size()
mesh = init_device_mesh(device_type, (world,))


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.up = nn.Linear(8, 16)
        self.down = nn.Linear(16, 8)

    def forward(self, x):
        return x + self.down(torch.relu(self.up(x)))


class Checkpointed(nn.Module):
    """Runs its block under activation checkpointing: recomputed in backward, not kept."""

    def __init__(self, block):
        super().__init__()
        self.block = block

    def forward(self, x):
        return checkpoint(self.block, x, use_reentrant=False)


graphs = []  # the operations of each graph the backend received


def operations(graph_module):
    return ", ".join(node.target.__name__ for node in graph_module.graph.nodes
                     if node.op == "call_function")


# A backend: gets each captured graph and returns what runs it (here, the graph as captured).
def counting_backend(graph_module, example_inputs):
    # A checkpointed region is a subgraph, called by the tag_activation_checkpoint operator.
    bodies = "".join(f" ({operations(body)})" for body in graph_module.children())
    graphs.append(operations(graph_module) + bodies)
    return graph_module.forward


def apply(model, step, fullgraph):
    for i in (0, 1):  # each block, as it is now (maybe already wrapped)
        if step == "checkpoint":
            model[i] = Checkpointed(model[i])
        elif step == "compile":
            model[i].compile(backend=counting_backend, fullgraph=fullgraph, dynamic=False)
        else:
            fully_shard(model[i], mesh=mesh)


torch.manual_seed(0)
base = nn.Sequential(Block(), Block(), nn.Linear(8, 1)).to(device_type)
reference = copy.deepcopy(base)  # one process, eager, the whole batch
torch.manual_seed(1)  # the same global batch on every rank; each rank takes its rows
x = torch.randn(8, 8, device=device_type)
rows = slice(rank * 8 // world, (rank + 1) * 8 // world)
ref_loss = reference(x).pow(2).mean()
ref_loss.backward()


def train(order, fullgraph=True):
    torch.compiler.reset()  # forget the code compiled for an earlier order
    graphs.clear()
    model = copy.deepcopy(base)
    for step in order:
        apply(model, step, fullgraph)
    fully_shard(model, mesh=mesh)  # the root: the head
    name = f"rank {rank} {', '.join(order)} (fullgraph={fullgraph})"
    try:
        loss = model(x[rows]).pow(2).mean()
        loss.backward()
    except Exception as error:  # printed on purpose: torch._dynamo's Unsupported
        print(f"{name}: {type(error).__name__}: {str(error).splitlines()[0]}")
        return
    average = loss.detach().clone()
    dist.all_reduce(average)  # the sum of the ranks' losses
    average /= world
    grads = all(torch.allclose(p.grad.full_tensor(), r.grad, atol=1e-6)
                for p, r in zip(model.parameters(), reference.parameters()))
    print(f"{name}: {len(graphs)} graphs {graphs}")
    print(f"{name}: step 0 loss {average.item():.4f} reference {ref_loss.item():.4f}"
          f" equal {torch.allclose(average, ref_loss)}, gradients equal {grads}")


train(("checkpoint", "compile", "fully_shard"))  # torchtitan's order
train(("compile", "checkpoint", "fully_shard"))
train(("fully_shard", "checkpoint", "compile"))  # FSDP's hooks inside the checkpoint
train(("fully_shard", "checkpoint", "compile"), fullgraph=False)

del mesh
gc.collect()  # FSDP's modules, hooks and graphs form cycles: free them now
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
