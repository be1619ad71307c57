"""Type promotion: torch.promote_types, torch.result_type, torch.can_cast, and in-place casting.

Run: python type_promotion.py
"""
import torch

print("promote int32, float16:", torch.promote_types(torch.int32, torch.float16))
print("promote uint8, int8:", torch.promote_types(torch.uint8, torch.int8))  # needs a wider int
print("promote bool, uint8:", torch.promote_types(torch.bool, torch.uint8))

i32 = torch.tensor([1, 2], dtype=torch.int32)
# the scalar does not widen
print("int32 + Python int:", torch.result_type(i32, 5), (i32 + 5).dtype)
print("int32 + Python float:", torch.result_type(i32, 2.5))  # higher category: the default dtype
print("int32 + zero-dim int64:", torch.result_type(i32, torch.tensor(7)))
print("int32 + zero-dim float64:",
      torch.result_type(i32, torch.tensor(0.5, dtype=torch.float64)))
print("int32 + int64 vector:", (i32 + torch.tensor([1, 1])).dtype)
print("float16 + float32 vector:", (torch.ones(2, dtype=torch.float16) + torch.ones(2)).dtype)
# true division
print("int32 / int32:", (i32 / i32).dtype, "| int32 // int32:", (i32 // i32).dtype)

# no: different kind
print("can_cast float32 -> int32:", torch.can_cast(torch.float32, torch.int32))
print("can_cast int32 -> float16:", torch.can_cast(torch.int32, torch.float16))
# narrowing is allowed
print("can_cast float64 -> float32:", torch.can_cast(torch.float64, torch.float32))
try:
    i32 *= 1.5  # in-place: the result must fit the tensor's own dtype
except RuntimeError as e:
    print("RuntimeError:", e)
f = torch.ones(2)
f *= i32  # an int into a float tensor is fine
print("float32 *= int32:", f, f.dtype)
