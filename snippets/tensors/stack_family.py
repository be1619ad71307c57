"""hstack / vstack / dstack / column_stack: cat with NumPy's rules, which treat 1-D inputs
specially.

Run: python stack_family.py
"""
import torch

a = torch.tensor([1, 2, 3])
b = torch.tensor([4, 5, 6])
print("hstack, 1-D:", torch.hstack([a, b]))  # 1-D: joined end to end, still 1-D
print(f"vstack, 1-D:\n{torch.vstack([a, b])}")  # each becomes a row
print(f"column_stack, 1-D:\n{torch.column_stack([a, b])}")  # each becomes a column
print("dstack, 1-D:", torch.dstack([a, b]).shape)  # each becomes [1, 3, 1]
print("row_stack is vstack:", torch.equal(torch.row_stack([a, b]), torch.vstack([a, b])))

m = torch.tensor([[1, 2], [3, 4]])
n = torch.tensor([[5, 6], [7, 8]])
print(f"hstack, 2-D (cat dim=1):\n{torch.hstack([m, n])}")
print("vstack, 2-D (cat dim=0):", torch.vstack([m, n]).shape)
print("dstack, 2-D (new last dim):", torch.dstack([m, n]).shape)
c = torch.tensor([9, 9])
print(f"column_stack, 2-D and 1-D:\n{torch.column_stack([m, c])}")  # c becomes a column
try:
    torch.hstack([m, c])  # hstack does not reshape c
except RuntimeError as error:
    print(f"RuntimeError: {error}")

print("concat:", torch.concat([a, b]))  # concat and concatenate are names of cat
print("concatenate, axis=0:", torch.concatenate([a, b], axis=0))
print("cat:", torch.cat([a, b], dim=0))
