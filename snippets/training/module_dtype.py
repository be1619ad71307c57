"""half(), float(), double(), bfloat16() and to(dtype) convert the floating-point parameters
and buffers only; type(dtype) converts every one. share_memory() for worker processes.

Run: python module_dtype.py
"""
import torch
from torch import nn


def dtypes(model):  # a weight, a float buffer and BatchNorm's integer counter
    bn = model[1]
    return bn.weight.dtype, bn.running_mean.dtype, bn.num_batches_tracked.dtype


model = nn.Sequential(nn.Linear(2, 2), nn.BatchNorm1d(2))
print("created: ", *dtypes(model))
print("half():  ", *dtypes(model.half()))  # the int64 counter stays int64
print("to(f64): ", *dtypes(model.to(torch.float64)))
print("bfloat16:", *dtypes(model.bfloat16()))
print("float(): ", *dtypes(model.float()))
print("type():  ", *dtypes(model.type(torch.float32)))  # the counter too
model = nn.Sequential(nn.Linear(2, 2), nn.BatchNorm1d(2))

try:  # integer dtypes are refused
    model.to(torch.int32)
except TypeError as error:
    print(f"TypeError: {error}")

# The inputs must follow: a float64 model refuses float32 inputs
model.double()
try:
    model(torch.ones(2, 2))
except RuntimeError as error:
    print(f"RuntimeError: {error}")
print("float64 input:", model(torch.ones(2, 2, dtype=torch.float64)).dtype)

# The conversions work in place and return the module itself
print("same module:", model.cpu() is model, model.float() is model)

# share_memory(): parameters and buffers move to shared memory, so that
# processes started with torch.multiprocessing use them without a copy
print("shared:", model.share_memory()[0].weight.is_shared())
