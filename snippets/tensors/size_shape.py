"""size(), shape, dim(), numel(), element_size(), nbytes: how big a tensor is.

Run: python size_shape.py
"""
import torch

x = torch.zeros(2, 3, 4)
print(x.shape, x.size())  # the same torch.Size, a tuple subclass
print(isinstance(x.shape, tuple), x.shape == (2, 3, 4))
print(x.shape[0], x.shape[-1], x.size(1), x.size(-1))  # one dimension: index or size(dim)
print(x.shape[1:])  # slicing gives a torch.Size again
batch, rows, cols = x.shape  # unpacks like a tuple
print(batch, rows, cols)
try:
    x.size(3)  # dims run from -3 to 2 here
except IndexError as exc:
    print(f"IndexError: {exc}")

print(x.dim(), x.ndim)  # number of dimensions
print(x.numel(), x.nelement(), x.shape.numel())  # number of elements
print(torch.tensor(5.0).shape, torch.tensor(5.0).dim(), torch.tensor(5.0).numel())

# Bytes: per element, and for the elements the tensor shows
for t in (x, x.half(), x.long(), x[:, :, :2]):
    print(t.dtype, t.element_size(), t.itemsize, t.nbytes)
# nbytes counts the view's elements, not the storage it keeps alive
print(x[:, :, :2].untyped_storage().nbytes())
