"""torch.save / torch.load: to a file path or a file-like object.

Run: python save_load.py
"""
import io
import os
import tempfile

import torch

x = torch.arange(6.0).view(2, 3)

with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "checkpoint.pt")
    torch.save({"x": x, "step": 3}, path)  # tensors and plain values
    # map_location: where the loaded tensors go
    checkpoint = torch.load(path, map_location="cpu")
    print(sorted(checkpoint), checkpoint["step"])
    print(torch.equal(checkpoint["x"], x))

buffer = io.BytesIO()  # any binary file object works
torch.save(x, buffer)
buffer.seek(0)         # rewind before reading, or torch.load fails
print(torch.load(buffer))

# A view is saved together with the whole storage it looks into
big = torch.arange(1000.0)
for name, tensor in (("view", big[:2]), ("clone", big[:2].clone())):
    buffer = io.BytesIO()
    torch.save(tensor, buffer)
    buffer.seek(0)
    loaded = torch.load(buffer)
    print(name, loaded, "storage bytes:", loaded.untyped_storage().nbytes())
