"""Parametrizations: orthogonal and spectral_norm from nn.utils.parametrizations, a custom one
with register_parametrization, what it changes on the module (original, ParametrizationList),
cached, remove_parametrizations; torch.func.functional_call (run a module with other tensors),
stack_module_state, replace_all_batch_norm_modules_.

Run: python parametrize.py
"""
import torch
from torch import nn
from torch.func import functional_call, replace_all_batch_norm_modules_, stack_module_state
from torch.nn.utils import parametrizations, parametrize

torch.manual_seed(0)


# A parametrization is a module whose forward maps the stored tensor to the one the layer uses
class Symmetric(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(-1, -2)


layer = nn.Linear(3, 3)
parametrize.register_parametrization(layer, "weight", Symmetric())
print("symmetric:", torch.equal(layer.weight, layer.weight.T))  # recomputed at each access
print("is_parametrized:", parametrize.is_parametrized(layer), parametrize.is_parametrized(layer, "bias"))
print("class:", type(layer).__name__, "before:", parametrize.type_before_parametrizations(layer).__name__)
print("state_dict:", list(layer.state_dict()))  # the stored tensor is ...weight.original
plist = layer.parametrizations.weight
print("list:", isinstance(plist, parametrize.ParametrizationList), len(plist), "original:", tuple(plist.original.shape))
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
print("removed:", type(layer).__name__, list(layer.state_dict()), torch.equal(layer.weight, layer.weight.T))

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
