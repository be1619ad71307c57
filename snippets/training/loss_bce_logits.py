"""nn.BCEWithLogitsLoss against sigmoid + nn.BCELoss: the same value on moderate logits, not on
large ones; pos_weight for rare positives.

Run: python loss_bce_logits.py
"""
import torch
import torch.nn.functional as F
from torch import nn

logits = torch.tensor([0.5, -1.0, 2.0])
target = torch.tensor([1.0, 0.0, 0.0])  # float, same shape as the logits
print("with logits:", nn.BCEWithLogitsLoss()(logits, target))
print("sigmoid + BCELoss:", nn.BCELoss()(torch.sigmoid(logits), target))
print("functional:", F.binary_cross_entropy_with_logits(logits, target),
      F.binary_cross_entropy(torch.sigmoid(logits), target))

# A confident, wrong logit: the true loss is 20
big = torch.tensor([20.0], requires_grad=True)
zero = torch.tensor([0.0])
print("sigmoid(20) in float32:", torch.sigmoid(big).item())  # rounds to exactly 1
for name, loss in (("with logits", F.binary_cross_entropy_with_logits(big, zero)),
                   ("sigmoid + BCELoss", F.binary_cross_entropy(torch.sigmoid(big), zero))):
    (grad,) = torch.autograd.grad(loss, big)
    print(f"{name}: loss {loss.item():.4f}, gradient {grad.item():.4f}")

# pos_weight: one factor per class (column) for the positive term
logits = torch.tensor([[0.2, -0.5], [1.0, 0.3], [-1.2, 0.8]])
labels = torch.tensor([[1.0, 0.0], [0.0, 0.0], [1.0, 1.0]])
pos_weight = torch.tensor([3.0, 1.0])  # class 0: positives count 3 times
print(nn.BCEWithLogitsLoss(reduction="none")(logits, labels))
print(nn.BCEWithLogitsLoss(reduction="none", pos_weight=pos_weight)(logits, labels))

# Targets must be float and have the logits' shape
mistakes = (torch.tensor([1, 0, 0]), torch.tensor([[1.0], [0.0], [0.0]]))
for wrong_target in mistakes:
    try:
        F.binary_cross_entropy_with_logits(torch.tensor([0.5, -1.0, 2.0]), wrong_target)
    except (RuntimeError, ValueError) as error:
        print(f"{type(error).__name__}: {error}")
