"""reduction="none" | "mean" | "sum", and what a weight does to the mean: NLLLoss, F.mse_loss and
F.l1_loss divide by the weights, BCEWithLogitsLoss and F.huber_loss by the number of elements.

Run: python loss_reduction.py
"""
import torch
import torch.nn.functional as F
from torch import nn

log_probs = torch.tensor([[2.0, 0.5, -1.0], [0.1, 0.2, 3.0], [1.0, 1.0, 1.0]]).log_softmax(dim=1)
target = torch.tensor([0, 2, 1])
for reduction in ("none", "sum", "mean"):
    print(reduction, nn.NLLLoss(reduction=reduction)(log_probs, target))

# Class weights: each sample's loss times the weight of its target class ...
weight = torch.tensor([1.0, 2.0, 4.0])
weighted = nn.NLLLoss(weight=weight, reduction="none")(log_probs, target)
print("weighted none:", weighted, "sum:", weighted.sum())
# ... and "mean" divides their sum by the targets' weights (1 + 4 + 2), not by N = 3
print("weighted mean:", nn.NLLLoss(weight=weight)(log_probs, target))
print("sum / 7:", weighted.sum() / 7, "sum / 3:", weighted.sum() / 3)

# BCEWithLogitsLoss: weight rescales each element, and "mean" divides by the count
logits = torch.tensor([0.5, -1.0, 2.0])
labels = torch.tensor([1.0, 0.0, 0.0])
weighted = nn.BCEWithLogitsLoss(weight=weight, reduction="none")(logits, labels)
print("BCE weighted mean:", nn.BCEWithLogitsLoss(weight=weight)(logits, labels))
print("sum / 3:", weighted.sum() / 3)

# The weight of the regression functions: two divide by the weights' sum, one by the count
prediction, values = torch.zeros(3), torch.tensor([1.0, 2.0, 3.0])
for loss in (F.mse_loss, F.l1_loss, F.huber_loss):
    total = loss(prediction, values, weight=weight, reduction="sum").item()
    mean = loss(prediction, values, weight=weight).item()
    print(f"{loss.__name__}: mean {mean:.4f}, sum / 7 = {total / 7:.4f}, sum / 3 = "
          f"{total / 3:.4f}")

# Every target ignored: the mean divides by zero
print("all ignored:", nn.NLLLoss()(log_probs[:1], torch.tensor([-100])))
