"""DataParallel runs its replicas in threads of one process, and builds new ones on every
forward.

Run: python dp_threads.py
Variants: cpu, cuda
GPUs: 2
"""
import os
import threading

if os.environ.get("DEVICE", "cpu") == "cpu":
    # hide any GPU: this variant is a machine without one
    os.environ["CUDA_VISIBLE_DEVICES"] = ""

import torch
from torch import nn

in_main_thread = []  # one entry per call of forward


class Counter(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = nn.Linear(3, 2)
        self.calls = 0

    def forward(self, x):
        self.calls += 1  # on a replica, this changes the replica, which is dropped after forward
        in_main_thread.append(threading.current_thread() is threading.main_thread())
        return self.linear(x)


cuda = os.environ.get("DEVICE", "cpu") == "cuda"
torch.manual_seed(0)
net = Counter().to("cuda:0" if cuda else "cpu")
model = nn.DataParallel(net, device_ids=[0, 1] if cuda else None)
for step in range(3):
    model(torch.randn(4, 3)).sum().backward()

print("forward calls:", len(in_main_thread))
print("calls made in the main thread:", sum(in_main_thread))
print("calls counted by model.module:", model.module.calls)
