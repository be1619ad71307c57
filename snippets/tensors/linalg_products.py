"""Products: linalg.vecdot, cross, multi_dot, matrix_power, matrix_exp; addmm and its family;
trapezoid.

Run: python linalg_products.py
"""
import torch


def r(t):
    return t.round(decimals=4) + 0.0  # hide last-digit differences (and -0.0) between machines


a = torch.tensor([[1.0, 2.0, 3.0], [0.0, 1.0, 0.0]])
b = torch.tensor([[4.0, 5.0, 6.0], [1.0, 0.0, 0.0]])
print("vecdot (row by row):", torch.linalg.vecdot(a, b))  # a batch of dot products
print("cross (row by row):", torch.linalg.cross(a, b))  # dim=-1, needs size 3 there
z = torch.tensor([1 + 1j, 2j])
print("vdot conjugates its first argument:", torch.vdot(z, z))
print("vecdot conjugates x too:", torch.linalg.vecdot(z, z))
print(f"inner (last dims against each other):\n{torch.inner(a, b)}")  # a @ b.T

A = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
x = torch.tensor([1.0, -1.0])
print("mv:", torch.mv(A, x))  # matrix times vector
M = [torch.ones(2, 50), torch.ones(50, 3), torch.ones(3, 1)]
print("multi_dot:", torch.linalg.multi_dot(M).flatten())  # picks the cheapest order
# first as a row, last as a column
print("multi_dot, 1-D ends:", torch.linalg.multi_dot([x, A, x]))

C = torch.tensor([[10.0, 20.0], [30.0, 40.0]])
print(f"addmm: beta * C + alpha * (A @ A):\n{torch.addmm(C, A, A, beta=0.5, alpha=2)}")
print("addmv: C[0] + A @ x:", torch.addmv(C[0], A, x))
print(f"addr: C + outer(x, x):\n{torch.addr(C, x, x)}")
batch = torch.stack([A, torch.eye(2)])  # shape [2, 2, 2]
print(f"baddbmm: one result per batch entry:\n{torch.baddbmm(C, batch, batch)}")
print(f"addbmm: the batch summed:\n{torch.addbmm(C, batch, batch)}")

y = torch.tensor([0.0, 1.0, 4.0, 9.0])  # samples of t**2
print("trapezoid, dx=1:", torch.trapezoid(y))
print("trapezoid, x given:", torch.trapezoid(y, torch.tensor([0.0, 1.0, 2.0, 3.0])))
print("cumulative_trapezoid:", torch.cumulative_trapezoid(y, dx=0.5))  # running integral

P = torch.tensor([[1.0, 1.0], [0.0, 1.0]])
print(f"matrix_power(P, 3):\n{torch.linalg.matrix_power(P, 3)}")  # P @ P @ P
print(f"matrix_power(P, -1), the inverse:\n{r(torch.linalg.matrix_power(P, -1))}")
N = torch.tensor([[0.0, 1.0], [0.0, 0.0]])  # N @ N == 0, so exp(N) = I + N
print(f"matrix_exp(N):\n{r(torch.linalg.matrix_exp(N))}")
