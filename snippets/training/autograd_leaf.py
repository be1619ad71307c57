"""Leaf tensors: is_leaf, the .grad of a non-leaf, retain_grad, detach and requires_grad_.

Run: python autograd_leaf.py
"""
import warnings

import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)  # created by the user: a leaf
h = x * 2  # the result of a recorded operation: not a leaf
print("is_leaf:", x.is_leaf, h.is_leaf, "h.grad_fn:", type(h.grad_fn).__name__)
print("no requires_grad, still a leaf:", torch.ones(2).is_leaf)
scaled = torch.ones(2, requires_grad=True) * 0.1  # an operation after creation
print("scaled.is_leaf:", scaled.is_leaf)

(h ** 2).sum().backward()
print("x.grad:", x.grad)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    print("h.grad:", h.grad)  # only leaves get .grad
sentence = str(caught[0].message).split(". ")[0]
print(f"{caught[0].category.__name__}: {sentence}.")

# retain_grad() before backward keeps a non-leaf's gradient
x.grad = None
h = x * 2
h.retain_grad()
(h ** 2).sum().backward()
print("h.grad after retain_grad:", h.grad)

# detach(): the same data, out of the graph; a leaf that does not require grad
d = h.detach()
print("detached:", d.requires_grad, d.is_leaf, "same data:", d.data_ptr() == h.data_ptr())
try:
    h.requires_grad_(False)  # only leaves may change the flag
except RuntimeError as error:
    print(f"RuntimeError: {error}")
start = h.detach().requires_grad_()  # a new leaf, to optimize from here
print("new leaf:", start.is_leaf, start.requires_grad)
