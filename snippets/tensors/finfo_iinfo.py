"""torch.finfo and torch.iinfo: the exact limits of each dtype (eps, max, tiny, bits, min).

Run: python finfo_iinfo.py
"""
import torch

for dt in (torch.float64, torch.float32, torch.float16, torch.bfloat16):
    fi = torch.finfo(dt)
    print(f"{str(dt):<15} bits={fi.bits:<3} eps={fi.eps!r:<23} max={fi.max!r:<24} "
          f"tiny={fi.tiny!r}")
f32 = torch.finfo(torch.float32)
print("float32 resolution:", f32.resolution, "| min == -max:", f32.min == -f32.max)
print("default dtype:", torch.finfo().dtype)  # no argument: torch.get_default_dtype()
one = torch.tensor(1.0)
print("1 + eps > 1:", (one + f32.eps > one).item(), "| 1 + eps/2 > 1:",
      (one + f32.eps / 2 > one).item())
print("70000 as float16:", torch.tensor(70000.0).half().item())  # above finfo.max: inf
# float32's range, 8 bits of precision
print("70000 as bfloat16:", torch.tensor(70000.0).bfloat16().item())

for dt in (torch.int64, torch.int32, torch.int8, torch.uint8):
    ii = torch.iinfo(dt)
    print(f"{str(dt):<12} bits={ii.bits:<3} min={ii.min} max={ii.max}")
small = torch.tensor([250], dtype=torch.uint8)
print("uint8 250 + 10:", (small + 10).item())  # unsigned integers wrap around, no error
scores = torch.tensor([0.5, 2.0])
print("mask with finfo.min:",
      scores.masked_fill(torch.tensor([False, True]), torch.finfo(scores.dtype).min))
