"""nn.NLLLoss takes log-probabilities: log_softmax + NLLLoss is CrossEntropyLoss; softmax
output gives a wrong, negative loss.

Run: python loss_nll.py
"""
import torch
import torch.nn.functional as F
from torch import nn

logits = torch.tensor([[2.0, 0.5, -1.0], [0.1, 0.2, 3.0], [1.0, 1.0, 1.0]])
target = torch.tensor([0, 2, 1])  # class indices, int64

log_probs = F.log_softmax(logits, dim=1)  # what a model with a LogSoftmax head returns
print("NLLLoss(log_softmax):", nn.NLLLoss()(log_probs, target))
print("CrossEntropyLoss(logits):", nn.CrossEntropyLoss()(logits, target))
print("F.nll_loss:", F.nll_loss(log_probs, target))
# What it computes: minus the input at the target class, averaged
print("by hand:", -log_probs[torch.arange(3), target].mean())

# The mistake: probabilities instead of log-probabilities
print("NLLLoss(softmax):", nn.NLLLoss()(logits.softmax(dim=1), target))
print("NLLLoss(logits):", nn.NLLLoss()(logits, target))

# A class index out of range: an error on the CPU
try:
    nn.NLLLoss()(log_probs, torch.tensor([0, 2, 3]))
except IndexError as error:
    print(f"IndexError: {error}")
