"""nn.MSELoss with reduction='none' | 'mean' | 'sum', reduction=None, and the old arguments.

The script passes the deprecated `size_average` on purpose, catches the
UserWarning and prints it.

Run: python mse_loss.py
"""
import warnings

import torch
from torch import nn

prediction = torch.tensor([1.0, 2.0, 4.0])
target = torch.tensor([1.0, 3.0, 2.0])
for reduction in ("none", "mean", "sum"):  # squared errors: 0, 1, 4
    print(reduction, nn.MSELoss(reduction=reduction)(prediction, target))

no_reduction = nn.MSELoss(reduction=None)  # Python's None, not "none": accepted here...
try:
    no_reduction(prediction, target)  # ...and refused at the first call
except ValueError as exc:
    print(f"reduction=None: ValueError: {exc}")

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    old = nn.MSELoss(size_average=False)  # torch 0.x style
print(f"{caught[0].category.__name__}: {caught[0].message}")
print(old.reduction)  # translated into the new argument

# Shapes [N, 1] and [N] broadcast to [N, N]: a wrong loss, only a warning
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    wrong = nn.MSELoss()(prediction.unsqueeze(1), target)
first_sentence = str(caught[0].message).split(". ")[0]
print(f"{caught[0].category.__name__}: {first_sentence}.")
print(wrong, "instead of", nn.MSELoss()(prediction, target))
