"""nn.Buffer: assign a buffer as a module attribute, the same as register_buffer;
persistent=False.

Run: python module_buffer.py
"""
import torch
from torch import nn


class Norm(nn.Module):
    def __init__(self):
        super().__init__()
        self.mean = nn.Buffer(torch.zeros(2))  # registered by assignment
        self.scratch = nn.Buffer(torch.ones(2), persistent=False)  # not saved
        self.register_buffer("std", torch.ones(2))  # the older spelling, same result

    def forward(self, x):
        return (x - self.mean) / self.std


m = Norm()
print("buffers:", [name for name, _ in m.named_buffers()])
print("state_dict:", list(m.state_dict()))
print("type:", type(m.mean).__name__)  # a plain Tensor once registered
print("parameters:", len(list(m.parameters())))
m.mean = torch.full((2,), 0.5)  # a plain tensor replaces the buffer's value
print("still a buffer:", "mean" in dict(m.named_buffers()), m(torch.ones(2)))
m.to(torch.float64)
print("moves with the module:", m.mean.dtype, m.scratch.dtype)
