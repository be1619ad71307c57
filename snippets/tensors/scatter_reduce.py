"""scatter_add / scatter_reduce: combine the values that land on the same index (group sums,
means, maxima).

Run: python scatter_reduce.py
"""
import torch

values = torch.tensor([-1.0, 2.0, -3.0, 4.0, -5.0, 6.0])
group = torch.tensor([0, 1, 0, 1, 2, 1])  # group 3 receives nothing
zeros = torch.zeros(4)

print("scatter_add:", torch.scatter_add(zeros, 0, group, values))  # duplicates add up
print("counts:     ", torch.scatter_add(zeros, 0, group, torch.ones(6)))
print("sum:        ", torch.scatter_reduce(zeros, 0, group, values, "sum"))

for reduce in ["mean", "amax", "prod"]:
    with_self = torch.scatter_reduce(zeros, 0, group, values, reduce)  # include_self=True
    without = torch.scatter_reduce(zeros, 0, group, values, reduce, include_self=False)
    print(f"{reduce:4}, include_self=True: ", with_self)  # the zeros take part
    print(f"{reduce:4}, include_self=False:", without)   # group 3 keeps its 0

start = torch.full((4,), 100.0)
print("untouched keeps input:",
      torch.scatter_reduce(start, 0, group, values, "amin", include_self=False))

rows = torch.tensor([[1, 2], [3, 4], [5, 6]])
row_group = torch.tensor([[1, 1], [0, 0], [1, 1]])  # index has the shape of src
print("2-D, "
      f"dim=0:\n{torch.scatter_add(torch.zeros(2, 2, dtype=torch.long), 0, row_group, rows)}")
