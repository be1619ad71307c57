"""Factor once, solve many: linalg.lu_factor, lu_solve, ldl_factor, cholesky_solve; geqrf and Q.

Run: python linalg_lu.py
"""
import torch


def r(t):
    return t.round(decimals=4) + 0.0  # hide last-digit differences (and -0.0) between machines


A = torch.tensor([[1.0, 2.0, 0.0], [4.0, 1.0, 1.0], [2.0, 0.0, 3.0]])
P, L, U = torch.linalg.lu(A)  # A = P @ L @ U, L unit lower, U upper
print("P @ L @ U == A:", torch.allclose(P @ L @ U, A, atol=1e-6))
print(f"P (rows swapped so the largest pivot comes first):\n{P}")

LU, pivots = torch.linalg.lu_factor(A)  # the compact form: L and U in one matrix
print("pivots (1-based, LAPACK style):", pivots)
B = torch.tensor([[3.0, 1.0], [6.0, 0.0], [5.0, 0.0]])
X = torch.linalg.lu_solve(LU, pivots, B)  # reuse the factorization for any B
print(f"lu_solve:\n{r(X)}")
print("same as solve:", torch.allclose(X, torch.linalg.solve(A, B), atol=1e-6))
P2, L2, U2 = torch.lu_unpack(LU, pivots)  # back to P, L, U
print("lu_unpack gives lu's factors:", torch.equal(P2, P) and torch.allclose(L2 @ U2, L @ U))

# symmetric positive-definite
S = torch.tensor([[4.0, 2.0, 0.0], [2.0, 5.0, 1.0], [0.0, 1.0, 3.0]])
C = torch.linalg.cholesky(S)
print(f"cholesky_solve (note: B first):\n{r(torch.cholesky_solve(B, C))}")
print("cholesky_inverse == inv:",
      torch.allclose(torch.cholesky_inverse(C), torch.linalg.inv(S), atol=1e-6))
Ssym = torch.tensor([[1.0, 2.0], [2.0, 1.0]])  # symmetric but indefinite: no Cholesky
LD, piv = torch.linalg.ldl_factor(Ssym)
print("ldl_solve:", r(torch.linalg.ldl_solve(LD, piv, torch.tensor([[3.0], [3.0]])).flatten()))

M = torch.tensor([[3.0, 1.0], [4.0, 2.0], [0.0, 2.0]])
QR, tau = torch.geqrf(M)  # LAPACK's compact QR: R above the diagonal, reflectors below
Q = torch.linalg.householder_product(QR, tau)  # the explicit Q (3 x 2)
print("Q @ triu(QR) == M:", torch.allclose(Q @ QR[:2].triu(), M, atol=1e-6))
print("same Q as linalg.qr up to signs:",
      torch.allclose(Q.abs(), torch.linalg.qr(M).Q.abs(), atol=1e-6))
e1 = torch.tensor([[1.0], [0.0], [0.0]])
print("ormqr(QR, tau, e1) == Q[:, :1]:",  # multiplies by Q without forming it
      torch.allclose(torch.ormqr(QR, tau, e1), Q[:, :1], atol=1e-6))
