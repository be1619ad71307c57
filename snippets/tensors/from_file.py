"""torch.from_file: a tensor over a memory-mapped file; shared=True writes back.

Run: python from_file.py
"""
import os
import tempfile

import numpy as np
import torch

with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "data.bin")
    np.arange(4, dtype=np.float32).tofile(path)  # 16 raw bytes, no header

    private = torch.from_file(path, shared=False, size=4, dtype=torch.float32)
    shared = torch.from_file(path, shared=True, size=4, dtype=torch.float32)
    private[0] = -1.0  # changes this process's copy only
    shared[1] = -2.0   # changes the file
    print("private:", private)
    print("shared:", shared)
    print("file:", np.fromfile(path, dtype=np.float32))

    print("size not given:", torch.from_file(path))  # size defaults to 0 elements
    try:
        torch.from_file(path, shared=False, size=8, dtype=torch.float32)
    except RuntimeError as error:
        print(f"RuntimeError: {str(error).replace(tmp, 'TMPDIR')}")
    grown = torch.from_file(path, shared=True, size=6, dtype=torch.float32)
    print("shared=True, size=6:", grown, os.path.getsize(path), "bytes")
    del private, shared, grown  # unmap before the directory is removed
