"""The call order: optimizer.step(), then scheduler.step() once per epoch. The other order
makes torch warn, and the schedule runs one epoch ahead.

Run: python lr_order.py
"""
import warnings

import torch
from torch.optim.lr_scheduler import StepLR


def train(scheduler_first):
    param = torch.nn.Parameter(torch.zeros(1))
    optimizer = torch.optim.SGD([param], lr=0.1)
    scheduler = StepLR(optimizer, step_size=2, gamma=0.1)  # lr x 0.1 every 2 epochs
    used = []
    for epoch in range(5):
        if scheduler_first:
            scheduler.step()  # wrong place
        used.append(round(scheduler.get_last_lr()[0], 6))  # the lr of this epoch
        param.grad = torch.ones(1)  # stands for the epoch's batches ...
        optimizer.step()            # ... and their optimizer steps
        if not scheduler_first:
            scheduler.step()  # right: after the epoch's optimizer steps
    return used


print("optimizer.step(), then scheduler.step():", train(scheduler_first=False))
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    print("scheduler.step() first:               ", train(scheduler_first=True))
for warning in caught:
    first_sentence = str(warning.message).split(". ")[0] + "."
    print(f"{warning.category.__name__}: {first_sentence}")
