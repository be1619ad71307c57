"""torch.tile repeats a whole tensor along each dim (NumPy's tile); missing dims count as 1.

Run: python tile.py
"""
import torch

v = torch.tensor([1, 2, 3])
print("tile(v, (2,)):", torch.tile(v, (2,)))  # the whole tensor, twice
print("repeat_interleave(v, 2):", torch.repeat_interleave(v, 2))  # each element, twice
print(f"tile(v, (2, 2)):\n{torch.tile(v, (2, 2))}")  # v is treated as [1, 3]

m = torch.tensor([[1, 2], [3, 4]])
print(f"tile(m, (2,)), read as (1, 2):\n{torch.tile(m, (2,))}")  # fewer dims: ones in front
print("m.repeat(1, 2) is the same:", torch.equal(m.repeat(1, 2), torch.tile(m, (2,))))
try:
    m.repeat(2)  # repeat needs at least one count per dim
except RuntimeError as error:
    print(f"RuntimeError: {error}")

t = torch.tile(m, (2, 1))
print("tile shares memory with m:", t.data_ptr() == m.data_ptr(), tuple(t.shape))
print("expand shares memory instead:", m[None].expand(2, 2, 2).data_ptr() == m.data_ptr())
