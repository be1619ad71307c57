"""Sign and magnitude: abs, sign, sgn, signbit, copysign; nan_to_num, lerp, gradient; complex
parts.

Run: python sign_nan.py
"""
import torch

x = torch.tensor([-2.0, -0.0, 0.0, 3.0])
print("abs:", torch.abs(x), "sign:", torch.sign(x))
print("signbit:", torch.signbit(x))  # True for -0.0 too
# magnitude of 1, sign of x
print("copysign:", torch.copysign(torch.tensor([1.0, 1.0, 1.0, 1.0]), x))

z = torch.tensor([3 + 4j, complex(0, -2), 0j])
print("sgn (complex):", torch.sgn(z))  # z / |z|, 0 at 0
print("real:", torch.real(z), "imag:", torch.imag(z))  # views, no copy
print("conj_physical:", torch.conj_physical(z))  # a conjugated copy, not a lazy view

bad = torch.tensor([float("nan"), float("inf"), float("-inf"), 1.5])
print("nan_to_num:", torch.nan_to_num(bad))  # inf -> the largest finite float
print("nan_to_num, chosen:", torch.nan_to_num(bad, nan=0.0, posinf=1e4, neginf=-1e4))

start = torch.tensor([0.0, 10.0])
end = torch.tensor([4.0, 20.0])
print("lerp 0.25:", torch.lerp(start, end, 0.25))  # start + 0.25 * (end - start)
print("lerp, tensor weight:", torch.lerp(start, end, torch.tensor([0.5, 1.0])))

y = torch.tensor([0.0, 1.0, 4.0, 9.0])
(dy,) = torch.gradient(y)  # finite differences, one tensor per dimension
print("gradient:", dy)
(dy2,) = torch.gradient(y, spacing=2.0)
print("gradient, spacing=2:", dy2)
print("method forms:", x.abs(), x.sign(), x.neg())
x.abs_()
print("abs_ in place:", x)
