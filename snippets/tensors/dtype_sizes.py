"""Newer dtype members and dtypes: itemsize, to_real / to_complex, unsigned 16-64 bit, float8.

Run: python dtype_sizes.py
"""
import torch

for dt in (torch.float64, torch.float32, torch.bfloat16, torch.complex64, torch.int64,
           torch.uint16, torch.uint32, torch.uint64, torch.bool, torch.float8_e4m3fn,
           torch.float8_e5m2):
    print(f"{str(dt):<20} itemsize={dt.itemsize}")
print("to_real:", torch.complex64.to_real(), torch.complex128.to_real(), torch.float32.to_real())
print("to_complex:", torch.float32.to_complex(), torch.float64.to_complex(),
      torch.float16.to_complex())
print("chalf is complex32:", torch.chalf is torch.complex32)

f8 = torch.tensor([0.3, 1.0, 300.0]).to(torch.float8_e4m3fn)  # storage format: 1 byte each
print("float8_e4m3fn max:", torch.finfo(torch.float8_e4m3fn).max, "e5m2 max:",
      torch.finfo(torch.float8_e5m2).max)
print("through float8_e4m3fn:", f8.float())  # 3 mantissa bits: coarse steps
print("uint16 range:", torch.iinfo(torch.uint16).min, torch.iinfo(torch.uint16).max)
