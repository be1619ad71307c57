"""torch.take_along_dim: apply the indices of argsort / topk / argmax to a tensor.

Run: python take_along_dim.py
"""
import torch

scores = torch.tensor([[0.1, 0.7, 0.2], [0.5, 0.3, 0.9]])
names = torch.tensor([[100, 101, 102], [200, 201, 202]])  # another tensor, same layout

order = torch.argsort(scores, dim=1, descending=True)
print(f"argsort:\n{order}")
print(f"scores sorted:\n{torch.take_along_dim(scores, order, dim=1)}")
print("dim forgotten:", torch.take_along_dim(scores, order))  # flattened: wrong elements
top = torch.topk(scores, k=2, dim=1)
print(f"names of the top 2:\n{torch.take_along_dim(names, top.indices, dim=1)}")

best = torch.argmax(scores, dim=1, keepdim=True)  # keepdim: same number of dims
print("row maxima:", torch.take_along_dim(scores, best, dim=1).flatten())
try:
    torch.take_along_dim(scores, torch.argmax(scores, dim=1), dim=1)  # no keepdim
except RuntimeError as error:
    print(f"RuntimeError: {error}")

last = torch.tensor([[-1]])  # broadcast to every row; negative counts from the end
print("index [[-1]]:", torch.take_along_dim(scores, last, dim=1).flatten())

flat = torch.argmax(scores)  # no dim: an index into the flattened tensor
print("dim=None:", torch.take_along_dim(scores, flat))
