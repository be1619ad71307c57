"""Embedding: integer ids in, one vector per id out; padding_idx gets no gradient; max_norm
rescales the rows it looks up, in place. EmbeddingBag: the sum or mean of each bag, with
offsets.

Run: python layer_embedding.py
"""
import torch
from torch import nn

torch.manual_seed(0)
embedding = nn.Embedding(num_embeddings=10, embedding_dim=3, padding_idx=0)
print("weight:", tuple(embedding.weight.shape))  # (num_embeddings, embedding_dim)
print("row 0:", embedding.weight[0].tolist())  # the padding row starts at zero
ids = torch.tensor([[0, 2, 5], [4, 0, 0]])  # (N, L) int64, 0 = padding
vectors = embedding(ids)
print("output:", tuple(vectors.shape))  # (N, L, embedding_dim)
vectors.sum().backward()
print("grad row 0:", embedding.weight.grad[0].tolist(), "row 2:",
      embedding.weight.grad[2].tolist())
try:
    embedding(torch.tensor([10]))  # ids run from 0 to num_embeddings - 1
except IndexError as error:
    print(f"IndexError: {error}")
try:
    embedding(torch.tensor([1.0]))
except RuntimeError as error:
    print(f"RuntimeError: {str(error).split(' (')[0]}")

# max_norm: each row looked up is rescaled to norm <= max_norm in the weight itself
capped = nn.Embedding(5, 4, max_norm=1.0)
print("norms before:", [round(n, 4) for n in capped.weight.norm(dim=1).tolist()])
with torch.no_grad():
    capped(torch.tensor([1, 3]))
print("norms after: ", [round(n, 4) for n in capped.weight.norm(dim=1).tolist()])
hidden = torch.randn(3, 4, requires_grad=True)
tied = hidden @ capped.weight.T  # the weight used before a lookup that rescales rows 0 and 2
try:
    (tied.sum() + capped(torch.tensor([0, 2])).sum()).backward()
except RuntimeError as error:
    print(f"RuntimeError: {str(error).split(':')[0]}")
tied = hidden @ capped.weight.clone().T  # a clone is not modified: row 4 is rescaled, no error
(tied.sum() + capped(torch.tensor([4])).sum()).backward()
print("with clone():", [round(n, 4) for n in capped.weight.norm(dim=1).tolist()])

# from_pretrained: frozen by default
pretrained = nn.Embedding.from_pretrained(torch.eye(3))
print("pretrained requires_grad:", pretrained.weight.requires_grad)

# EmbeddingBag: bags of different sizes, flattened, with the start of each bag
bag = nn.EmbeddingBag(10, 3, mode="sum")
flat = torch.tensor([1, 2, 4, 5, 4, 3, 2, 9])
offsets = torch.tensor([0, 3])  # bag 0 = flat[0:3], bag 1 = flat[3:]
sums = bag(flat, offsets)
print("bags:", tuple(sums.shape))  # (number of bags, embedding_dim)
print("sum of rows:", torch.allclose(sums[1], bag.weight[[5, 4, 3, 2, 9]].sum(0)))
mean_bag = nn.EmbeddingBag.from_pretrained(bag.weight.detach(), mode="mean")
print("mean of rows:", torch.allclose(mean_bag(flat, offsets)[0], bag.weight[[1, 2, 4]].mean(0)))
print("2-D input, equal bags:", tuple(mean_bag(torch.tensor([[1, 2], [3, 4]])).shape))
