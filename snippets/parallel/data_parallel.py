"""nn.DataParallel: one process splits each batch over its GPUs and gathers the outputs;
without GPUs it only calls the module.

Run: python data_parallel.py
Variants: cpu, cuda
GPUs: 2
"""
import os

if os.environ.get("DEVICE", "cpu") == "cpu":
    # hide any GPU: this variant is a machine without one
    os.environ["CUDA_VISIBLE_DEVICES"] = ""

import torch
from torch import nn

calls = []  # (device, rows) of every call of forward, whichever replica made it


class Probe(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = nn.Linear(3, 2)

    def forward(self, x):
        calls.append((str(x.device), x.shape[0]))
        return self.linear(x)


cuda = os.environ.get("DEVICE", "cpu") == "cuda"
torch.manual_seed(0)
plain = Probe().to("cuda:0" if cuda else "cpu")  # the module must sit on device_ids[0]
model = nn.DataParallel(plain, device_ids=[0, 1] if cuda else None)
print("device_ids:", model.device_ids)

for rows in (6, 1):
    calls.clear()
    out = model(torch.randn(rows, 3))  # the input may stay on the CPU: the chunks are copied
    print(f"batch of {rows}: calls {sorted(calls)}, output {tuple(out.shape)} on {out.device}")

x = torch.randn(6, 3)
model(x).sum().backward()  # gradients of all replicas are summed into `plain`
grad = plain.linear.weight.grad.clone()
plain.zero_grad()
plain(x.to(grad.device)).sum().backward()  # the same batch through the plain module
print("same gradient as without DataParallel:", torch.allclose(grad, plain.linear.weight.grad))
print("model.module is the wrapped module:", model.module is plain)
