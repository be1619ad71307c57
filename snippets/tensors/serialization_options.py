"""torch.serialization's switches: the weights_only allowlist (get_safe_globals,
clear_safe_globals), mmap flags for torch.load(mmap=True), crc32 checksums, the fallback byte
order (LoadEndianness), and skip_data.

Run: python serialization_options.py
"""
import io
import mmap
import os
import tempfile
import zipfile

import torch
from torch import serialization


class Config:  # a class of your own
    def __init__(self, lr):
        self.lr = lr


def saved(obj):
    buffer = io.BytesIO()
    torch.save(obj, buffer)
    return buffer.getvalue()


# The allowlist of torch.load(weights_only=True), as add_safe_globals left it
serialization.add_safe_globals([Config])
print("Config allowed:", Config in serialization.get_safe_globals())
serialization.clear_safe_globals()  # empties the whole list, not only your additions
print("after clear_safe_globals:", serialization.get_safe_globals())
try:
    torch.load(io.BytesIO(saved({"config": Config(0.1)})))
except Exception as error:  # pickle.UnpicklingError
    print(type(error).__name__, "after clear_safe_globals")

# mmap=True maps the file privately: changes stay in memory; MAP_SHARED writes them to the file
print("default mmap flags are MAP_PRIVATE:",
      serialization.get_default_mmap_options() == mmap.MAP_PRIVATE)
with tempfile.TemporaryDirectory() as folder:
    path = os.path.join(folder, "weights.pt")
    torch.save(torch.zeros(3), path)
    torch.load(path, mmap=True).add_(1)
    print("MAP_PRIVATE, file after add_(1):", torch.load(path))
    with serialization.set_default_mmap_options(mmap.MAP_SHARED):
        torch.load(path, mmap=True).add_(1)
    print("MAP_SHARED, file after add_(1):", torch.load(path))

# crc32: torch.save writes a checksum per record; without, it saves faster and still loads
for compute in (True, False):
    serialization.set_crc32_options(compute)
    data = saved({"w": torch.ones(2)})
    bad = zipfile.ZipFile(io.BytesIO(data)).testzip()  # the first record failing its checksum
    print(f"crc32 {serialization.get_crc32_options()}: zip check finds {bad}, loads",
          torch.load(io.BytesIO(data)))
serialization.set_crc32_options(True)

# The byte order for files that record none (older ones); None means the machine's own
print("load endianness:", serialization.get_default_load_endianness())
serialization.set_default_load_endianness(serialization.LoadEndianness.LITTLE)
print("set to:", serialization.get_default_load_endianness())
serialization.set_default_load_endianness(None)

# skip_data: save the structure and leave the bytes empty (an early prototype in 2.15)
with serialization.skip_data():
    data = saved({"w": torch.ones(3)})
print("saved under skip_data, loaded:", torch.load(io.BytesIO(data)))
