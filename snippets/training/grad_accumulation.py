"""Gradient accumulation: k micro-batches with loss / k = one big batch.

Run: python grad_accumulation.py
"""
import torch
from torch import nn

torch.manual_seed(0)
model = nn.Linear(3, 1)
loss_fn = nn.MSELoss()  # a mean over the batch
x, y = torch.randn(8, 3), torch.randn(8, 1)

model.zero_grad()
loss_fn(model(x), y).backward()  # one batch of 8
big_batch = model.weight.grad.clone()

k = 4
model.zero_grad()
for xb, yb in zip(x.chunk(k), y.chunk(k)):   # 4 micro-batches of 2
    (loss_fn(model(xb), yb) / k).backward()  # grads add up
print(big_batch)
print(model.weight.grad)
print(torch.allclose(model.weight.grad, big_batch))

model.zero_grad()
for xb, yb in zip(x.chunk(k), y.chunk(k)):
    loss_fn(model(xb), yb).backward()  # forgot / k
print(model.weight.grad / big_batch)   # k times too large

# In a training loop: step and clear once every k micro-batches
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
optimizer.zero_grad()
for i, (xb, yb) in enumerate(zip(x.chunk(k), y.chunk(k))):
    (loss_fn(model(xb), yb) / k).backward()
    if (i + 1) % k == 0:
        optimizer.step()
        optimizer.zero_grad()
        print(f"optimizer step after micro-batch {i}")
