"""Randomized and iterative methods: torch.svd_lowrank, pca_lowrank and lobpcg on small exact
cases.

Run: python linalg_lowrank.py
"""
import torch


def r(t):
    return t.round(decimals=3) + 0.0  # iterative results: keep 3 decimals


torch.manual_seed(0)  # the methods draw random starting vectors
u = torch.tensor([1.0, 2.0, 2.0, 0.0, 0.0, 0.0])  # |u| = 3
v = torch.tensor([0.0, 0.0, 0.0, 3.0, 4.0, 0.0])  # |v| = 5
A = 2 * torch.outer(u, u) / 9 + torch.outer(v, v) / 25  # rank 2: singular values 2 and 1
U, S, V = torch.svd_lowrank(A, q=2)  # note: V, not Vh
print("svd_lowrank values:", r(S), "U * S @ V.mT == A:",
      torch.allclose(U * S @ V.mT, A, atol=1e-4))
print("svdvals (exact, all 6):", r(torch.linalg.svdvals(A)))

X = torch.tensor([[1.0, 2.0], [2.0, 4.0], [3.0, 6.0], [4.0, 8.0]])  # points on a line
U, S, V = torch.pca_lowrank(X, q=2)  # centers the columns by default
print("pca_lowrank values:", r(S), "first direction |V[:, 0]|:", r(V[:, 0].abs()))

D = torch.eye(10) * torch.arange(1.0, 11.0)  # diagonal, eigenvalues 1 ... 10
w, vecs = torch.lobpcg(D, k=2, largest=True)  # a few eigenpairs of a symmetric matrix
print("lobpcg, 2 largest:", r(w), "eigenvector shape:", tuple(vecs.shape))
