"""diagonal_scatter / select_scatter / slice_scatter: a new tensor with src written into one view
of input.

Run: python slice_scatter.py
"""
import torch

x = torch.zeros(3, 4, dtype=torch.long)
print(f"diagonal_scatter:\n{torch.diagonal_scatter(x, torch.tensor([1, 2, 3]))}")
print(f"offset=1:\n{torch.diagonal_scatter(x, torch.tensor([7, 8, 9]), offset=1)}")
print("select_scatter(dim=1, "
      f"index=0):\n{torch.select_scatter(x, torch.tensor([4, 5, 6]), 1, 0)}")
out = torch.slice_scatter(x, torch.ones(3, 2, dtype=torch.long), dim=1, start=0, step=2)
print(f"slice_scatter(dim=1, step=2):\n{out}")
print("x is unchanged:", x.sum().item())

same = x.clone()
same[:, 0::2] = 1  # the in-place way to get the same tensor
print("equal to clone + write:", torch.equal(out, same))

try:
    torch.select_scatter(x, torch.ones(1, 3, dtype=torch.long), 1, 0)  # src: the slice's shape
except RuntimeError as error:
    print(f"RuntimeError: {error}")
print("float src, long input:",
      torch.diagonal_scatter(x, torch.tensor([1.5, 2.5, 3.5])).diagonal())

w = torch.zeros(2, 3, requires_grad=True)
try:
    w[0] = 1.0  # in place on a leaf that requires grad
except RuntimeError as error:
    print(f"RuntimeError: {error}")
y = torch.select_scatter(w, torch.ones(3), 0, 0)  # out of place: autograd is fine
y.sum().backward()
print("grad: row 0 was replaced, so it gets none:", w.grad.tolist())
