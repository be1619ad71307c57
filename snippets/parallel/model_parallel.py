"""Model parallel on one machine: the first half of the model on cuda:0, the second on cuda:1.

Run: python model_parallel.py
Variants: cuda
GPUs: 2
"""
import torch
from torch import nn


class TwoGPUModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.part1 = nn.Sequential(nn.Linear(10, 10), nn.ReLU()).to("cuda:0")
        self.part2 = nn.Linear(10, 5).to("cuda:1")

    def forward(self, x):
        x = self.part1(x.to("cuda:0"))
        return self.part2(x.to("cuda:1"))  # move the activations, not the layer


torch.manual_seed(0)
model = TwoGPUModel()
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)  # one optimizer for both GPUs

x = torch.randn(20, 10)
labels = torch.randn(20, 5)
out = model(x)
print("output on:", out.device)
loss = nn.functional.mse_loss(out, labels.to(out.device))  # labels on the output's device
loss.backward()  # autograd carries the gradient back from cuda:1 to cuda:0
optimizer.step()
print("gradients on:", model.part1[0].weight.grad.device, "and", model.part2.weight.grad.device)

try:
    nn.functional.mse_loss(model(x), labels.to("cuda:0"))  # labels on the wrong GPU
except RuntimeError as exc:
    print("labels on cuda:0:", str(exc).splitlines()[0])
