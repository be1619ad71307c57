"""torch.dtype objects: the short aliases, is_floating_point / is_complex / is_signed, a tensor's
dtype.

Run: python dtype_kinds.py
"""
import torch

print("float is float32:", torch.float is torch.float32, "| long is int64:",
      torch.long is torch.int64)
print("other aliases:", torch.double, torch.half, torch.int, torch.short, torch.cfloat,
      torch.cdouble)
print(f"{'dtype':<16}{'float':>7}{'complex':>9}{'signed':>8}")
for dt in (torch.float64, torch.float32, torch.float16, torch.bfloat16, torch.complex128,
           torch.complex64, torch.int64, torch.int32, torch.int16, torch.int8, torch.uint8,
           torch.bool):
    print(f"{str(dt):<16}{dt.is_floating_point!s:>7}{dt.is_complex!s:>9}{dt.is_signed!s:>8}")

x = torch.tensor([1, 2])  # Python ints give int64, floats the default dtype
print("inferred:", x.dtype, torch.tensor([1.5]).dtype, torch.tensor([True]).dtype,
      torch.tensor([1j]).dtype)
print("types:", isinstance(x, torch.Tensor), isinstance(x.dtype, torch.dtype),
      x.dtype == torch.int64)
print("tensor checks:", x.is_floating_point(), torch.is_floating_point(x.double()),
      x.is_complex())
