"""Solving A X = B: linalg.solve (not inv), inv, solve_triangular, lstsq, pinv, vander,
tensorsolve.

Run: python linalg_solve.py
"""
import torch


def r(t):
    return t.round(decimals=4) + 0.0  # hide last-digit differences (and -0.0) between machines


A = torch.tensor([[4.0, 1.0], [2.0, 3.0]])
b = torch.tensor([9.0, 13.0])
x = torch.linalg.solve(A, b)  # solves A @ x = b directly
print("solve:", r(x), "check A @ x:", r(A @ x))
print("inv(A) @ b:", r(torch.linalg.inv(A) @ b))  # same here, but slower and less accurate
print(f"inv(A):\n{r(torch.linalg.inv(A))}")
B = torch.tensor([[9.0, 1.0], [13.0, 0.0]])  # two right-hand sides, as columns
print(f"solve, several columns:\n{r(torch.linalg.solve(A, B))}")
print(f"solve X @ A = B (left=False):\n{r(torch.linalg.solve(A, B, left=False))}")
batch = torch.stack([A, 2 * A])  # [2, 2, 2]
print(f"solve, a batch with one b:\n{r(torch.linalg.solve(batch, b))}")  # b broadcasts

U = torch.tensor([[2.0, 1.0], [0.0, 4.0]])  # upper triangular
X = torch.linalg.solve_triangular(U, b.unsqueeze(-1), upper=True)  # B must be 2-D
print("solve_triangular:", r(X.flatten()))

# lstsq: more equations than unknowns; fit y = c0 + c1 * t through four points
t = torch.tensor([0.0, 1.0, 2.0, 3.0])
y = torch.tensor([1.0, 3.0, 5.0, 7.0])  # exactly 1 + 2 t
print(f"vander(t, N=3):\n{torch.linalg.vander(t, N=3)}")  # columns t**0, t**1, t**2
V = torch.linalg.vander(t, N=2)
fit = torch.linalg.lstsq(V, y)  # a named tuple
print("lstsq solution:", r(fit.solution))
print("pinv(V) @ y:", r(torch.linalg.pinv(V) @ y))  # the same least-squares answer
S = torch.tensor([[1.0, 2.0], [2.0, 4.0]])  # singular: inv fails, pinv does not
print(f"pinv of a singular matrix:\n{r(torch.linalg.pinv(S))}")

T = torch.eye(6).reshape(2, 3, 6)  # a linear map from shape [6] to shape [2, 3], as a tensor
Y = torch.arange(6.0).reshape(2, 3)
print("tensorsolve:", r(torch.linalg.tensorsolve(T, Y)))  # X with tensordot(T, X) == Y
print("tensorinv shape:", torch.linalg.tensorinv(T, ind=2).shape)  # the inverse map
