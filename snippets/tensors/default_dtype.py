"""torch.set_default_dtype / get_default_dtype: the dtype Python floats become.

Run: python default_dtype.py
"""
import numpy as np
import torch

before = torch.ones(1)
print("default:", torch.get_default_dtype())
torch.set_default_dtype(torch.float64)
print("now:", torch.get_default_dtype())

print("Python floats:", torch.tensor([1.5]).dtype)
print("Python complex:", torch.tensor([1j]).dtype)  # the complex default follows
print("Python ints:", torch.tensor([1]).dtype)      # integers are not affected
print("int / 2:", (torch.arange(3) / 2).dtype)      # int -> float promotion uses it too
print("torch.add(int, 0.5):", torch.add(torch.arange(3), 0.5).dtype)  # so does a float scalar
print("zeros:", torch.zeros(1).dtype)
print("NumPy float32:", torch.from_numpy(np.ones(1, dtype=np.float32)).dtype)
print("created before:", before.dtype)              # existing tensors keep theirs

try:
    torch.set_default_dtype(torch.int64)
except TypeError as error:
    print(f"TypeError: {error}")

torch.set_default_dtype(torch.float32)  # global state: put it back
print("restored:", torch.get_default_dtype())
