"""torch.autocast: which operations run in the 16-bit type, which stay float32, and what
leaves the region. bfloat16 on the CPU, float16 on CUDA.

Run: python amp_autocast.py
Variants: cpu, cuda
"""
import os

import torch
from torch import nn

DEVICE = os.environ.get("DEVICE", "cpu")  # DEVICE=cuda on a GPU machine
device = torch.device(DEVICE)
# the usual 16-bit type of each device: bfloat16 on CPUs, float16 on CUDA
amp_dtype = torch.float16 if device.type == "cuda" else torch.bfloat16

torch.manual_seed(0)
model = nn.Linear(4, 3).to(device)
head = nn.Linear(3, 2).to(device)
x = torch.randn(2, 4, device=device)
target = torch.tensor([0, 2], device=device)

with torch.autocast(device_type=device.type, dtype=amp_dtype):
    print("autocast on:", torch.is_autocast_enabled(device.type),
          torch.get_autocast_dtype(device.type))
    logits = model(x)  # linear: on the 16-bit list
    print("linear:", logits.dtype)
    print("matmul:", (x @ x.T).dtype)
    # CPU: softmax and sum are on no list and keep their input's type (CUDA: float32)
    print("softmax of logits:", torch.softmax(logits, dim=1).dtype)
    print("softmax of x:", torch.softmax(x, dim=1).dtype)
    print("sum of logits:", logits.sum().dtype)
    # losses are on the float32 list
    loss = nn.functional.cross_entropy(logits, target)
    print("cross_entropy:", loss.dtype)
    # mixed inputs outside the lists: the wider type wins
    print("logits + float32:", (logits + torch.zeros(3, device=device)).dtype)
    with torch.autocast(device_type=device.type, enabled=False):  # a float32 island
        print("disabled inside:", head(logits.float()).dtype)
        try:
            head(logits)  # a 16-bit input is not cast back
        except RuntimeError as error:
            print(f"RuntimeError: {error}")

print("after the region:", logits.dtype, "| autocast on:",
      torch.is_autocast_enabled(device.type))
loss.backward()  # outside autocast: backward uses the types the forward pass chose
print("parameters:", model.weight.dtype, "| gradients:", model.weight.grad.dtype)
