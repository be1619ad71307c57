"""Expert parallelism: all_to_all_single sends each token to the rank that holds its expert.

Run: torchrun --standalone --nproc-per-node=4 moe_expert_parallel.py
Variants: gloo-cpu, nccl-cuda
GPUs: 4
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

backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
device_type = os.environ.get("DEVICE", "cpu")
device_id = None
if device_type == "cuda":
    device_id = torch.device("cuda", int(os.environ["LOCAL_RANK"]))
    torch.cuda.set_device(device_id)
dist.init_process_group(backend, device_id=device_id)
rank = dist.get_rank()


class AllToAll(torch.autograd.Function):
    """all_to_all_single whose backward is the reverse exchange (the split sizes swapped)."""

    @staticmethod
    def forward(ctx, x, output_splits, input_splits, group):
        ctx.splits, ctx.group = (output_splits, input_splits), group
        out = x.new_empty(sum(output_splits), *x.shape[1:])
        dist.all_to_all_single(out, x.contiguous(), output_split_sizes=output_splits,
                               input_split_sizes=input_splits, group=group)
        return out

    @staticmethod
    def backward(ctx, grad):
        output_splits, input_splits = ctx.splits
        grad_x = grad.new_empty(sum(input_splits), *grad.shape[1:])
        dist.all_to_all_single(grad_x, grad.contiguous(), output_split_sizes=input_splits,
                               input_split_sizes=output_splits, group=ctx.group)
        return grad_x, None, None, None


class Experts(nn.Module):
    """The experts one rank holds, called once per forward (one FSDP unit)."""

    def __init__(self, mlps):
        super().__init__()
        self.mlps = nn.ModuleList(mlps)

    def forward(self, x, counts):
        # counts: rows per (source rank, local expert), in the order the rows arrive.
        # Every expert runs, on 0 rows too: its gradient is then zeros, not None.
        chunks = x.split(counts)
        return torch.cat([self.mlps[i % len(self.mlps)](c) for i, c in enumerate(chunks)])


class MoE(nn.Module):
    """Top-1 router, 4 experts (2-layer MLPs), a shared head."""

    def __init__(self, dim=4, num_experts=4):
        super().__init__()
        self.num_experts = num_experts
        self.router = nn.Linear(dim, num_experts, bias=False)
        self.experts = Experts([nn.Sequential(nn.Linear(dim, 8), nn.ReLU(), nn.Linear(8, dim))
                                for _ in range(num_experts)])
        self.head = nn.Linear(dim, 2)
        self.ep_group = None  # None: every expert is in this process

    def forward(self, x):
        gate, expert = self.router(x).softmax(dim=-1).max(dim=-1)  # one expert per token
        order = expert.argsort(stable=True)  # rows grouped by expert, so by owning rank
        counts = torch.bincount(expert, minlength=self.num_experts)  # rows per expert
        if self.ep_group is None:
            y = self.experts(x[order], counts.tolist())
        else:
            y = self.dispatch_combine(x[order], counts)
        y = y[order.argsort()]  # back to the original token order
        return self.head(y * gate.unsqueeze(-1))

    def dispatch_combine(self, x, counts):
        group = self.ep_group
        ep = dist.get_world_size(group)
        # 1. the counts first: each rank learns how many rows every peer sends to each of
        # its experts (equal splits: num_experts / ep counts per rank)
        recv_counts = torch.empty_like(counts)
        dist.all_to_all_single(recv_counts, counts, group=group)
        send = counts.view(ep, -1).sum(dim=1).tolist()  # rows to each rank
        recv = recv_counts.view(ep, -1).sum(dim=1).tolist()  # rows from each rank
        self.splits = send, recv, recv_counts.tolist()
        # 2. the rows; they arrive ordered by source rank, then by expert
        received = AllToAll.apply(x, recv, send, group)
        out = self.experts(received, recv_counts.tolist())
        # 3. the results go back: the reverse exchange, split sizes swapped
        return AllToAll.apply(out, send, recv, group)


mesh = init_device_mesh(device_type, (2, 2), mesh_dim_names=("dp", "ep"))
world = init_device_mesh(device_type, (4,))  # all 4 ranks: FSDP for the non-expert weights
dp, ep = mesh.get_local_rank("dp"), mesh.get_local_rank("ep")
torch.manual_seed(0)
reference = MoE().to(device_type)  # one process, all 4 experts
model = copy.deepcopy(reference)
mine = [2 * ep, 2 * ep + 1]  # this rank's experts: ep rank 0 holds 0 and 1, ep rank 1 2 and 3
model.experts = Experts([model.experts.mlps[e] for e in mine])
model.ep_group = mesh["ep"].get_group()
# The experts: FSDP over "dp" only. 4 ranks' tokens reach them, but FSDP divides by the 2 ranks
# of "dp": divide by 4 (gloo needs SUM collectives for a factor other than the group size).
fully_shard(model.experts, mesh=mesh["dp"])
model.experts.set_gradient_divide_factor(4.0)
model.experts.set_force_sum_reduction_for_comms(True)
fully_shard(model, mesh=world)  # router and head: FSDP over all 4 ranks
optim = torch.optim.SGD(model.parameters(), lr=0.5)
ref_optim = torch.optim.SGD(reference.parameters(), lr=0.5)

for step in range(2):
    torch.manual_seed(step + 1)  # on the CPU: the same rows, so the same routing, on a GPU
    x, y = torch.randn(16, 4).to(device_type), torch.randn(16, 2).to(device_type)
    rows = slice(4 * rank, 4 * rank + 4)  # this rank's 4 of the 16 rows
    loss = nn.functional.mse_loss(model(x[rows]), y[rows])
    loss.backward()
    ref_loss = nn.functional.mse_loss(reference(x), y)
    ref_loss.backward()
    if step == 0:
        send, recv, per_expert = model.splits
        print(f"rank {rank} (dp, ep) ({dp}, {ep}) experts {mine} step 0: input_split_sizes"
              f" {send}, output_split_sizes {recv}, rows per (source, expert) {per_expert}")
    mean = loss.detach().clone()
    dist.all_reduce(mean)  # the mean over 4 ranks of 4 rows each: the loss of all 16
    mean = mean.item() / 4
    print(f"rank {rank} step {step} loss {mean:.4f} reference {ref_loss.item():.4f}"
          f" equal {abs(mean - ref_loss.item()) < 1e-6}")
    expert_same = all(
        torch.allclose(p.grad.full_tensor(), q.grad, atol=1e-6)
        for e, mlp in zip(mine, model.experts.mlps)
        for p, q in zip(mlp.parameters(), reference.experts.mlps[e].parameters()))
    shared_same = all(
        torch.allclose(p.grad.full_tensor(), q.grad, atol=1e-6)
        for m, r in ((model.router, reference.router), (model.head, reference.head))
        for p, q in zip(m.parameters(), r.parameters()))
    print(f"rank {rank} step {step} gradients of experts {mine} equal {expert_same},"
          f" of router and head equal {shared_same}")
    for opt in (optim, ref_optim):
        opt.step()
        opt.zero_grad()

del model, optim, loss, mesh, world
gc.collect()  # FSDP's modules, hooks and graphs form cycles: free them now
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
