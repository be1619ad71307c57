"""register_fsdp_forward_method: let a method other than forward unshard the parameters.

Run: torchrun --standalone --nproc-per-node=2 fsdp2_forward_method.py
Variants: gloo-cpu, nccl-cuda
"""
import copy
import gc
import os

import torch
import torch.distributed as dist
# Before init_process_group: imported later (as DTensor does), it keeps a reference
# to the default group, and destroy_process_group() cannot free it (torch 2.15).
import torch.distributed.nn  # noqa: F401
from torch import nn
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import fully_shard, register_fsdp_forward_method

backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
device_type = os.environ.get("DEVICE", "cpu")
device_id = None
if device_type == "cuda":
    device_id = torch.device("cuda", int(os.environ["LOCAL_RANK"]))
    torch.cuda.set_device(device_id)
dist.init_process_group(backend, device_id=device_id)
rank = dist.get_rank()


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(4, 8)
        self.head = nn.Linear(8, 3)

    def forward(self, x):
        return self.head(torch.relu(self.body(x)))

    def predict(self, x):  # calls the layers directly, not through forward
        return self.head(torch.relu(self.body(x))).argmax(dim=-1)


mesh = init_device_mesh(device_type, (2,))
torch.manual_seed(0)  # the same full model on every rank before sharding
model = Classifier().to(device_type)
reference = copy.deepcopy(model)
fully_shard(model, mesh=mesh)  # one unit: the root holds every parameter
torch.manual_seed(1)
x = torch.randn(5, 4, device=device_type)

print(f"rank {rank} body.weight before: {type(model.body.weight).__name__}")
try:  # FSDP's pre-forward hook never runs: the parameters are still sharded
    model.predict(x)
except RuntimeError as e:
    print(f"rank {rank} unregistered predict: RuntimeError: {e}")

register_fsdp_forward_method(model, "predict")  # wraps it in FSDP's forward hooks
labels = model.predict(x)
print(f"rank {rank} registered predict: {labels.tolist()},"
      f" equals the reference: {torch.equal(labels, reference.predict(x))}")
# the root does not reshard after forward (backward would need them right away)
print(f"rank {rank} body.weight after: {type(model.body.weight).__name__}")
model.reshard()  # free the gathered parameters by hand
print(f"rank {rank} after reshard(): {type(model.body.weight).__name__}")

del model, labels, mesh
gc.collect()  # FSDP's modules, hooks and graphs form cycles: free them now
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
