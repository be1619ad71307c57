"""FSDPModule's performance settings on a CPU mesh: what each changes, which need a GPU.

Run: torchrun --standalone --nproc-per-node=2 fsdp2_perf_settings.py
Variants: gloo-cpu
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
log = []


class LoggedAllGather:
    """The default all-gather, plus a log entry: set with set_custom_all_gather."""

    def __init__(self, name):
        self.name = name

    def allocate(self, size, *, dtype, device):
        return torch.empty(size, dtype=dtype, device=device)

    def __call__(self, output_tensor, input_tensor, group, async_op=False):
        log.append(self.name)
        return dist.all_gather_into_tensor(output_tensor, input_tensor, group=group,
                                           async_op=async_op)


class LoggedReduceScatter:
    """The default reduce-scatter, plus the group it runs on."""

    def allocate(self, size, *, dtype, device):
        return torch.empty(size, dtype=dtype, device=device)

    def __call__(self, output_tensor, input_tensor, group, op, async_op=False):
        which = "the mesh's group" if group is mesh.get_group() else "another group"
        log.append(f"{which} {dist.get_process_group_ranks(group)}")
        return dist.reduce_scatter_tensor(output_tensor, input_tensor, op=op, group=group,
                                          async_op=async_op)


def build():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Embedding(10, 4), nn.Linear(4, 4), nn.Linear(4, 2))
    for layer in model:
        fully_shard(layer, mesh=mesh)
    return fully_shard(model, mesh=mesh)


def step(model):
    model(torch.tensor([[1, 2], [3, 4]]) + rank).sum().backward()
    return [p.grad.full_tensor() for p in model.parameters()]


expected = step(build())


def same(grads):
    return all(torch.equal(a, b) for a, b in zip(grads, expected))


# set_unshard_in_backward(False): no all-gather in backward for that layer
names = ("embedding", "linear1", "linear2")
for off in (None, 0, 1):
    model = build()
    for layer, name in zip(model, names):
        layer.set_custom_all_gather(LoggedAllGather(name))
    if off is not None:
        model[off].set_unshard_in_backward(False)  # not recursive
    label = "default" if off is None else f"False on {names[off]}"
    try:
        loss = model(torch.tensor([[1, 2], [3, 4]]) + rank).sum()
        log.append("|")  # forward above, backward below
        loss.backward()
        grads = [p.grad.full_tensor() for p in model.parameters()]
        print(f"rank {rank} unshard_in_backward {label}: {' '.join(log)}; same"
              f" gradients: {same(grads)}")
    except RuntimeError as error:
        print(f"rank {rank} unshard_in_backward {label}: {' '.join(log)}; RuntimeError: {error}")
        model.reset_iter_state()  # the failed backward left FSDP mid-iteration
    log.clear()

# set_separate_reduce_scatter_group: reduce-scatter on a group of its own
for separate in (False, True):
    model = build()
    for layer in model:
        layer.set_custom_reduce_scatter(LoggedReduceScatter())
    if separate:
        model.set_separate_reduce_scatter_group(True)  # recursive; a collective call
    grads = step(model)
    print(f"rank {rank} separate reduce-scatter group {separate}: {', '.join(log)};"
          f" same gradients: {same(grads)}")
    log.clear()

# settings that change only how buffers are allocated: the same gradients on CPU
model = build()
model.set_reduce_scatter_max_input_buffers(2)  # recursive
print(f"rank {rank} set_reduce_scatter_max_input_buffers(2): same gradients: "
      f"{same(step(model))}")
model = build()
for layer in model:  # not recursive: call it on each module that holds parameters
    layer.set_allocate_memory_from_process_group_for_comm(True)
print(f"rank {rank} set_allocate_memory_from_process_group_for_comm(True): same gradients:"
      f" {same(step(model))}")

# set_keep_unsharded_storage: the gathered weight keeps its memory after resharding
for keep in (False, True):
    model = build()
    model.set_keep_unsharded_storage(keep)  # recursive
    seen = []
    model[1].register_forward_pre_hook(lambda module, args: seen.append(module.weight))
    step(model)  # after backward every layer is resharded
    print(f"rank {rank} set_keep_unsharded_storage({keep}): gathered 4x4 weight keeps"
          f" {seen[0].untyped_storage().nbytes()} bytes")
    del seen

# what needs a GPU
model = build()
for layer in model:
    layer.set_symm_mem_for_comm()  # not recursive
try:
    step(model)
except RuntimeError as error:
    print(f"rank {rank} set_symm_mem_for_comm(): RuntimeError: {error}")
    model.reset_iter_state()
try:
    event = torch.Event("cpu")  # what set_post_optim_event would take
    event.record()
except RuntimeError as error:
    print(f"rank {rank} torch.Event('cpu').record(): RuntimeError: {error}")

del model, layer, loss, grads, expected, mesh
gc.collect()  # FSDP's modules, hooks and graphs form cycles: free them now
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
