"""Exponentials and logarithms: exp, exp2, expm1, log, log1p, log2, log10, logaddexp, xlogy.

Run: python exp_log.py
"""
import torch

torch.set_printoptions(precision=4)  # transcendental results: compare rounded values
x = torch.tensor([0.0, 1.0, 2.0])
print("exp:", torch.exp(x), "exp2:", torch.exp2(x))
print("log:", torch.log(torch.tensor([1.0, 0.0, -1.0])))  # log(0) = -inf, log(<0) = nan
print("log2:", torch.log2(torch.tensor([1.0, 8.0])), "log10:",
      torch.log10(torch.tensor([1.0, 1000.0])))

tiny = torch.tensor([1e-10])
print(f"exp(tiny) - 1: {(torch.exp(tiny) - 1).item():.4e}, expm1: "
      f"{torch.expm1(tiny).item():.4e}")
print(f"log(1 + tiny): {torch.log(1 + tiny).item():.4e}, log1p: {torch.log1p(tiny).item():.4e}")

a = torch.tensor([1000.0, -1000.0])
b = torch.tensor([1000.0, -1000.0])
print("log(exp(a) + exp(b)):", torch.log(torch.exp(a) + torch.exp(b)))  # overflow, underflow
print("logaddexp:", torch.logaddexp(a, b))  # the same, computed stably
# log2(2**3 + 2**3)
print("logaddexp2:", torch.logaddexp2(torch.tensor([3.0]), torch.tensor([3.0])))

p = torch.tensor([0.0, 0.5, 1.0])
print("p * log(p):", p * torch.log(p))  # 0 * -inf = nan
print("xlogy(p, p):", torch.xlogy(p, p))  # 0 where p == 0

m, e = torch.frexp(torch.tensor([8.0, 0.75]))  # x = mantissa * 2 ** exponent
print("frexp:", m, e, "ldexp:", torch.ldexp(m, e))

t = torch.tensor([1.0, 2.0])
print("method forms:", t.exp(), t.log(), t.log1p())
t.exp_()  # in place
print("after exp_:", t)
