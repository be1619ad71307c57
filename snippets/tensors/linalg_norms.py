"""torch.linalg norms: vector_norm, matrix_norm, norm, cond and matrix_rank; linalg.diagonal.

Run: python linalg_norms.py
"""
import torch


def r(t):
    return t.round(decimals=4) + 0.0  # hide last-digit differences (and -0.0) between machines


v = torch.tensor([3.0, -4.0, 0.0])
print("vector_norm 2, 1, inf, 0:", [round(torch.linalg.vector_norm(v, ord=p).item(), 4)
                                    for p in (2, 1, float("inf"), 0)])
A = torch.tensor([[1.0, -2.0], [3.0, 4.0]])
print("vector_norm of a matrix:", r(torch.linalg.vector_norm(A)))  # flattens: all 4 entries
print("matrix_norm fro:", r(torch.linalg.matrix_norm(A)))  # the default ord is "fro"
print("matrix_norm 1 (max column sum):", r(torch.linalg.matrix_norm(A, ord=1)))
print("matrix_norm inf (max row sum):", r(torch.linalg.matrix_norm(A, ord=float("inf"))))
print("matrix_norm 2 (largest singular value):", r(torch.linalg.matrix_norm(A, ord=2)))
print("matrix_norm nuc (sum of singular values):", r(torch.linalg.matrix_norm(A, ord="nuc")))
rows = torch.linalg.vector_norm(A, dim=1, keepdim=True)  # one norm per row
print(f"rows scaled to length 1:\n{r(A / rows)}")

# 1-D: vector, 2-D: matrix
print("norm(v):", r(torch.linalg.norm(v)), "norm(A):", r(torch.linalg.norm(A)))
print("norm(A, ord=2):", r(torch.linalg.norm(A, ord=2)))  # matrix 2-norm, not the vector one
# an int dim: vector norms
print("norm(A, ord=2, dim=1):", r(torch.linalg.norm(A, ord=2, dim=1)))

D = torch.tensor([[100.0, 0.0], [0.0, 1.0]])
# largest / smallest singular value
print("cond(I), cond(D):", r(torch.linalg.cond(torch.eye(2))), r(torch.linalg.cond(D)))
S = torch.tensor([[1.0, 2.0], [2.0, 4.0]])  # second row = 2 * first
print("cond of a singular matrix:", torch.linalg.cond(S).item() > 1e7)  # huge or inf
print("matrix_rank:", torch.linalg.matrix_rank(A), torch.linalg.matrix_rank(S))

B = torch.arange(8.0).reshape(2, 2, 2)  # a batch of two 2 x 2 matrices
print("batched matrix_norm:", r(torch.linalg.matrix_norm(B, ord=1)))
print("linalg.diagonal:", torch.linalg.diagonal(B))  # last two dims by default
print("torch.diagonal:", torch.diagonal(B))  # first two dims by default
