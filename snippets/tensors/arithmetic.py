"""Arithmetic: add/sub/mul/div, the three integer divisions, type promotion, in-place ops.

Run: python arithmetic.py
"""
import torch

a = torch.tensor([7, -7, 6])
b = torch.tensor([2, 2, 4])
print("add, alpha=10:", torch.add(a, b, alpha=10))  # a + 10 * b
print("sub, alpha=2:", torch.sub(a, b, alpha=2))  # a - 2 * b
print("mul:", torch.mul(a, b), "neg:", torch.neg(a), "positive:", torch.positive(a))
print("int / int:", torch.div(a, b), torch.true_divide(a, b))  # true division: float
print("div trunc:", torch.div(a, b, rounding_mode="trunc"))  # rounds toward zero, like C
print("div floor:", torch.div(a, b, rounding_mode="floor"))  # rounds down, like Python //
print("floor_divide:", torch.floor_divide(a, b), "a // b:", a // b)
print("remainder:", torch.remainder(a, b), "a % b:", a % b)  # sign of the divisor
print("fmod:", torch.fmod(a, b))  # sign of the dividend
print("result_type:", torch.result_type(a, b), torch.result_type(a, 2.5),
      torch.result_type(a.to(torch.int8), 1000))  # a Python number does not widen the dtype
print("int8 wraps:", a.to(torch.int8) * 20)  # overflow wraps around silently
print("int + float:", (a + 0.5).dtype, "int32 * int64:", (a.int() * b).dtype)

x = torch.tensor([1.0, 2.0, 4.0])
print("reciprocal:", torch.reciprocal(x), "square:", torch.square(x))
print("pow:", torch.pow(x, 2), torch.pow(2, x))
print("float_power:", torch.float_power(x, 2))  # always float64
print("addcmul:", torch.addcmul(x, x, x, value=0.5))  # x + 0.5 * x * x
print("addcdiv:", torch.addcdiv(x, x, x + 1, value=2))  # x + 2 * x / (x + 1)

y = x.clone()
y.add_(1).mul_(2)  # in place: returns y itself, so calls chain
print("add_ then mul_:", y)
y.sub_(1, alpha=2).div_(4)
print("sub_ then div_:", y, "x unchanged:", x)
print("method forms:", x.add(1), x.sub(1), x.mul(3), x.div(2))
try:
    a.div_(b)  # the float result does not fit an integer tensor
except RuntimeError as error:
    print(f"RuntimeError: {error}")

w = torch.tensor([1.0, 2.0], requires_grad=True)
try:
    w.add_(1)  # a leaf that requires grad cannot change in place
except RuntimeError as error:
    print(f"RuntimeError: {error}")
with torch.no_grad():
    w.sub_(0.5)  # what an optimizer step does
print("after no_grad update:", w)
h = w * 1  # not a leaf: in place is allowed, autograd records it
h.mul_(3)
h.sum().backward()
print("grad:", w.grad)
