"""torch.matmul (@) with 1-D operands and broadcast batch dims; mm, bmm, dot and outer do
neither.

Run: python matmul.py
"""
import torch

A = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])  # shape [3, 2]
v = torch.tensor([1.0, 2.0])  # shape [2]
print(f"A @ A.T:\n{A @ A.T}")  # 2-D @ 2-D: the matrix product
print("same as mm:", torch.equal(A @ A.T, torch.mm(A, A.T)))
print("A @ v:", A @ v)  # 2-D @ 1-D: v acts as a column, the result is 1-D
u = torch.tensor([1.0, 0.0, -1.0])  # shape [3]
print("u @ A:", u @ A)  # 1-D @ 2-D: u acts as a row
print("v @ v:", v @ v, "dot:", torch.dot(v, v))  # 1-D @ 1-D: the dot product, 0-d

print("batch dims broadcast:", torch.matmul(torch.ones(2, 1, 3, 4), torch.ones(5, 4, 2)).shape)
print("one matrix for a batch:", torch.matmul(torch.ones(6, 3, 4), torch.ones(4, 2)).shape)
print("a vector against a batch:", torch.matmul(torch.ones(6, 3, 4), torch.ones(4)).shape)

b1 = torch.arange(12.0).reshape(2, 3, 2)
b2 = torch.arange(8.0).reshape(2, 2, 2)
print("bmm:", torch.bmm(b1, b2).shape, "same as @:", torch.equal(torch.bmm(b1, b2), b1 @ b2))
for name, call in [
    ("mm of a batch", lambda: torch.mm(b1, b2)),
    ("bmm, batch 2 with batch 1", lambda: torch.bmm(b1, b2[:1])),  # no broadcasting
    ("dot of matrices", lambda: torch.dot(A, A)),
    ("dot, float32 with float64", lambda: torch.dot(v, v.double())),  # no type promotion
    ("[3, 2] @ [3, 2]", lambda: A @ A),
]:
    try:
        call()
    except RuntimeError as error:
        print(f"{name}: RuntimeError: {error}")

print(f"outer:\n{torch.outer(torch.tensor([1, 2, 3]), torch.tensor([10, 20]))}")
