"""Bitwise ops on integers and bools, shifts, and the logical_* ops that accept any dtype.

Run: python bitwise_logical.py
"""
import torch

a = torch.tensor([0b1100, 0b1010, -1], dtype=torch.int32)
b = torch.tensor([0b1010, 0b0110, 5], dtype=torch.int32)
print("and:", torch.bitwise_and(a, b), "a & b:", a & b)
print("or: ", torch.bitwise_or(a, b), "a | b:", a | b)
print("xor:", torch.bitwise_xor(a, b), "a ^ b:", a ^ b)
print("not:", torch.bitwise_not(a), "~a:", ~a)  # two's complement: ~x == -x - 1
print("left shift:", torch.bitwise_left_shift(a, 2), a << 2)
print("right shift:", torch.bitwise_right_shift(a, 1), a >> 1)  # keeps the sign of -1
try:
    torch.bitwise_and(torch.tensor([1.0]), torch.tensor([1.0]))
except RuntimeError as error:
    print(f"RuntimeError: {error}")

m = torch.tensor([True, True, False, False])
n = torch.tensor([True, False, True, False])
print("bool ~m:", ~m, "m & n:", m & n)  # on bool tensors the bitwise ops are logical

u = torch.tensor([0.0, 2.5, -1.0, 0.0])
v = torch.tensor([3, 0, 1, 0])
print("logical_and:", torch.logical_and(u, v))  # any dtype: nonzero is True
print("logical_or: ", torch.logical_or(u, v))
print("logical_xor:", torch.logical_xor(u, v))
print("logical_not:", torch.logical_not(u))
print("~ on float:", end=" ")
try:
    print(~u)
except TypeError as error:
    print(f"TypeError: {error}")
print("method forms:", m.logical_not(), m.logical_and(n), a.bitwise_and(b))
