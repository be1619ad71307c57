"""torch.linalg.matrix_sqrth (square root of an SPD matrix) and linalg.polar (A = U @ H).

Run: python linalg_sqrth_polar.py
"""
import torch


def r(t):
    return t.round(decimals=4) + 0.0  # hide last-digit differences (and -0.0) between machines


A = torch.tensor([[5.0, 4.0], [4.0, 5.0]])  # symmetric positive-definite, eigenvalues 1 and 9
X = torch.linalg.matrix_sqrth(A)  # the symmetric positive-definite X with X @ X == A
print(f"matrix_sqrth:\n{r(X)}")
print("X @ X == A:", torch.allclose(X @ X, A, atol=1e-5))
print(f"not the element-wise sqrt:\n{r(torch.sqrt(A))}")

M = torch.tensor([[0.0, -2.0], [3.0, 0.0]])  # a rotation times a stretch
U, H = torch.linalg.polar(M)  # U orthogonal, H symmetric positive-semidefinite
print(f"polar U:\n{r(U)}")
print(f"polar H:\n{r(H)}")
print("U @ H == M:", torch.allclose(U @ H, M, atol=1e-5))
