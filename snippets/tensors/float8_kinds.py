"""The other float8 kinds (fnuz, e8m0fnu) and float4_e2m1fn_x2: size, finfo, and a cast there and
back.

Run: python float8_kinds.py
"""
import torch

kinds = (torch.float8_e4m3fn, torch.float8_e5m2, torch.float8_e4m3fnuz, torch.float8_e5m2fnuz,
         torch.float8_e8m0fnu, torch.float4_e2m1fn_x2)
values = torch.tensor([0.3, 1.0, 2.5, 5.0, 100.0, 300.0])
print("values: [0.3, 1.0, 2.5, 5.0, 100.0, 300.0]")
for dt in kinds:
    print(f"{str(dt):<22} itemsize={dt.itemsize} is_floating_point={dt.is_floating_point}")
    try:
        fi = torch.finfo(dt)
        print(f"  finfo: max={fi.max:g} min={fi.min:g} eps={fi.eps:g} tiny={fi.tiny:g}")
    except Exception as e:  # float4_e2m1fn_x2 has no finfo
        print("  finfo:", type(e).__name__, str(e).splitlines()[0])
    try:
        print("  there and back:", values.to(dt).float().tolist())
    except Exception as e:  # nor a cast from float32
        print("  cast:", type(e).__name__, str(e).splitlines()[0])

# fnuz kinds have no -0 (and no inf); e8m0fnu has no sign and no zero: powers of two only
signed_zeros = torch.tensor([-0.0, 0.0])
for dt in (torch.float8_e4m3fn, torch.float8_e4m3fnuz, torch.float8_e8m0fnu):
    print(f"{str(dt):<22} -0.0, 0.0 ->", signed_zeros.to(dt).float().tolist())

packed = torch.empty(3, dtype=torch.float4_e2m1fn_x2)  # storage only: two 4-bit values a byte
print("float4_e2m1fn_x2 storage:", packed.shape, packed.nbytes, "bytes")
print("as bytes:", packed.view(torch.uint8).dtype)
