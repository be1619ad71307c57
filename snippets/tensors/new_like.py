"""is_floating_point, is_complex, type_as, view_as, new_zeros/new_ones/new_full/new_empty.

Run: python new_like.py
"""
import torch

w = torch.ones(2, 3, dtype=torch.float64)  # think of it as a model's weight
idx = torch.tensor([1, 0, 2])
print(w.is_floating_point(), idx.is_floating_point(), w.is_complex())
print(torch.tensor([1j]).is_complex(), torch.tensor([1j]).is_floating_point())

print(idx.type_as(w))  # w's dtype: here idx.to(w.dtype)
wm = w.to("meta")  # the meta device stands in for a GPU: shapes, no data
print(idx.type_as(wm).device)  # w.type() names the device too: idx moves
print(torch.arange(6).view_as(w))  # = .view(w.shape): same memory, w's shape

# new_*: a new tensor with w's dtype and device, unless told otherwise
print(w.new_zeros(2))
print(w.new_ones((1, 2)))
print(w.new_full((2,), 7))
e = w.new_empty(4, 2)  # uninitialized: never print its values
print(e.shape, e.dtype, e.device)
print(wm.new_ones(2).device, wm.new_ones(2).dtype)
print(w.new_zeros(3, dtype=torch.int32))
print(idx.new_full((2,), 2.7))  # fill value converted to idx's int64
print(torch.ones(2, requires_grad=True).new_zeros(2).requires_grad)  # not inherited
