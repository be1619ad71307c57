"""Products, distances and other math: cross, tensordot, cdist, renorm, cov, corrcoef,
gcd / lcm, view_as_complex and resolve_neg.

Run: python products_distances.py
"""
import torch

torch.set_printoptions(precision=4)
a = torch.tensor([1.0, 0.0, 0.0])
b = torch.tensor([0.0, 1.0, 0.0])
print("cross:", torch.cross(a, b, dim=0))  # pass dim: the size-3 dimension
A = torch.arange(6.0).reshape(2, 3)
B = torch.arange(12.0).reshape(3, 4)
print(f"tensordot dims=1 (= A @ B):\n{torch.tensordot(A, B, dims=1)}")
print("tensordot dims=([0, 1], [0, 1]):", torch.tensordot(A, A, dims=([0, 1], [0, 1])))

p = torch.tensor([[0.0, 0.0], [3.0, 4.0]])
q = torch.tensor([[0.0, 0.0], [6.0, 8.0], [3.0, 0.0]])
print(f"cdist (every pair, p=2):\n{torch.cdist(p, q)}")
print(f"cdist p=1:\n{torch.cdist(p, q, p=1)}")
rows = torch.tensor([[3.0, 4.0], [0.3, 0.4]])
print(f"renorm: rows of norm > 1 scaled to 1:\n{torch.renorm(rows, p=2, dim=0, maxnorm=1.0)}")

obs = torch.tensor([[1.0, 2.0, 3.0, 4.0], [2.0, 4.0, 6.0, 8.0], [4.0, 3.0, 2.0, 1.0]])
# correction=1 by default
print(f"cov (rows are variables):\n{torch.cov(obs).round(decimals=4)}")
print(f"corrcoef:\n{torch.corrcoef(obs).round(decimals=4)}")

print("gcd:", torch.gcd(torch.tensor([12, 18, 7]), torch.tensor([8, 27, 0])))
print("lcm:", torch.lcm(torch.tensor([4, 6, 7]), torch.tensor([6, 4, 0])))

pairs = torch.tensor([[1.0, 2.0], [3.0, -4.0]])  # last dim: real, imaginary
z = torch.view_as_complex(pairs)  # a view; the last dimension must have size 2
print("view_as_complex:", z)
im = z.conj().imag  # a view with the negative bit set: nothing negated in memory yet
print("conj().imag:", im, "is_neg:", im.is_neg())
r = torch.resolve_neg(im)  # a copy with the negation applied
print("resolve_neg:", r, "is_neg:", r.is_neg())
