"""torch.set_default_device / get_default_device: where factory functions allocate.

The script uses the "meta" device (shapes and dtypes, no data) so that it runs
on any machine; on a GPU machine "cuda" is the usual choice.

Run: python default_device.py
"""
import numpy as np
import torch

print("default:", torch.get_default_device())
torch.set_default_device("meta")
print("now:", torch.get_default_device())
print("zeros:", torch.zeros(2).device)
print("tensor:", torch.tensor([1, 2]).device)
print("explicit device:", torch.zeros(2, device="cpu").device)  # an argument wins
print("from_numpy:", torch.from_numpy(np.zeros(2)).device)  # memory it shares: stays on the CPU
torch.set_default_device(None)  # None clears it: back to the CPU
print("cleared:", torch.get_default_device())

# For one block only: a torch.device is a context manager
with torch.device("meta"):
    layer = torch.nn.Linear(1024, 1024)  # parameters allocated on "meta": no memory used
    print("inside with:", torch.get_default_device(), layer.weight.device)
print("after with:", torch.get_default_device(), torch.ones(2).device)
