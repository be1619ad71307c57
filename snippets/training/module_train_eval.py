"""train() and eval() set the training flag of every submodule; BatchNorm and Dropout read it.
requires_grad_(False) freezes parameters, which is something else.

Run: python module_train_eval.py
"""
import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(2, 2), nn.BatchNorm1d(2), nn.Dropout(0.5))
print("new module:", model.training)  # modules start in training mode
model.eval()  # the same as model.train(False)
print("eval():", [m.training for m in model.modules()])  # the whole tree
model.train()

x = torch.tensor([[1.0, 2.0], [3.0, 6.0]])
bn = nn.BatchNorm1d(2)  # running_mean starts at 0, running_var at 1
out = bn(x)  # training: normalize with the batch's statistics, update the running ones
print("train output:", out.detach().round(decimals=4))
print("after train step:", bn.running_mean, bn.running_var, bn.num_batches_tracked)
bn.eval()
out = bn(x)  # eval: use the running statistics, leave them alone
print("after eval step: ", bn.running_mean, bn.running_var, bn.num_batches_tracked)
print("eval output:", out.detach().round(decimals=4))

dropout = nn.Dropout(0.5)
print("dropout train:", dropout(torch.ones(6)))  # zeros, survivors scaled by 2
print("dropout eval: ", dropout.eval()(torch.ones(6)))  # the identity

# Freezing: no gradients, but BatchNorm still updates its statistics in training mode
frozen = nn.BatchNorm1d(2).requires_grad_(False)
frozen(x)
print("frozen, training mode:", frozen.running_mean, frozen.weight.requires_grad)
# eval() does not stop gradients
layer = nn.Linear(2, 1).eval()
layer(x).sum().backward()
print("eval, gradient:", layer.weight.grad)

try:  # in training mode BatchNorm needs more than one value per channel
    nn.BatchNorm1d(2)(torch.ones(1, 2))
except ValueError as error:
    print(f"ValueError: {error}")
