"""Decompositions: linalg.cholesky, qr, eigh, eigvalsh, eig, eigvals, svd, svdvals, det, slogdet.

Run: python linalg_eig_svd.py
"""
import torch


def r(t):
    return t.round(decimals=4) + 0.0  # hide last-digit differences (and -0.0) between machines


A = torch.tensor([[4.0, 2.0], [2.0, 3.0]])  # symmetric positive-definite
L = torch.linalg.cholesky(A)  # lower triangular, A = L @ L.mT
print(f"cholesky L:\n{r(L)}")
print("L @ L.mT == A:", torch.allclose(L @ L.mT, A))
print("upper=True gives L.mT:", torch.allclose(torch.linalg.cholesky(A, upper=True), L.mT))

M = torch.tensor([[3.0, 1.0], [4.0, 2.0], [0.0, 2.0]])  # 3 x 2
Q, R = torch.linalg.qr(M)  # reduced: Q is 3 x 2, R is 2 x 2
print("qr shapes:", tuple(Q.shape), tuple(R.shape), "Q @ R == M:",
      torch.allclose(Q @ R, M, atol=1e-6))
print("Q.mT @ Q == I:", torch.allclose(Q.mT @ Q, torch.eye(2), atol=1e-6))
print("|diag(R)|:", r(R.diagonal().abs()))  # the signs depend on the library
print("mode='complete':", tuple(torch.linalg.qr(M, mode="complete").Q.shape))

H = torch.tensor([[2.0, 1.0], [1.0, 2.0]])  # symmetric: eigenvalues 1 and 3
w, V = torch.linalg.eigh(H)  # ascending eigenvalues, orthonormal eigenvectors
print("eigh eigenvalues:", r(w), "eigvalsh:", r(torch.linalg.eigvalsh(H)))
print("V * w @ V.mT == H:", torch.allclose(V * w @ V.mT, H, atol=1e-6))  # V * w == V @ diag(w)
print(f"|V| (each column's sign is arbitrary):\n{r(V.abs())}")

G = torch.tensor([[0.0, 1.0], [-2.0, -3.0]])  # not symmetric: eigenvalues -1 and -2
lam, W = torch.linalg.eig(G)  # always complex results
print("eig eigenvalues (complex):", lam.dtype, "real parts:", sorted(r(lam.real).tolist()))
print("G @ W == W * lam:", torch.allclose(G.to(W.dtype) @ W, W * lam, atol=1e-6))
print("eigvals:", sorted(r(torch.linalg.eigvals(G).real).tolist()))

U, s, Vh = torch.linalg.svd(M, full_matrices=False)  # M = U @ diag(s) @ Vh
print("svd shapes:", tuple(U.shape), tuple(s.shape), tuple(Vh.shape))
print("U * s @ Vh == M:", torch.allclose(U * s @ Vh, M, atol=1e-6))
print("singular values:", r(s), "svdvals:", r(torch.linalg.svdvals(M)))
print("full_matrices=True: U is", tuple(torch.linalg.svd(M).U.shape))

print("det(A):", r(torch.linalg.det(A)), "det(H):", r(torch.linalg.det(H)), "= w[0] * w[1]:",
      r(w[0] * w[1]))
sign, logabsdet = torch.linalg.slogdet(-A)  # det(-A) = 8 for a 2 x 2
print("slogdet(-A):", r(sign), r(logabsdet), "logdet:", r(torch.logdet(A)))
print("logdet of a negative det is nan:", torch.logdet(torch.tensor([[-1.0, 0.0], [0.0, 2.0]])))
