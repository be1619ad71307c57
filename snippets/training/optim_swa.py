"""torch.optim.swa_utils: AveragedModel for SWA (the running mean) and EMA, SWALR, and
update_bn to recompute batch-norm statistics for the averaged weights.

Run: python optim_swa.py
"""
import torch
from torch import nn
from torch.optim.swa_utils import (SWALR, AveragedModel, get_ema_avg_fn,
                                   get_ema_multi_avg_fn, get_swa_avg_fn,
                                   get_swa_multi_avg_fn, update_bn)

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(1, 1, bias=False), nn.BatchNorm1d(1))

swa = AveragedModel(model)  # a copy of the model; default: the running mean
# EMA with decay 0.5; use_buffers=True averages the buffers too
ema = AveragedModel(model, multi_avg_fn=get_ema_multi_avg_fn(0.5), use_buffers=True)
# The same averages, given in the other forms
others = [AveragedModel(model, multi_avg_fn=get_swa_multi_avg_fn()),
          AveragedModel(model, avg_fn=get_swa_avg_fn()),
          AveragedModel(model, avg_fn=get_ema_avg_fn(0.5))]

for weight in [1.0, 2.0, 3.0]:  # stands for 3 epochs of training
    with torch.no_grad():
        model[0].weight.fill_(weight)
        model(torch.randn(8, 1) + 5)  # train mode: updates the running stats
    for averaged in [swa, ema, *others]:
        averaged.update_parameters(model)
print("SWA:", swa.module[0].weight.item(), "after", swa.n_averaged.item(), "updates")
print("EMA:", ema.module[0].weight.item())  # 1, then 0.5*1 + 0.5*2, then 0.5*1.5 + 0.5*3
print("other forms:", [averaged.module[0].weight.item() for averaged in others])
print("running_mean: model", model[1].running_mean, "SWA", swa.module[1].running_mean,
      "EMA", ema.module[1].running_mean)

# SWALR: from the optimizer's lr to swa_lr in anneal_epochs, then constant
optimizer = torch.optim.SGD(model.parameters(), lr=1.0)
swa_scheduler = SWALR(optimizer, swa_lr=0.1, anneal_epochs=3, anneal_strategy="linear")
lrs = []
for epoch in range(5):
    lrs.append(round(swa_scheduler.get_last_lr()[0], 4))
    optimizer.step()
    swa_scheduler.step()
print("SWALR:", lrs)

# update_bn: one pass over the data in train mode, a cumulative average
loader = [torch.randn(4, 1) + 5 for _ in range(3)]  # any iterable of input batches
update_bn(loader, swa)
inputs = torch.cat(loader)
print("SWA running_mean after update_bn:", swa.module[1].running_mean,
      torch.allclose(swa.module[1].running_mean, (2.0 * inputs).mean()))

# The second positional parameter is device, not the averaging function
try:
    AveragedModel(model, get_ema_multi_avg_fn(0.5))
except TypeError as error:
    print(f"TypeError: {str(error).splitlines()[0]}")
