"""The other optimizers of torch.optim: 20 steps of each on one small least-squares problem
(a smoke test, not a ranking: the lrs are not tuned); LBFGS needs a closure, Muon 2-D
parameters, SparseAdam sparse gradients.

Run: python optim_others.py
"""
import torch
from torch import nn

torch.manual_seed(0)
inputs, true_weight = torch.randn(16, 3), torch.randn(3, 4)
targets = inputs @ true_weight
start = torch.randn(3, 4) * 0.1


def loss_of(weight):
    return ((inputs @ weight - targets) ** 2).mean()


print("loss at the start:", round(loss_of(start).item(), 4))
optimizers = [
    (torch.optim.Adadelta, {"lr": 1.0}),
    (torch.optim.Adafactor, {"lr": 0.1}),
    (torch.optim.Adagrad, {"lr": 0.5}),
    (torch.optim.Adamax, {"lr": 0.1}),
    (torch.optim.ASGD, {"lr": 0.1}),
    (torch.optim.LBFGS, {"lr": 1.0}),
    (torch.optim.Muon, {"lr": 0.1}),  # 2-D parameters only
    (torch.optim.NAdam, {"lr": 0.1}),
    (torch.optim.RAdam, {"lr": 0.1}),
    (torch.optim.RMSprop, {"lr": 0.01}),
    (torch.optim.Rprop, {"lr": 0.01}),
]
for optimizer_class, options in optimizers:
    weight = nn.Parameter(start.clone())
    optimizer = optimizer_class([weight], **options)

    def closure():  # LBFGS calls it several times per step; the others once
        optimizer.zero_grad()
        loss = loss_of(weight)
        loss.backward()
        return loss

    for _ in range(20):
        optimizer.step(closure)
    print(f"{optimizer_class.__name__:10} loss after 20 steps: {loss_of(weight).item():.4f}")

try:
    torch.optim.Muon([nn.Parameter(torch.zeros(3))])
except ValueError as error:
    print(f"ValueError: {error}")

# SparseAdam: for sparse gradients, e.g. nn.Embedding(sparse=True)
embedding = nn.Embedding(10, 3, sparse=True)
before = embedding.weight.detach().clone()
embedding(torch.tensor([1, 2])).sum().backward()
print("sparse gradient:", embedding.weight.grad.is_sparse)
try:
    torch.optim.Adam(embedding.parameters()).step()
except RuntimeError as error:
    print(f"RuntimeError: {error}")
torch.optim.SparseAdam(embedding.parameters(), lr=0.1).step()
changed = (embedding.weight.detach() != before).any(dim=1)
print("rows changed by SparseAdam:", changed.nonzero().flatten().tolist())
