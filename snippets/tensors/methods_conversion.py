"""dtype conversions and tensor attributes as methods: x.long() is x.to(torch.int64), x.type()
names the tensor type, x.new_tensor(data) copies data with x's dtype and device.

Run: python methods_conversion.py
"""
import warnings

import torch

x = torch.tensor([-1.5, 0.0, 2.7])
# float to int truncates toward 0
print("bool:", x.bool(), "| int:", x.int(), "| long:", x.long())
print("byte:", torch.tensor([255, 256, -1]).byte())  # uint8 wraps around
print("char:", torch.tensor([127, 128]).char())      # int8 wraps around
print("cfloat:", x.cfloat().dtype, "| cdouble:", x.cdouble().dtype)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    print("chalf:", x.chalf().dtype)
for warning in caught[:1]:  # complex32 is experimental and says so
    print(f"{warning.category.__name__}: {str(warning.message).split(' (Triggered')[0]}")
print("same dtype: no copy:", x.float() is x, "| another dtype: a new tensor:", x.long() is x)

print("type():", x.type(), "| type(torch.int64):", x.type(torch.int64))
print("type('torch.DoubleTensor'):", x.type("torch.DoubleTensor").dtype)

h = torch.tensor([1.0], dtype=torch.float16)
n = h.new_tensor([0.25, 0.5])  # new data, h's dtype and device
print("new_tensor:", n, n.dtype)

base = torch.arange(6)
view = base[2:]
print("storage_offset:", base.storage_offset(), view.storage_offset())  # elements, not bytes

w = torch.ones(2, requires_grad=True)
y = w * 2
y.detach_()  # y itself leaves the graph
print("detach_:", y.requires_grad, y.grad_fn)

print("is_sparse_csr:", x.is_sparse_csr)
# Device flags: False on a CPU tensor, True on a tensor of that device
print("is_mps is_xpu is_xla is_ipu is_vulkan:", x.is_mps, x.is_xpu, x.is_xla, x.is_ipu,
      x.is_vulkan)
