"""A singular matrix: linalg.inv raises LinAlgError; the *_ex variants return info instead.

Run: python linalg_ex.py
"""
import torch

S = torch.tensor([[1.0, 2.0], [2.0, 4.0]])  # singular: second row = 2 * first
try:
    torch.linalg.inv(S)
except torch.linalg.LinAlgError as error:  # a subclass of RuntimeError
    print(f"inv: LinAlgError: {error}")
print("LinAlgError is a RuntimeError:", issubclass(torch.linalg.LinAlgError, RuntimeError))

A = torch.tensor([[4.0, 1.0], [2.0, 3.0]])
batch = torch.stack([A, S, A])  # the middle matrix is singular
inverse, info = torch.linalg.inv_ex(batch)  # no exception: info says which failed
print("inv_ex info:", info)  # 0: success; k > 0: the k-th pivot is zero
ok = info == 0
print("good inverses:", ok.sum().item(), "all A @ inv(A) == I:",
      torch.allclose(batch[ok] @ inverse[ok], torch.eye(2).expand(2, 2, 2)))
print("solve_ex info:", torch.linalg.solve_ex(batch, torch.ones(3, 2)).info)
print("lu_factor_ex info:", torch.linalg.lu_factor_ex(batch).info)

N = torch.tensor([[1.0, 2.0], [2.0, 1.0]])  # symmetric, not positive-definite
print("cholesky_ex info:", torch.linalg.cholesky_ex(N).info)  # leading minor 2 fails
print("ldl_factor_ex info:", torch.linalg.ldl_factor_ex(N).info)  # LDL works without that
try:
    torch.linalg.cholesky_ex(N, check_errors=True)  # raises like cholesky
except torch.linalg.LinAlgError as error:
    print(f"cholesky_ex(check_errors=True): LinAlgError: {error}")
