"""torch.frombuffer: a 1-D tensor over the bytes of a Python buffer, sharing them.

Run: python frombuffer.py
"""
import array
import warnings

import torch

data = bytearray(8)
t = torch.frombuffer(data, dtype=torch.int16)  # 8 bytes read as 4 int16
print(t)
data[0] = 7    # change the bytearray ...
print(t)       # ... and the tensor sees it
t[1] = 258     # the other way: 258 = 0x0102, stored in the machine's byte order
print("bytes:", list(data))
print(torch.frombuffer(data, dtype=torch.int16, count=2, offset=2))  # offset counts bytes

floats = array.array("f", [1.5, -2.0])
print(torch.frombuffer(floats, dtype=torch.float32))
print(torch.frombuffer(floats, dtype=torch.uint8))  # dtype is not checked: the raw bytes

try:
    torch.frombuffer(bytearray(3), dtype=torch.int16)
except ValueError as error:
    print(f"ValueError: {error}")

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    torch.frombuffer(b"\x01\x02", dtype=torch.uint8)  # bytes objects are read-only
message = str(caught[0].message).split(" You may")[0]
print(f"{caught[0].category.__name__}: {message}")
