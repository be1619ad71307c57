"""backward() adds into .grad; optimizer.zero_grad() clears it.

Run: python zero_grad.py
"""
import torch

w = torch.tensor([1.0, 2.0], requires_grad=True)
optimizer = torch.optim.SGD([w], lr=0.1)

for step in range(3):
    loss = (3 * w).sum()  # d loss / d w = [3, 3] every time
    loss.backward()
    print(f"after backward {step}: {w.grad}")  # accumulates: 3, 6, 9

optimizer.zero_grad()  # set_to_none=True is the default since torch 2.0
print(w.grad)

(3 * w).sum().backward()
optimizer.zero_grad(set_to_none=False)  # torch 1.x behaviour: zeros
print(w.grad)

# The usual loop: clear, forward, backward, step
for step in range(2):
    optimizer.zero_grad()
    loss = (w ** 2).sum()
    loss.backward()
    optimizer.step()
    print(f"step {step}: loss {loss.item():.4f}, grad {w.grad}, "
          f"w {w.detach()}")
