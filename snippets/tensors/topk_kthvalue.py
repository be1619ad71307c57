"""torch.topk / kthvalue / argmax / argmin: the k largest, the k-th smallest, where the extremes
are.

Run: python topk_kthvalue.py
"""
import torch

scores = torch.tensor([[0.1, 0.7, 0.2, 0.9], [0.5, 0.3, 0.8, 0.4]])
top = torch.topk(scores, k=2, dim=1)  # the 2 largest of each row, largest first
print(f"top-2 values:\n{top.values}")
print(f"top-2 indices:\n{top.indices}")
low = torch.topk(scores, k=2, dim=1, largest=False)  # the 2 smallest, smallest first
print(f"bottom-2 indices:\n{low.indices}")

x = torch.tensor([3, 1, 2, 1, 3, 0])
# values only: which tied index comes back is not guaranteed
print("top-3 values, ties:", torch.topk(x, k=3).values)
try:
    torch.topk(x, k=7)  # k larger than the dimension
except RuntimeError as error:
    print(f"RuntimeError: {error}")

y = torch.tensor([5, 2, 9, 7])
kth = torch.kthvalue(y, k=2)  # the 2nd smallest: k counts from 1
print("kthvalue k=2:", kth.values, kth.indices)
print("2nd largest:", torch.kthvalue(y, k=y.numel() - 1).values)

print("argmax dim=1:", torch.argmax(scores, dim=1), "argmin dim=1:", torch.argmin(scores, dim=1))
flat = torch.argmax(scores)  # no dim: an index into the flattened tensor
print("argmax, no dim:", flat, "as (row, column):", torch.unravel_index(flat, scores.shape))
print("argmax, tie:", torch.argmax(torch.tensor([7, 9, 9])))  # the first of the maxima
