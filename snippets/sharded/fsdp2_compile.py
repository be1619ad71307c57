"""torch.compile with FSDP2: compile each block, before or after fully_shard. FSDP's hooks stay
outside the graphs (a counting backend shows what was captured) and the losses equal eager ones.

Run: torchrun --standalone --nproc-per-node=2 fsdp2_compile.py
Variants: gloo-cpu
Timeout: 120
"""
import gc

import torch
import torch.distributed as dist
# Before init_process_group: imported later (as optimizers do), it keeps a reference
# to the default group, and destroy_process_group() cannot free it (torch 2.15).
import torch.distributed.nn  # noqa: F401
from torch import nn
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import fully_shard

dist.init_process_group("gloo")
rank = dist.get_rank()
mesh = init_device_mesh("cpu", (2,))


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.up = nn.Linear(8, 16)
        self.down = nn.Linear(16, 8)

    def forward(self, x):
        return x + self.down(torch.relu(self.up(x)))


def counting(graphs):
    """A torch.compile backend that records each graph it is given and runs it as captured."""
    def backend(graph_module, example_inputs):
        graphs.append(", ".join(node.target.__name__ for node in graph_module.graph.nodes
                                if node.op == "call_function"))
        return graph_module.forward
    return backend


def train(order, backend=None, fullgraph=False):
    torch.manual_seed(0)
    model = nn.Sequential(Block(), Block(), nn.Linear(8, 1))
    blocks = [model[0], model[1]]
    if order == "compile each block, then fully_shard":
        for block in blocks:
            block.compile(backend=backend, fullgraph=fullgraph)
    for block in blocks:
        fully_shard(block, mesh=mesh)
    fully_shard(model, mesh=mesh)
    if order == "fully_shard, then compile each block":
        for block in blocks:
            block.compile(backend=backend, fullgraph=fullgraph)
    if order == "fully_shard, then compile the whole model":
        model.compile(backend=backend, fullgraph=fullgraph)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    losses = []
    for step in range(3):
        torch.manual_seed(10 * step + rank)  # this rank's batch
        loss = model(torch.randn(4, 8)).pow(2).mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        losses.append(loss.detach())
    return torch.stack(losses)


eager = train("eager")
print(f"rank {rank} eager losses: {[round(v, 4) for v in eager.tolist()]}")
for order in ("compile each block, then fully_shard", "fully_shard, then compile each block"):
    graphs = []
    losses = train(order, backend=counting(graphs), fullgraph=True)
    print(f"rank {rank} {order}, fullgraph=True: {len(graphs)} graphs {graphs};"
          f" losses equal to eager: {torch.allclose(losses, eager)}")

# The whole model: each FSDP hook is a graph break, and the root's own code stays eager.
graphs = []
losses = train("fully_shard, then compile the whole model", backend=counting(graphs))
print(f"rank {rank} whole model: {len(graphs)} graphs {graphs};"
      f" losses equal to eager: {torch.allclose(losses, eager)}")
try:
    train("fully_shard, then compile the whole model", backend=counting([]), fullgraph=True)
except Exception as error:  # printed on purpose: torch._dynamo's Unsupported
    print(f"rank {rank} whole model, fullgraph=True: {type(error).__name__}:"
          f" {str(error).splitlines()[0]}")

# "aot_eager" also traces the backward pass into a graph: still the eager losses.
losses = train("compile each block, then fully_shard", backend="aot_eager", fullgraph=True)
print(f"rank {rank} per block, backend='aot_eager': losses equal to eager:"
      f" {torch.allclose(losses, eager)}")

# torch.compile(block) returns a wrapper, and its state dict keys change.
wrapped = nn.Sequential(torch.compile(Block(), backend="aot_eager"))
in_place = nn.Sequential(Block())
in_place[0].compile(backend="aot_eager")
print(f"rank {rank} keys: torch.compile(block) {next(iter(wrapped.state_dict()))},"
      f" block.compile() {next(iter(in_place.state_dict()))}")

del mesh
gc.collect()  # FSDP's modules, hooks and graphs form cycles: free them now
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
