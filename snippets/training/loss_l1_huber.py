"""nn.L1Loss, nn.SmoothL1Loss (beta) and nn.HuberLoss (delta) on a small and a large error,
against the squared error; SmoothL1Loss(beta=d) is HuberLoss(delta=d) / d.

Run: python loss_l1_huber.py
"""
import torch
import torch.nn.functional as F
from torch import nn

prediction = torch.zeros(2)
target = torch.tensor([0.5, 4.0])  # errors 0.5 (small) and 4.0 (an outlier)


def per_element(loss):
    return [round(v, 4) for v in loss(prediction, target).tolist()]


print("squared:",
      [round(v, 4) for v in F.mse_loss(prediction, target, reduction="none").tolist()])
print("L1Loss:", per_element(nn.L1Loss(reduction="none")))
print("SmoothL1Loss(beta=1):", per_element(nn.SmoothL1Loss(reduction="none")))
print("HuberLoss(delta=1):", per_element(nn.HuberLoss(reduction="none")))
print("SmoothL1Loss(beta=2):", per_element(nn.SmoothL1Loss(reduction="none", beta=2.0)))
print("HuberLoss(delta=2):", per_element(nn.HuberLoss(reduction="none", delta=2.0)))

delta = 2.0
smooth = F.smooth_l1_loss(prediction, target, beta=delta)
huber = F.huber_loss(prediction, target, delta=delta)
print("SmoothL1(beta=2) == Huber(delta=2) / 2:", torch.allclose(smooth, huber / delta))
# The F.* function computes what its module computes
print("F.l1_loss:", F.l1_loss(prediction, target), "L1Loss:", nn.L1Loss()(prediction, target))

# The outlier's gradient: 2 x error when squared, at most 1 (L1, SmoothL1) or delta (Huber)
for name, loss in (("mse", F.mse_loss), ("l1", F.l1_loss),
                   ("smooth_l1", F.smooth_l1_loss), ("huber", F.huber_loss)):
    p = prediction.clone().requires_grad_()
    loss(p, target, reduction="sum").backward()
    print(f"{name} gradient:", [round(v, 4) for v in p.grad.tolist()])
