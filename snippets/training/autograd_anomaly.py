"""An in-place change to a tensor that backward needs; detect_anomaly and set_detect_anomaly
name the forward operation, and catch NaN gradients.

Run: python autograd_anomaly.py
"""
import warnings

import torch


def forward(x):
    y = x.sigmoid()
    y.mul_(2)  # in place: sigmoid's backward needs the y it saved
    return y.sum()


x = torch.tensor([1.0, 2.0], requires_grad=True)
try:
    forward(x).backward()
except RuntimeError as error:
    print(f"RuntimeError: {error}")


# Prints the first line of each warning, and the last source line of a forward traceback
def report(caught):
    for warning in caught:
        lines = str(warning.message).splitlines()
        print(f"{warning.category.__name__}: {lines[0]}")
        code = [line.strip() for line in lines if line.startswith("    ")]
        if code:
            print("  forward line:", code[-1])


# Anomaly mode keeps the forward traceback of every operation, and warns with it
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    try:
        with torch.autograd.detect_anomaly():
            forward(x).backward()
    except RuntimeError as error:
        print(f"RuntimeError: {str(error).splitlines()[0]}")
report(caught)

# set_detect_anomaly switches it on until switched off; check_nan=True (the default) also
# stops at the first backward function that returns NaN
z = torch.tensor([0.0, 1.0], requires_grad=True)
(z.sqrt() * 0).sum().backward()
print("without anomaly mode:", z.grad)
torch.autograd.set_detect_anomaly(True)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    try:
        (z.sqrt() * 0).sum().backward()
    except RuntimeError as error:
        print(f"RuntimeError: {error}")
torch.autograd.set_detect_anomaly(False)
report(caught)

# The fix: an out-of-place operation leaves the saved tensor as it was
y = x.sigmoid()
(y * 2).sum().backward()
print("x.grad:", x.grad.round(decimals=4))
