"""torch.einsum: batch matmul, trace, diagonal, outer; and the float32 matmul precision setting.

Run: python einsum_precision.py
"""
import torch

a = torch.arange(12.0).reshape(2, 3, 2)
b = torch.arange(8.0).reshape(2, 2, 2)
c = torch.einsum("bij,bjk->bik", a, b)  # j is summed away, b is kept: a batch matmul
print("bij,bjk->bik:", c.shape, "same as bmm:", torch.equal(c, torch.bmm(a, b)))
d = torch.einsum("...ij,...jk->...ik", torch.ones(2, 1, 3, 4), torch.ones(5, 4, 2))
print("...ij,...jk->...ik:", d.shape)  # ... broadcasts, like matmul

m = torch.arange(9.0).reshape(3, 3)
print("ii-> (trace):", torch.einsum("ii->", m), "torch.trace:", torch.trace(m))
print("ii->i (diagonal):", torch.einsum("ii->i", m))
u, w = torch.tensor([1, 2, 3]), torch.tensor([10, 20])
print(f"i,j->ij (outer):\n{torch.einsum('i,j->ij', u, w)}")
print("i,i-> (dot):", torch.einsum("i,i->", u, u))

before = torch.get_float32_matmul_precision()
print("float32 matmul precision:", before)
torch.set_float32_matmul_precision("high")  # lets GPUs with TF32 use it for float32 matmuls
print("after set('high'):", torch.get_float32_matmul_precision())
torch.set_float32_matmul_precision(before)  # a process-wide setting: put it back
print("restored:", torch.get_float32_matmul_precision())
