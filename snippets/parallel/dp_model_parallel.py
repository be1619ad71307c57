"""DataParallel refuses a model split over two GPUs: it needs every parameter on device_ids[0].

Run: python dp_model_parallel.py
Variants: cuda
GPUs: 2
"""
import torch
from torch import nn


class TwoGPUModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.part1 = nn.Linear(4, 8).to("cuda:0")
        self.part2 = nn.Linear(8, 2).to("cuda:1")

    def forward(self, x):
        x = torch.relu(self.part1(x.to("cuda:0")))
        return self.part2(x.to("cuda:1"))


torch.manual_seed(0)
model = TwoGPUModel()
x = torch.randn(6, 4)
print("alone, output on:", model(x).device)

try:
    nn.DataParallel(model, device_ids=[0, 1])(x)
except RuntimeError as exc:
    print("DataParallel:", str(exc).splitlines()[0])
