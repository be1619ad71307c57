"""ReduceLROnPlateau: lower the learning rate when a metric stops improving; step(metric).

Run: python lr_plateau.py
"""
import torch
from torch.optim.lr_scheduler import ReduceLROnPlateau

param = torch.nn.Parameter(torch.zeros(1))
optimizer = torch.optim.SGD([param], lr=0.1)
# Halve the lr after more than 1 epoch (patience) without a better loss
scheduler = ReduceLROnPlateau(optimizer, mode="min", factor=0.5, patience=1)

val_losses = [1.0, 0.8, 0.8, 0.8, 0.79, 0.7, 0.7, 0.7, 0.7]  # one per epoch
for epoch, val_loss in enumerate(val_losses):
    optimizer.step()  # (the epoch's training)
    scheduler.step(val_loss)  # the metric drives it
    print(f"epoch {epoch}: val_loss {val_loss}, lr for the next epoch "
          f"{scheduler.get_last_lr()[0]}, bad epochs {scheduler.num_bad_epochs}")

try:
    scheduler.step()  # the usual loop's call, without the metric
except TypeError as error:
    print(f"TypeError: {error}")
