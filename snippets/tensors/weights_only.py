"""torch.load(weights_only=True), the default since 2.6: what it refuses.

Run: python weights_only.py
"""
import io

import numpy as np
import torch
from torch.serialization import get_unsafe_globals_in_checkpoint


class Config:  # any class of your own: not on the allowlist
    def __init__(self, lr):
        self.lr = lr


def saved(obj):
    buffer = io.BytesIO()
    torch.save(obj, buffer)
    buffer.seek(0)
    return buffer


def needs(buffer):  # the classes a file would need, sorted, without loading
    return sorted(get_unsafe_globals_in_checkpoint(buffer))


# Tensors, dicts, lists, numbers and strings load under the default
print(torch.load(saved({"weight": torch.ones(2), "epoch": 5, "name": "a"})))

try:
    torch.load(saved({"weight": torch.ones(2), "config": Config(0.1)}))
except Exception as error:  # pickle.UnpicklingError
    print(type(error).__name__)
    lines = str(error).splitlines()
    print(next(line.strip() for line in lines if "Unsupported" in line))

print(needs(saved({"config": Config(0.1)})))

# Two frequent culprits: a whole model instead of its state_dict, and
# NumPy values
print(needs(saved({"model": torch.nn.Linear(2, 1)})))
print(needs(saved({"best": np.float64(0.9)})))
fixed = {"model": torch.nn.Linear(2, 1).state_dict(),
         "best": float(np.float64(0.9))}
print(list(torch.load(saved(fixed))))  # plain types load under the default

# Allow one class for one load ...
with torch.serialization.safe_globals([Config]):
    print(torch.load(saved({"config": Config(0.1)}))["config"].lr)

# ... or for the rest of the program
torch.serialization.add_safe_globals([Config])
print(torch.load(saved({"config": Config(0.2)}))["config"].lr)

# weights_only=False loads anything, and runs any code the file holds:
# for trusted files only
print(torch.load(saved(Config(0.3)), weights_only=False).lr)
