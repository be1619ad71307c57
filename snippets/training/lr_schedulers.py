"""The schedulers of torch.optim.lr_scheduler: the learning rate of each of 8 epochs, read with
get_last_lr(); warm-up with LinearLR + SequentialLR; OneCycleLR.

Run: python lr_schedulers.py
"""
import torch
from torch.optim import lr_scheduler

EPOCHS = 8

schedules = {  # each builds a scheduler for an optimizer whose lr is 0.1
    "StepLR": lambda opt: lr_scheduler.StepLR(opt, step_size=3, gamma=0.1),
    "MultiStepLR": lambda opt: lr_scheduler.MultiStepLR(opt, milestones=[2, 5], gamma=0.1),
    "ExponentialLR": lambda opt: lr_scheduler.ExponentialLR(opt, gamma=0.5),
    "CosineAnnealingLR": lambda opt: lr_scheduler.CosineAnnealingLR(opt, T_max=EPOCHS),
    "CosineAnnealingWarmRestarts":
        lambda opt: lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=4),
    "PolynomialLR": lambda opt: lr_scheduler.PolynomialLR(opt, total_iters=4, power=2.0),
    "LambdaLR": lambda opt: lr_scheduler.LambdaLR(opt, lambda epoch: 1 / (epoch + 1)),
    "MultiplicativeLR": lambda opt: lr_scheduler.MultiplicativeLR(opt, lambda epoch: 0.5),
    "ConstantLR": lambda opt: lr_scheduler.ConstantLR(opt, factor=0.5, total_iters=3),
    "LinearLR": lambda opt: lr_scheduler.LinearLR(opt, start_factor=0.25, total_iters=3),
    # Warm-up: LinearLR for 3 epochs, then cosine decay over the 5 others
    "SequentialLR": lambda opt: lr_scheduler.SequentialLR(opt, schedulers=[
        lr_scheduler.LinearLR(opt, start_factor=0.25, total_iters=3),
        lr_scheduler.CosineAnnealingLR(opt, T_max=EPOCHS - 3)], milestones=[3]),
    # Both at once: their factors multiply
    "ChainedScheduler": lambda opt: lr_scheduler.ChainedScheduler([
        lr_scheduler.ConstantLR(opt, factor=0.5, total_iters=2),
        lr_scheduler.ExponentialLR(opt, gamma=0.9)]),
    # These two are stepped after every batch: here 8 batches in all
    "CyclicLR": lambda opt: lr_scheduler.CyclicLR(opt, base_lr=0.01, max_lr=0.1,
                                                  step_size_up=2),
    "OneCycleLR": lambda opt: lr_scheduler.OneCycleLR(opt, max_lr=0.1, total_steps=EPOCHS),
}

for name, build in schedules.items():
    param = torch.nn.Parameter(torch.zeros(1))
    optimizer = torch.optim.SGD([param], lr=0.1, momentum=0.9)
    scheduler = build(optimizer)
    assert isinstance(scheduler, lr_scheduler.LRScheduler)  # the common base class
    lrs = []
    for epoch in range(EPOCHS):
        lrs.append(round(scheduler.get_last_lr()[0], 4))  # one value per param group
        optimizer.step()
        scheduler.step()
    print(f"{name:28}", lrs)

# OneCycleLR also cycles the momentum, and turns it on for SGD without momentum
param = torch.nn.Parameter(torch.zeros(1))
optimizer = torch.optim.SGD([param], lr=0.1)  # momentum=0
scheduler = lr_scheduler.OneCycleLR(optimizer, max_lr=0.1, total_steps=EPOCHS)
momenta = []
for epoch in range(EPOCHS):
    momenta.append(round(optimizer.param_groups[0]["momentum"], 4))
    optimizer.step()
    scheduler.step()
print("OneCycleLR momentum:", momenta)
try:  # ... and it cannot step past total_steps
    optimizer.step()
    scheduler.step()
except ValueError as error:
    print(f"ValueError: {error}")
