"""dtype= at creation, .double(), .short(), .to(dtype): element types.

Run: python dtype.py
"""
import torch

x = torch.tensor([1.7, -1.7, 2.5])
print(x.dtype)                                    # the default float dtype
print(torch.zeros(2, dtype=torch.float64).dtype)  # or chosen at creation
print(torch.tensor([1, 2], dtype=torch.float16))

print(x.double())        # = x.to(torch.float64)
print(x.short())         # = x.to(torch.int16): truncates toward zero
print(x.to(torch.int64))
b = torch.tensor([0.0, 1.7, -2.0]).to(torch.bool)
print(b)                 # zero -> False, anything else -> True

x.double()               # not in place: the result is thrown away
print(x.dtype)
print(x.to(torch.float32) is x)  # already that dtype: x itself, no copy

y = torch.tensor([300], dtype=torch.int16)
print(y.to(torch.int8))  # out of range: wraps around, no error

w = torch.tensor([1.7, -1.7], requires_grad=True)
print("requires_grad:", w.requires_grad)
print("to float64:", w.to(torch.float64).requires_grad)
print("to int64:", w.to(torch.int64).requires_grad)  # integers have no gradients: dropped
