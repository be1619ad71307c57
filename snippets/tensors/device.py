"""device= at creation and .to(device): put tensors where they are used.

Run: python device.py
Variants: cpu, cuda
"""
import os

import torch

DEVICE = os.environ.get("DEVICE", "cpu")  # DEVICE=cuda on a GPU machine
device = torch.device(DEVICE)

x = torch.ones(2, 3, device=device)  # created on the device: no copy
print(x.device.type, x.shape)

y = torch.arange(3)  # created on the CPU ...
y = y.to(device)     # ... and copied: .to returns a new tensor, assign it
print(y.device.type)
print(y.to(device) is y)  # already there: returned as is

z = y.to(device, torch.float64)  # device and dtype in one call
print(z.device.type, z.dtype)
# Operands on the same device; .cpu() to bring the result back
print((x.sum(dim=0) + z).cpu())

print(torch.tensor([1.0, 2.0], device=device).device == x.device)
