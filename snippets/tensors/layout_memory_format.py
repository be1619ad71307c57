"""torch.layout and torch.memory_format: strided vs sparse, channels_last strides,
preserve_format.

Run: python layout_memory_format.py
"""
import torch

x = torch.arange(24.0).reshape(2, 3, 2, 2)  # N, C, H, W
print("layout:", x.layout, "| strides:", x.stride(), "| contiguous:", x.is_contiguous())
cl = x.contiguous(memory_format=torch.channels_last)  # same values, stored N, H, W, C
print("channels_last:", tuple(cl.shape), cl.stride(), "| equal values:", torch.equal(cl, x))
print("is_contiguous():", cl.is_contiguous(),
      "| is_contiguous(channels_last):", cl.is_contiguous(memory_format=torch.channels_last))
print("to(memory_format=...):", x.to(memory_format=torch.channels_last).stride())
print("clone keeps it:", cl.clone().stride())  # memory_format=torch.preserve_format by default
print("clone contiguous_format:", cl.clone(memory_format=torch.contiguous_format).stride())
print("empty_like preserve_format:",
      torch.empty_like(cl, memory_format=torch.preserve_format).stride())
v = torch.zeros(1, 2, 2, 2, 2).to(memory_format=torch.channels_last_3d)  # N, C, D, H, W
print("channels_last_3d:", v.stride())

s = torch.tensor([[0.0, 2.0], [3.0, 0.0]]).to_sparse()
print("sparse:", s.layout, s.layout == torch.sparse_coo, s.is_sparse, "| dense:", x.layout,
      x.is_sparse)
print("classes:", isinstance(torch.strided, torch.layout),
      isinstance(torch.channels_last, torch.memory_format))
