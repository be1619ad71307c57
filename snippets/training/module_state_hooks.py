"""nn.Module: get_extra_state / set_extra_state put a value that is not a tensor into the
state_dict; hooks on state_dict() and load_state_dict() rename keys on the way in and out.

Run: python module_state_hooks.py
"""
import torch
from torch import nn


class Scaler(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = nn.Linear(2, 1)
        self.vocab = {"<pad>": 0}  # plain Python: not a parameter or buffer

    def get_extra_state(self):  # saved under the key "_extra_state"
        return {"vocab": dict(self.vocab)}

    def set_extra_state(self, state):  # called by load_state_dict with that value
        self.vocab = dict(state["vocab"])


model = Scaler()
model.vocab["cat"] = 1
saved = model.state_dict()
print("keys:", list(saved))
print("extra state:", saved["_extra_state"])
fresh = Scaler()
fresh.load_state_dict(saved)
print("loaded vocab:", fresh.vocab)


def before_save(module, prefix, keep_vars):  # runs before the tensors are collected
    print("  state_dict pre hook, prefix:", repr(prefix))


def rename_out(module, state_dict, prefix, local_metadata):  # may edit the finished dict
    state_dict["lin.weight"] = state_dict.pop("linear.weight")


def rename_in(module, state_dict, prefix, local_metadata, strict, missing_keys,
              unexpected_keys, error_msgs):  # edits the dict in place before loading
    if "lin.weight" in state_dict:
        state_dict["linear.weight"] = state_dict.pop("lin.weight")


def check_keys(module, incompatible_keys):  # after loading: may clear the lists
    print("  load post hook, missing:", incompatible_keys.missing_keys)


model.register_state_dict_pre_hook(before_save)
model.register_state_dict_post_hook(rename_out)
renamed = model.state_dict()
print("keys with the post hook:", list(renamed))
fresh.register_load_state_dict_pre_hook(rename_in)
fresh.register_load_state_dict_post_hook(check_keys)
result = fresh.load_state_dict(renamed)
print("strict load after renaming:", result)
print("same weight:", torch.equal(fresh.linear.weight, model.linear.weight))
