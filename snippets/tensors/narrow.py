"""torch.narrow: a view of `length` elements from `start` along a dim; narrow_copy: the same,
copied.

Run: python narrow.py
"""
import torch

x = torch.arange(12).view(3, 4)
view = torch.narrow(x, 1, 1, 2)  # columns 1 and 2: x[:, 1:3]
copy = torch.narrow_copy(x, 1, 1, 2)
print(f"narrow(x, 1, 1, 2):\n{view}")
print("narrow_copy equal:", torch.equal(view, copy))
print("shares memory with x:", view.data_ptr() == x[:, 1].data_ptr(),
      copy.data_ptr() == x[:, 1].data_ptr())

view[0, 0] = -1  # writes to x
copy[0, 1] = -2  # does not
print("x[0]:", x[0])

print("start=-1:", torch.narrow(x, 0, -1, 1))  # negative start counts from the end
try:
    torch.narrow(x, 1, 3, 2)  # slicing would clip; narrow does not
except RuntimeError as error:
    print(f"RuntimeError: {error}")
print("x[:, 3:5] clips:", tuple(x[:, 3:5].shape))
