"""F.cross_entropy and nn.CrossEntropyLoss: logits [N, C]; int64 class indices [N] or
probabilities.

Run: python cross_entropy.py
"""
import torch
import torch.nn.functional as F

# N=2 samples, C=3 classes: raw scores, no softmax
logits = torch.tensor([[2.0, 0.5, -1.0], [0.1, 0.2, 3.0]])
target = torch.tensor([0, 2])  # class indices: int64, shape [N]
print(F.cross_entropy(logits, target))
print(torch.nn.CrossEntropyLoss()(logits, target))  # the module form: the same
# What it computes: mean negative log-softmax of the target classes
print(-logits.log_softmax(dim=1)[torch.arange(2), target].mean())
print(F.cross_entropy(logits, target, reduction="none"))  # per sample

wrong = F.cross_entropy(logits.softmax(dim=1), target)
print(wrong, "<- softmax applied twice: wrong")

# Soft targets: float, same shape as the logits
probs = torch.tensor([[0.9, 0.1, 0.0], [0.0, 0.0, 1.0]])
print(F.cross_entropy(logits, probs))
print(F.cross_entropy(logits, target, label_smoothing=0.1))

# Per-class weights: float, on the same device as the logits.
# The mean divides by the targets' weights (1 + 4), not by N.
weight = torch.tensor([1.0, 1.0, 4.0])
print(F.cross_entropy(logits, target, weight=weight))

# A target of -100 (ignore_index) is left out of the sum and of the mean's count
ignored = torch.tensor([0, -100])
print(F.cross_entropy(logits, ignored))
print(F.cross_entropy(logits[:1], target[:1]))  # sample 0 alone: the same

mistakes = ({"target": target.float()},
            {"target": target, "weight": torch.tensor([1, 1, 4])})
for kwargs in mistakes:
    try:
        F.cross_entropy(logits, **kwargs)
    except RuntimeError as error:
        print(f"RuntimeError: {error}")
