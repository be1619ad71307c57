"""torch.set_default_tensor_type (deprecated) and the two calls that replace it.

The call emits a UserWarning: the script catches it on purpose and prints it.

Run: python default_tensor_type.py
"""
import warnings

import torch

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    torch.set_default_tensor_type(torch.DoubleTensor)
message = str(caught[0].message).split(" (Triggered internally")[0]
print(f"{caught[0].category.__name__}: {message}")
print("default dtype:", torch.get_default_dtype(), torch.zeros(1).dtype)

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    torch.set_default_tensor_type(torch.FloatTensor)  # undo it
print("warnings from the second call:", len(caught))  # it warns once per process
print("default dtype:", torch.get_default_dtype())

# The replacement: the dtype and the device are set separately
torch.set_default_dtype(torch.float64)
torch.set_default_device("cpu")
print("replacement:", torch.zeros(1).dtype, torch.zeros(1).device)
torch.set_default_dtype(torch.float32)
torch.set_default_device(None)
