"""Triangles and diagonals: tril / triu, tril_indices / triu_indices, diag, diag_embed,
diagflat, block_diag, kron and vander.

Run: python triangles_diag.py
"""
import torch

m = torch.arange(1, 10).reshape(3, 3)
print(f"tril:\n{torch.tril(m)}")
print(f"triu diagonal=1 (above the diagonal):\n{torch.triu(m, diagonal=1)}")
print(f"tril method, diagonal=-1:\n{m.tril(-1)}")
idx = torch.tril_indices(3, 3)  # [2, k]: row indices, column indices
print("tril_indices:", idx.tolist())
print("values there:", m[idx[0], idx[1]])
print("triu_indices offset=1:", torch.triu_indices(3, 3, offset=1).tolist())

v = torch.tensor([1, 2, 3])
print(f"diag of a vector (a matrix):\n{torch.diag(v)}")
print("diag of a matrix (a vector):", torch.diag(m), "offset 1:", torch.diag(m, 1))
batch = torch.tensor([[1, 2], [3, 4]])
print(f"diag_embed (one matrix per row):\n{torch.diag_embed(batch)}")
print(f"diagflat (flattens first):\n{torch.diagflat(batch)}")

a = torch.tensor([[1, 2], [3, 4]])
b = torch.tensor([[5]])
print(f"block_diag:\n{torch.block_diag(a, b)}")
print(f"kron with [[1, 10]]:\n{torch.kron(a, torch.tensor([[1, 10]]))}")
print(f"vander (powers, highest first):\n{torch.vander(v)}")
print(f"vander N=3, increasing:\n{torch.vander(v, N=3, increasing=True)}")
