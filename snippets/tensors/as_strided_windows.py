"""torch.as_strided: a view with the sizes and strides you choose, overlapping ones included.

Run: python as_strided_windows.py
"""
import torch

x = torch.arange(6.0)
# 4 windows of 3 elements, each starting one element after the previous one
windows = torch.as_strided(x, size=(4, 3), stride=(1, 1))
print(windows)
print("stride:", windows.stride(), "shares x:", windows.data_ptr() == x.data_ptr())

windows[0, 1] = 100.0  # one element of x, which two windows show
print(windows)
print("x:", x)

# An in-place op on an overlapping view: torch catches stride 0 ...
try:
    x.expand(2, 6).add_(1)
except RuntimeError as error:
    print(f"RuntimeError: {error}")
# ... but not this overlap: each element of x gets +1 once per window it is in
windows.add_(1)
print("x after windows.add_(1):", x)
print("clone first:", windows.clone().add_(1)[0])  # a copy has no overlap: +1 exactly once

# Sizes, strides and offset count in the underlying memory, not in the input's layout
t = torch.arange(6.0).reshape(2, 3).t()  # a transposed view, strides (1, 3)
print("t[0]:", t[0], "as_strided(t, (2,), (1,)):", torch.as_strided(t, (2,), (1,)))
tail = torch.arange(6.0)[2:]  # a view starting at element 2 of its memory
print("offset kept:", torch.as_strided(tail, (2,), (1,)),
      "storage_offset=0:", torch.as_strided(tail, (2,), (1,), 0))

try:  # the view must stay inside the tensor's memory
    torch.as_strided(x, size=(4, 3), stride=(2, 1))
except RuntimeError as error:
    print(f"RuntimeError: {error}")
