"""nn.KLDivLoss: input log-probabilities, target probabilities (or log_target=True);
reduction="batchmean" is KL(target || model) averaged over the batch, "mean" is not.

Run: python loss_kl_div.py
"""
import warnings

import torch
import torch.nn.functional as F
from torch import nn

target = torch.tensor([[0.7, 0.2, 0.1], [0.1, 0.1, 0.8]])  # probabilities, rows sum to 1
logits = torch.tensor([[1.0, 0.5, 0.0], [0.0, 0.5, 1.0]])  # the model's output
log_q = F.log_softmax(logits, dim=1)  # the input: log-probabilities

# KL divergence of each sample, by hand, then its mean over the batch
per_sample = (target * (target.log() - log_q)).sum(dim=1)
print("by hand:", per_sample, per_sample.mean())
print("batchmean:", nn.KLDivLoss(reduction="batchmean")(log_q, target))
print("log_target=True:",
      nn.KLDivLoss(reduction="batchmean", log_target=True)(log_q, target.log()))
print("F.kl_div:", F.kl_div(log_q, target, reduction="batchmean"))

# The default "mean" divides by every element (2 x 3), not by the batch (2)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    mean = nn.KLDivLoss()(log_q, target)
print("mean:", mean, "= sum / 6:", nn.KLDivLoss(reduction="sum")(log_q, target) / 6)
first_sentence = str(caught[0].message).split(".")[0]
print(f"{caught[0].category.__name__}: {first_sentence}.")

# The mistake: probabilities as the input
print("probabilities as input:",
      nn.KLDivLoss(reduction="batchmean")(logits.softmax(dim=1), target))
