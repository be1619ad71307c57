"""torch.load(mmap=True): map a checkpoint instead of reading it, and load it into a model
built on the meta device.

Run: python load_mmap.py
"""
import os
import tempfile
import warnings

import torch

torch.manual_seed(0)
model = torch.nn.Linear(3, 2)

with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "model.pt")
    torch.save(model.state_dict(), path)

    # mmap=True: the tensors' data stay in the file, read when first used
    state = torch.load(path, mmap=True)
    print("loaded:", torch.equal(state["weight"], model.weight))

    # A model built on the meta device has no memory yet. Copying into it
    # (the default) does nothing, with a warning per tensor
    with torch.device("meta"):
        fresh = torch.nn.Linear(3, 2)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fresh.load_state_dict(state)
    print("copy:", fresh.weight.device, f"UserWarning: {caught[0].message}")

    # assign=True takes the mapped tensors as they are, without a copy
    fresh.load_state_dict(state, assign=True)
    print("assign:", fresh.weight.device, torch.equal(fresh.weight, model.weight))
    print("same memory:", fresh.weight.data_ptr() == state["weight"].data_ptr())

    # Writes to mapped tensors stay in memory: the file is not changed
    with torch.no_grad():
        fresh.bias.zero_()
    print("file unchanged:", torch.equal(torch.load(path)["bias"], model.bias))

    # assign=True stays attached to this state dict: a later load into an
    # ordinary model assigns too, instead of copying
    other = torch.nn.Linear(3, 2)
    other.load_state_dict(state)
    print("later load shares memory:", other.weight.data_ptr() == state["weight"].data_ptr())

    with open(path, "rb") as file:
        try:  # mmap needs a path, not an open file
            torch.load(file, mmap=True)
        except ValueError as error:
            print(f"ValueError: {error}")
