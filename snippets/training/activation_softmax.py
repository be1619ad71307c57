"""softmax, log_softmax and softmin over the right dim; log_softmax + nll_loss equals
cross_entropy on logits; softmax's dtype argument; gumbel_softmax's samples.

Run: python activation_softmax.py
"""
import torch
import torch.nn.functional as F

torch.set_printoptions(precision=4)
logits = torch.tensor([[1.0, 2.0, 3.0], [1.0, 1.0, 1.0]])  # (N, C): 2 samples, 3 classes
probs = F.softmax(logits, dim=1)  # over the classes of each sample
print("softmax(dim=1):", probs, sep="\n")
print("row sums:", [round(v, 4) for v in probs.sum(dim=1).tolist()])
wrong = F.softmax(logits, dim=0)  # the wrong dim: across the batch
print("softmax(dim=0):", wrong, sep="\n")
print("row sums:", [round(v, 4) for v in wrong.sum(dim=1).tolist()])
print("dim=-1 == dim=1 for (N, C):", torch.equal(F.softmax(logits, dim=-1), probs))

log_probs = F.log_softmax(logits, dim=1)
print("log_softmax == log(softmax):", torch.allclose(log_probs, probs.log()))
print("softmin == softmax(-x):",
      torch.allclose(F.softmin(logits, dim=1), F.softmax(-logits, dim=1)))

big = torch.tensor([[1000.0, 0.0]])  # log(softmax) underflows, log_softmax does not
print("log(softmax(big)):", torch.log(F.softmax(big, dim=1)))
print("log_softmax(big): ", F.log_softmax(big, dim=1))

target = torch.tensor([2, 0])
nll = F.nll_loss(F.log_softmax(logits, dim=1), target)
ce = F.cross_entropy(logits, target)  # takes the logits, applies log_softmax itself
print("nll_loss(log_softmax):", f"{nll.item():.4f}", "cross_entropy:", f"{ce.item():.4f}",
      "equal:", torch.allclose(nll, ce))
twice = F.cross_entropy(F.log_softmax(logits, dim=1), target)  # log_softmax is idempotent
print("cross_entropy on log-probabilities, same value:", torch.allclose(twice, ce))

half = logits.to(torch.bfloat16)
print("softmax(dtype=float32) of bfloat16:", F.softmax(half, dim=1, dtype=torch.float32).dtype)

torch.manual_seed(0)
soft = F.gumbel_softmax(logits, tau=1.0)  # a random sample, each row sums to 1
hard = F.gumbel_softmax(logits, tau=1.0, hard=True)  # one-hot forward, soft gradient
print("gumbel_softmax row sums:", [round(v, 4) for v in soft.sum(dim=1).tolist()])
print("hard=True: one 1 per row:", hard.sum(dim=1).tolist(), "values in {0, 1}:",
      bool(((hard == 0) | (hard == 1)).all()))
