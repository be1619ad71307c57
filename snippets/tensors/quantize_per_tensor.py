"""torch.quantize_per_tensor: Q = round(x / scale + zero_point), clamped.

Deprecated in torch 2.13: the script catches the UserWarning on purpose and
prints it, then does the same arithmetic with plain uint8 tensors.

Run: python quantize_per_tensor.py
"""
import warnings

import torch

x = torch.tensor([-1.0, 0.0, 0.26, 1.0, 30.0])
scale, zero_point = 0.1, 10
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    q = torch.quantize_per_tensor(x, scale, zero_point, torch.quint8)
message = str(caught[0].message).split(" Please see")[0]
print(f"{caught[0].category.__name__}: {message}")
print(q.int_repr())    # the stored integers Q
print(q.dequantize())  # (Q - zero_point) * scale

# The same with ordinary tensors
manual = torch.round(x / scale + zero_point).clamp(0, 255).to(torch.uint8)
print(manual)
print((manual.float() - zero_point) * scale)
