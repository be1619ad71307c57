"""Parametrizations: orthogonal and spectral_norm from nn.utils.parametrizations, a custom one
with register_parametrization, what it changes on the module (original, ParametrizationList),
cached, remove_parametrizations; torch.func.functional_call (run a module with other tensors),
stack_module_state, replace_all_batch_norm_modules_; pruning with torch.nn.utils.prune.

Run: python parametrize.py
"""
import torch
from torch import nn
from torch.func import functional_call, replace_all_batch_norm_modules_, stack_module_state
from torch.nn.utils import parametrizations, parametrize, prune

torch.manual_seed(0)


# A parametrization is a module whose forward maps the stored tensor to the one the layer uses
class Symmetric(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(-1, -2)


layer = nn.Linear(3, 3)
parametrize.register_parametrization(layer, "weight", Symmetric())
print("symmetric:", torch.equal(layer.weight, layer.weight.T))  # recomputed at each access
print("is_parametrized:", parametrize.is_parametrized(layer),
      parametrize.is_parametrized(layer, "bias"))
print("class:", type(layer).__name__, "before:",
      parametrize.type_before_parametrizations(layer).__name__)
print("state_dict:", list(layer.state_dict()))  # the stored tensor is ...weight.original
plist = layer.parametrizations.weight
print("list:", isinstance(plist, parametrize.ParametrizationList), len(plist), "original:",
      tuple(plist.original.shape))
print("trained tensor:", [n for n, _ in layer.named_parameters()])

# Inside cached(), the weight is computed once and reused (e.g. in an RNN loop)
with parametrize.cached():
    print("cached: same object:", layer.weight is layer.weight)
print("outside: same object:", layer.weight is layer.weight)

# Copy the parametrization and the original tensor to another module of the same shape
other = nn.Linear(3, 3)
parametrize.transfer_parametrizations_and_params(layer, other)
print("transferred:", torch.equal(other.weight, layer.weight))

# Remove it: leave_parametrized=True keeps the current (symmetric) values as a plain parameter
parametrize.remove_parametrizations(layer, "weight")
print("removed:", type(layer).__name__, list(layer.state_dict()),
      torch.equal(layer.weight, layer.weight.T))

# Built-in parametrizations
q = parametrizations.orthogonal(nn.Linear(4, 4))
print("orthogonal: W^T W = I:", torch.allclose(q.weight.T @ q.weight, torch.eye(4), atol=1e-5))
sn = parametrizations.spectral_norm(nn.Linear(6, 4))
for _ in range(20):  # each training-mode forward does one power iteration
    sn(torch.ones(1, 6))
print("spectral norm ~ 1:", round(torch.linalg.matrix_norm(sn.weight.detach(), ord=2).item(), 2))

# functional_call: run a module with other tensors in place of its parameters and buffers
lin = nn.Linear(2, 1)
new = {"weight": torch.tensor([[1.0, 2.0]]), "bias": torch.tensor([0.5])}
print("functional_call:", functional_call(lin, new, (torch.tensor([[1.0, 1.0]]),)).tolist())
print("module unchanged:", not torch.equal(lin.weight, new["weight"]))

# stack_module_state: the parameters of several same-shaped modules, stacked (for vmap)
params, buffers = stack_module_state([nn.Linear(2, 1) for _ in range(3)])
print("stacked:", {k: tuple(v.shape) for k, v in params.items()}, buffers)

# replace_all_batch_norm_modules_: BatchNorm stops tracking running statistics (for vmap)
bn_net = replace_all_batch_norm_modules_(nn.Sequential(nn.Linear(2, 2), nn.BatchNorm1d(2)))
print("running_mean after:", bn_net[1].running_mean, bn_net[1].track_running_stats)

# Pruning: a mask on a tensor; the module keeps weight_orig and weight_mask
pruned = nn.Linear(4, 2)
with torch.no_grad():
    pruned.weight.copy_(torch.tensor([[1.0, 8.0, 2.0, 7.0], [3.0, 6.0, 4.0, 5.0]]))
prune.l1_unstructured(pruned, "weight", amount=0.5)  # zero the half with the smallest |w|
print("l1 pruned:", pruned.weight.tolist())
print("pruned names:", [n for n, _ in pruned.named_parameters()],
      [n for n, _ in pruned.named_buffers()])
prune.ln_structured(pruned, "weight", amount=1, n=2, dim=0)  # then a whole row, by its L2 norm
print("then by row:", pruned.weight.tolist())  # the masks combine
print("is_pruned:", prune.is_pruned(pruned), end="; ")
prune.remove(pruned, "weight")  # keep the zeros, drop the mask and the hook
print("after remove:", prune.is_pruned(pruned), [n for n, _ in pruned.named_parameters()])

# The other functions, and the pruning methods behind them
torch.manual_seed(0)
net = nn.Sequential(nn.Linear(4, 4), nn.Linear(4, 2))
prune.random_unstructured(net[0], "weight", amount=4)  # an int: that many entries
prune.identity(net[0], "bias")  # a mask of ones: the tensor gets the pruned form, nothing zeroed
prune.random_structured(net[1], "weight", amount=1, dim=0)  # one whole row
prune.custom_from_mask(net[1], "bias", mask=torch.tensor([1.0, 0.0]))
print("zeros:",
      [int((t == 0).sum()) for t in (net[0].weight, net[0].bias, net[1].weight, net[1].bias)])
prune.global_unstructured([(net[0], "weight"), (net[1], "weight")],
                          pruning_method=prune.L1Unstructured,
                          amount=0.5)  # one threshold across both layers
print("global zeros:", int((net[0].weight == 0).sum() + (net[1].weight == 0).sum()), "of",
      16 + 8)
w = torch.tensor([[1.0, -4.0], [3.0, 2.0]])
ones = torch.ones_like(w)
methods = [prune.Identity(), prune.RandomUnstructured(amount=1), prune.L1Unstructured(amount=1),
           prune.RandomStructured(amount=1, dim=0), prune.LnStructured(amount=1, n=1, dim=0),
           prune.CustomFromMask(torch.tensor([[0.0, 1], [1, 1]]))]
print("masked entries:",
      {type(m).__name__: int((m.compute_mask(w, ones) == 0).sum()) for m in methods})


# A pruning method of your own: subclass BasePruningMethod
class Threshold(prune.BasePruningMethod):
    PRUNING_TYPE = "unstructured"

    def __init__(self, threshold):
        self.threshold = threshold

    def compute_mask(self, t, default_mask):
        return default_mask * (t.abs() > self.threshold)


small = nn.Linear(2, 2)
with torch.no_grad():
    small.weight.copy_(w)
Threshold.apply(small, "weight", threshold=2.5)
print("custom method:", small.weight.tolist())
