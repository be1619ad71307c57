"""The NCCL backends of torch 2.15: which class does the work, and how NCCL options are passed.

"nccl" builds a ProcessGroupNCCL2 (the in-tree NCCL backend on the torchcomms engine) unless
the environment sets TORCH_DIST_USE_NCCL2=0; "nccl-legacy" builds the older ProcessGroupNCCL,
"nccl2" a ProcessGroupNCCL2 by name, and "nccl-lazy" a ProcessGroupNCCLLazy (collectives on one
communicator, each point-to-point pair on its own, made on first use). All of them take a
ProcessGroupNCCL.Options as pg_options. get_backend_impl() returns the object doing the work.

Run: torchrun --standalone --nproc-per-node=2 nccl_backends.py
Variants: nccl-cuda
"""
import os

import torch
import torch.distributed as dist

local_rank = int(os.environ["LOCAL_RANK"])
device = torch.device("cuda", local_rank)
torch.cuda.set_device(device)
options = dist.ProcessGroupNCCL.Options(is_high_priority_stream=True)
dist.init_process_group("nccl", pg_options=options, device_id=device)
rank = dist.get_rank()

world_impl = dist.get_backend_impl(device=device)
print(f"rank {rank} 'nccl' runs on {type(world_impl).__name__}")
for backend, cls in (("nccl-legacy", dist.ProcessGroupNCCL),
                     ("nccl2", dist.ProcessGroupNCCL2),
                     ("nccl-lazy", dist.ProcessGroupNCCLLazy)):
    group = dist.new_group(backend=backend, pg_options=dist.ProcessGroupNCCL.Options())
    impl = dist.get_backend_impl(group, device)
    tensor = torch.full((2,), rank + 1.0, device=device)
    dist.all_reduce(tensor, group=group)
    print(f"rank {rank} {backend!r}: {type(impl).__name__}, a {cls.__name__}: "
          f"{isinstance(impl, cls)}; all_reduce -> {tensor.tolist()}")
    dist.destroy_process_group(group)

del world_impl, impl
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
