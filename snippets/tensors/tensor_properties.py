"""Autograd and storage properties of a tensor: requires_grad, is_leaf, grad_fn, grad, data,
layout, flags.

Run: python tensor_properties.py
"""
import torch

w = torch.tensor([1.0, 2.0], requires_grad=True)  # a leaf: created by the user
y = (w * 3).sum()  # a result: it records the function that made it
print("w:", w.requires_grad, w.is_leaf, w.grad_fn, w.grad)
print("y:", y.requires_grad, y.is_leaf, type(y.grad_fn).__name__)
y.backward()
print("w.grad after backward:", w.grad)

h = w * 2
h.retain_grad()  # keep .grad on a non-leaf too
(h * h).sum().backward()
print("retains_grad:", h.retains_grad, "| h.grad:", h.grad)

d = w.data  # same storage, outside autograd: prefer w.detach()
d.mul_(10)  # changes w behind autograd's back
print("after w.data.mul_(10):", w.detach(), "| data requires_grad:", d.requires_grad)
z = torch.ones(2)
z.requires_grad = True  # allowed on a leaf, same as z.requires_grad_()
print("z:", z.requires_grad, z.is_leaf)

c = torch.tensor([1 + 2j, 3 - 1j])
print("real, imag:", c.real, c.imag)  # views of a complex tensor
print("shape:", c.shape, isinstance(c.shape, torch.Size), c.shape == (2,))  # a tuple subclass
print("layout:", c.layout, "| flags:", c.is_sparse, c.is_quantized, c.is_meta, c.is_nested,
      c.is_mkldnn)
