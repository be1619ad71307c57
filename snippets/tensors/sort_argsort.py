"""torch.sort / argsort: stable=True keeps equal elements in their original order.

Run: python sort_argsort.py
"""
import torch

x = torch.tensor([3, 1, 2, 1, 3, 0])  # two 1s (at 1 and 3), two 3s (at 0 and 4)
result = torch.sort(x, stable=True)  # a named tuple (values, indices)
print("values: ", result.values)
print("indices:", result.indices)  # equal values keep their order: 1 before 3, 0 before 4
down = torch.sort(x, descending=True, stable=True)
print("descending:", down.values, down.indices)  # still 0 before 4
print("flipped ascending:", torch.flip(result.indices, dims=[0]))  # not the same: 4 before 0
print("argsort:", torch.argsort(x, stable=True))  # the indices alone
print("argsort descending:", torch.argsort(x, descending=True, stable=True))

m = torch.tensor([[9, 4, 7], [2, 8, 5]])
print(f"each row sorted (dim=-1, the default):\n{torch.sort(m).values}")
print(f"each column sorted (dim=0):\n{torch.sort(m, dim=0).values}")
print(f"rows reordered by column 0:\n{m[torch.argsort(m[:, 0])]}")
